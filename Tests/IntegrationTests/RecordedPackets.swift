import Foundation
import TestSupport

/// Every packet of a recording as ffprobe reads it (FLV: times in milliseconds), per track, in
/// file order.
struct RecordedPackets {
    struct Packet: CustomStringConvertible {
        var pts: Int
        var dts: Int
        var isKeyframe: Bool
        var description: String { "dts \(dts) pts \(pts)\(isKeyframe ? " K" : "")" }
    }

    var video: [Packet] = []
    var audio: [Packet] = []

    init(_ file: URL) throws {
        let output = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-show_entries", "packet=codec_type,pts,dts,flags", "-of", "csv=p=0", file.path,
        ])
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            // codec_type,pts,dts,flags (ffprobe's own order of the fields)
            let columns = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 4, let pts = Int(columns[1]), let dts = Int(columns[2]) else { continue }
            let packet = Packet(pts: pts, dts: dts, isKeyframe: columns[3].hasPrefix("K"))
            if columns[0] == "video" { video.append(packet) } else if columns[0] == "audio" { audio.append(packet) }
        }
        guard !video.isEmpty, !audio.isEmpty else { throw HarnessError("\(file.path): \(video.count) video, \(audio.count) audio packets") }
    }

    /// The sample rate of each decoded audio frame, as FFmpeg's AAC decoder made it (its
    /// `ashowinfo` filter; ffprobe 5.1 does not show a frame's rate).
    static func audioFrameRates(_ file: URL) throws -> [Int] {
        let result = try FFmpegTools.result("ffmpeg", [
            "-nostdin", "-nostats", "-v", "info", "-i", file.path, "-map", "0:a:0", "-af", "ashowinfo", "-f", "null", "-",
        ])
        return result.stderr.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.contains("Parsed_ashowinfo"), let range = line.range(of: " rate:") else { return nil }
            return Int(line[range.upperBound...].prefix(while: \.isNumber))
        }
    }
}
