import Foundation

/// Every picture of a video file as FFmpeg decodes it (nobody here wrote it): the MD5 of its
/// pixels (ffmpeg's framemd5 muxer), its presentation time and whether its packet is a keyframe
/// (ffprobe). The MD5 says which picture it is whatever the container (MP4, MPEG-TS, FLV, a raw
/// .h264), so one recording of a run can be held against another picture by picture: what one
/// holds and the other lacks, and where.
public struct DecodedPictures: Sendable {
    public struct Picture: Sendable {
        /// Presentation time, seconds. A raw .h264/.h265 carries none: there it is FFmpeg's guess.
        public var seconds: Double
        public var isKeyframe: Bool
        public var md5: String
    }

    public var file: URL
    public var pictures: [Picture]

    public init(_ file: URL) throws {
        self.file = file
        // Passthrough: one line per decoded picture, none made up or dropped to keep a rate; the
        // demuxer's time base and its timestamps as they are (-copyts), so the times are the file's own.
        let sums = String(decoding: try FFmpegTools.run("ffmpeg", [
            "-nostdin", "-v", "error", "-copyts", "-i", file.path, "-map", "0:v:0", "-fps_mode", "passthrough", "-enc_time_base", "-1",
            "-f", "framemd5", "-",
        ]), as: UTF8.self)
        var timeBase = 0.0
        var decoded: [(pts: Int, md5: String)] = []
        for line in sums.split(separator: "\n") {
            if line.hasPrefix("#tb 0:") {
                let fraction = line.dropFirst("#tb 0:".count).trimmingCharacters(in: .whitespaces).split(separator: "/").compactMap { Double($0) }
                if fraction.count == 2, fraction[1] > 0 { timeBase = fraction[0] / fraction[1] }
                continue
            }
            // stream, dts, pts, duration, size, md5
            let columns = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !line.hasPrefix("#"), columns.count == 6, let pts = Int(columns[2]) else { continue }
            decoded.append((pts, columns[5]))
        }
        guard timeBase > 0 else { throw HarnessError("\(file.path): no time base in ffmpeg's framemd5 output") }
        // Keyframes by their packets' pts, in the same time base (the demuxer's); a raw stream's
        // packets have none, and there (no B-frames) the n-th packet is the n-th picture.
        let packets = String(decoding: try FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,flags", "-of", "csv=p=0", file.path,
        ]), as: UTF8.self).split(separator: "\n").map { line in
            let columns = line.split(separator: ",", omittingEmptySubsequences: false)
            return (pts: Int(columns.first ?? ""), isKeyframe: columns.count >= 2 && columns[1].hasPrefix("K"))
        }
        let timed = packets.allSatisfy { $0.pts != nil }
        guard timed || packets.count == decoded.count else {
            throw HarnessError("\(file.path): \(packets.count) packets without times, \(decoded.count) pictures decoded")
        }
        let keyframes = Set(packets.filter(\.isKeyframe).compactMap(\.pts))
        pictures = decoded.enumerated().map { position, picture in
            Picture(seconds: Double(picture.pts) * timeBase, isKeyframe: timed ? keyframes.contains(picture.pts) : packets[position].isKeyframe,
                    md5: picture.md5)
        }
    }

    /// Where each of `recorded`'s pictures is among these (an index into `pictures`), nil for one
    /// these do not hold.
    public func indices(of recorded: [Picture]) -> [Int?] {
        var index: [String: Int] = [:]
        for (position, picture) in pictures.enumerated() where index[picture.md5] == nil { index[picture.md5] = position }
        return recorded.map { index[$0.md5] }
    }

    /// Times of these pictures, for a message: `3.067 s, 3.100 s, …` (the first few).
    public static func describe(_ pictures: some Collection<Picture>, limit: Int = 8) -> String {
        let shown = pictures.prefix(limit).map { String(format: "%.3f s", $0.seconds) }
        return shown.joined(separator: ", ") + (pictures.count > limit ? ", … (\(pictures.count))" : "")
    }
}
