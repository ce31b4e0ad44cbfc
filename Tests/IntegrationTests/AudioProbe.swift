import FLV
import Foundation
import TestSupport

/// What the far end hears and sees, measured with ffprobe/ffmpeg (tools nobody here wrote) and
/// the tags of the file read back.
enum AudioProbe {
    struct Stream {
        var codec: String
        var sampleRate: Int
        var channels: Int
        /// First packet's pts and last packet's pts + duration, milliseconds.
        var startMilliseconds: Int
        var endMilliseconds: Int
    }

    /// The first stream of `kind` ("a" or "v") with its time span from its packets.
    static func stream(_ kind: String, in file: URL) throws -> Stream {
        let info = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "\(kind):0", "-show_entries", "stream=codec_name,sample_rate,channels",
            "-of", "default=noprint_wrappers=1", file.path,
        ])
        var fields: [String: String] = [:]
        for line in String(decoding: info, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        let packets = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "\(kind):0", "-show_entries", "packet=pts,duration", "-of", "csv=p=0", file.path,
        ])
        let spans = String(decoding: packets, as: UTF8.self).split(separator: "\n").compactMap { line -> (Int, Int)? in
            let columns = line.split(separator: ",", omittingEmptySubsequences: false)
            guard let pts = Int(columns.first ?? "") else { return nil }
            return (pts, columns.count > 1 ? Int(columns[1]) ?? 0 : 0)
        }
        guard let first = spans.first, let last = spans.last else { throw HarnessError("no \(kind) packets in \(file.path)") }
        return Stream(
            codec: fields["codec_name"] ?? "", sampleRate: Int(fields["sample_rate"] ?? "") ?? 0,
            channels: Int(fields["channels"] ?? "") ?? 0, startMilliseconds: first.0, endMilliseconds: last.0 + last.1)
    }

    /// The audio and video tags' timestamps, in file order.
    static func mediaTagTimes(_ file: URL) throws -> [(type: FLVTagType, timestamp: UInt32)] {
        try FLVReader.readFile(atPath: file.path).tags.filter { $0.type != .scriptData }.map { ($0.type, $0.timestamp) }
    }

    /// The decoded audio, mono 48 kHz, as Doubles in −1…1, from the first sample decoded.
    static func pcm(_ file: URL) throws -> [Double] {
        let raw = try FFmpegTools.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", file.path, "-map", "0:a:0", "-ac", "1", "-ar", "48000", "-f", "s16le", "-",
        ])
        return Goertzel.samples(fromS16LE: [UInt8](raw))
    }

    /// `ffmpeg -xerror` over every stream: empty when both decode cleanly.
    static func decodeErrors(_ file: URL) throws -> String {
        try FFmpegTools.result("ffmpeg", ["-nostdin", "-v", "error", "-xerror", "-i", file.path, "-map", "0", "-f", "null", "-"]).stderr
    }

    /// Per 1 ms of decoded audio (48 samples), its RMS and stream time (ms), from ffmpeg's own
    /// astats, so the time of each chunk is the decoder's, not ours.
    static func loudness(_ file: URL) throws -> [(milliseconds: Double, rmsDecibels: Double)] {
        let path = file.path.replacingOccurrences(of: "'", with: "\\'")
        let output = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-f", "lavfi",
            "-i", "amovie='\(path)',aresample=48000,asetnsamples=n=48:p=0,astats=metadata=1:reset=1",
            "-show_entries", "frame=pts_time:frame_tags=lavfi.astats.Overall.RMS_level", "-of", "csv=p=0",
        ], timeout: 1200)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
            let columns = line.split(separator: ",")
            guard columns.count == 2, let time = Double(columns[0]) else { return nil }
            return (time * 1000, Double(columns[1]) ?? -200)  // "-inf" is silence
        }
    }

    /// Per decoded picture, its stream time (ms) and mean luma.
    static func brightness(_ file: URL) throws -> [(milliseconds: Double, luma: Double)] {
        let path = file.path.replacingOccurrences(of: "'", with: "\\'")
        let output = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-f", "lavfi", "-i", "movie='\(path)',signalstats",
            "-show_entries", "frame=pts_time:frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0",
        ], timeout: 1200)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
            let columns = line.split(separator: ",")
            guard columns.count == 2, let time = Double(columns[0]), let luma = Double(columns[1]) else { return nil }
            return (time * 1000, luma)
        }
    }

    /// Onsets: the times where `values` rise above `threshold` after at least `quiet` ms below it.
    static func onsets(_ values: [(Double, Double)], threshold: Double, quiet: Double) -> [Double] {
        var onsets: [Double] = []
        var lastLoud = -Double.infinity
        var loud = false
        for (time, value) in values {
            if value > threshold {
                if !loud && time - lastLoud > quiet { onsets.append(time) }
                loud = true
                lastLoud = time
            } else {
                loud = false
            }
        }
        return onsets
    }
}
