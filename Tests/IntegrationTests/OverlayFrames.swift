import Foundation
import TestSupport

/// Grey (luma) pictures decoded from a recording by ffmpeg, with their presentation times, and
/// the pixel arithmetic the overlay tests need: where two runs differ, and how much elsewhere.
struct OverlayFrames {
    let width: Int
    let height: Int
    /// Luma of each selected frame, in the order asked for.
    let pictures: [[UInt8]]
    /// Presentation time of each, in seconds (ffmpeg's showinfo `pts_time`).
    let seconds: [Double]

    /// Decodes frames `indices` (ascending) of `file`.
    init(_ file: URL, indices: [Int], width: Int, height: Int) throws {
        let select = indices.map { "eq(n\\,\($0))" }.joined(separator: "+")
        let decoded = try Self.decode(file, filter: "select='\(select)',showinfo", width: width, height: height)
        guard decoded.pictures.count == indices.count else {
            throw HarnessError("ffmpeg gave \(decoded.pictures.count) of the \(indices.count) frames asked of \(file.path)")
        }
        (self.width, self.height, pictures, seconds) = (width, height, decoded.pictures, decoded.seconds)
    }

    /// Decodes, for each of `times` (ascending, seconds after the first frame), the first frame at
    /// or after it (half a frame early counts): the same instants of a recording however many
    /// frames a loaded machine's source skipped before them.
    init(_ file: URL, atSeconds times: [Double], frameRate: Double, width: Int, height: Int) throws {
        let decoded = try Self.decode(file, filter: "showinfo", width: width, height: height)
        guard let origin = decoded.seconds.first, decoded.seconds.count == decoded.pictures.count else {
            throw HarnessError("ffmpeg gave \(decoded.pictures.count) pictures and \(decoded.seconds.count) times for \(file.path)")
        }
        let picked = try times.map { time in
            guard let index = decoded.seconds.firstIndex(where: { $0 - origin >= time - 0.5 / frameRate }) else {
                throw HarnessError("\(file.path) ends at \(decoded.seconds.last! - origin) s, before \(time) s")
            }
            return index
        }
        (self.width, self.height) = (width, height)
        pictures = picked.map { decoded.pictures[$0] }
        seconds = picked.map { decoded.seconds[$0] }
    }

    /// The pictures `filter` (ending in showinfo) lets through, and their presentation times.
    private static func decode(_ file: URL, filter: String, width: Int, height: Int) throws -> (pictures: [[UInt8]], seconds: [Double]) {
        let result = try FFmpegTools.result(
            "ffmpeg",
            ["-nostdin", "-hide_banner", "-i", file.path, "-vf", filter, "-fps_mode", "passthrough",
             "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        guard result.status == 0 else { throw HarnessError("ffmpeg could not decode \(file.path): \(result.stderr)") }
        let size = width * height
        let bytes = [UInt8](result.stdoutData)
        guard bytes.count % size == 0 else {
            throw HarnessError("ffmpeg gave \(bytes.count) bytes, not whole frames of \(width)x\(height)")
        }
        let pictures = (0..<(bytes.count / size)).map { Array(bytes[($0 * size)..<(($0 + 1) * size)]) }
        let seconds = result.stderr.split(separator: "\n").compactMap { line -> Double? in
            guard line.contains("Parsed_showinfo"), let range = line.range(of: "pts_time:") else { return nil }
            return Double(line[range.upperBound...].prefix { !$0.isWhitespace })
        }
        return (pictures, seconds)
    }

    /// The smallest rectangle holding every pixel of `region` where the two pictures differ by more
    /// than `threshold`; nil if none does.
    static func changedBox(
        _ a: [UInt8], _ b: [UInt8], width: Int, within region: (x: Range<Int>, y: Range<Int>), threshold: Int = 48
    ) -> (x: Range<Int>, y: Range<Int>)? {
        var (minX, maxX, minY, maxY) = (Int.max, -1, Int.max, -1)
        for y in region.y {
            for x in region.x where abs(Int(a[y * width + x]) - Int(b[y * width + x])) > threshold {
                (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
            }
        }
        return maxX < 0 ? nil : (minX..<(maxX + 1), minY..<(maxY + 1))
    }

    /// Mean absolute difference and the share of pixels differing by more than 24, over every
    /// pixel outside `boxes`.
    static func differenceOutside(_ boxes: [(x: Range<Int>, y: Range<Int>)], _ a: [UInt8], _ b: [UInt8], width: Int) -> (mean: Double, large: Double) {
        var (sum, count, large) = (0, 0, 0)
        for index in a.indices {
            let (x, y) = (index % width, index / width)
            if boxes.contains(where: { $0.x.contains(x) && $0.y.contains(y) }) { continue }
            let difference = abs(Int(a[index]) - Int(b[index]))
            sum += difference
            count += 1
            if difference > 24 { large += 1 }
        }
        return (Double(sum) / Double(max(1, count)), Double(large) / Double(max(1, count)))
    }

    /// What tesseract reads in `box` of `picture` (one line of text, `--psm 7`).
    /// `pageMode`: tesseract's --psm, 7 for one line, 6 for a block of lines.
    static func read(
        _ picture: [UInt8], width: Int, box: (x: Range<Int>, y: Range<Int>), in dir: URL, name: String, pageMode: String = "7"
    ) throws -> String {
        var pgm = Data("P5\n\(box.x.count) \(box.y.count)\n255\n".utf8)
        for y in box.y { pgm.append(contentsOf: picture[(y * width + box.x.lowerBound)..<(y * width + box.x.upperBound)]) }
        let file = dir.appendingPathComponent("\(name).pgm")
        try pgm.write(to: file)
        // One OpenMP thread: the same text, at under half the CPU (tesseract's threads spin-wait for
        // each other, which on a loaded 2-core machine costs ~0.25 s a picture for nothing).
        let result = try ProcessRunner.run(
            "/usr/bin/env", ["OMP_THREAD_LIMIT=1", "/usr/bin/tesseract", file.path, "-", "--psm", pageMode], timeout: 60)
        guard result.status == 0 else { throw HarnessError("tesseract failed on \(name): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A box grown by `margin` pixels on every side (the encoder's blocks blur its edge), kept in the picture.
    static func grown(_ box: (x: Range<Int>, y: Range<Int>), by margin: Int, width: Int, height: Int) -> (x: Range<Int>, y: Range<Int>) {
        (max(0, box.x.lowerBound - margin)..<min(width, box.x.upperBound + margin),
         max(0, box.y.lowerBound - margin)..<min(height, box.y.upperBound + margin))
    }
}
