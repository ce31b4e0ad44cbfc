import Foundation

/// What ffprobe — a tool nobody here wrote — says about a recorded stream.
public struct ProbedVideo: Sendable {
    public struct Packet: Sendable {
        public var dtsMilliseconds: Int
        public var ptsMilliseconds: Int
        public var bytes: Int
        public var isKeyframe: Bool
    }

    public var codec: String
    public var width: Int
    public var height: Int
    public var decodedFrames: Int
    public var packets: [Packet]

    public static func probe(_ file: URL) throws -> ProbedVideo {
        let stream = try FFmpegTools.result(
            "ffprobe",
            ["-v", "error", "-count_frames", "-select_streams", "v:0",
             "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of", "default=noprint_wrappers=1", file.path])
        guard stream.status == 0 else { throw HarnessError("ffprobe failed on \(file.path): \(stream.stderr)") }
        var fields: [String: String] = [:]
        for line in stream.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return ProbedVideo(
            codec: fields["codec_name"] ?? "", width: Int(fields["width"] ?? "") ?? 0,
            height: Int(fields["height"] ?? "") ?? 0, decodedFrames: Int(fields["nb_read_frames"] ?? "") ?? 0,
            packets: try packets(file))
    }

    /// The video packets alone, without decoding: quicker when frames need not be counted.
    public static func packets(_ file: URL) throws -> [Packet] {
        // FLV's time base is 1/1000, so ffprobe's pts/dts are milliseconds.
        let result = try FFmpegTools.result(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,dts,size,flags", "-of", "csv=p=0", file.path])
        guard result.status == 0 else { throw HarnessError("ffprobe -show_packets failed on \(file.path): \(result.stderr)") }
        return result.stdout.split(separator: "\n").compactMap { line -> Packet? in
            let columns = line.split(separator: ",", omittingEmptySubsequences: false)
            guard columns.count >= 4, let pts = Int(columns[0]), let dts = Int(columns[1]), let size = Int(columns[2]) else {
                return nil
            }
            return Packet(dtsMilliseconds: dts, ptsMilliseconds: pts, bytes: size, isKeyframe: columns[3].hasPrefix("K"))
        }
    }

    /// kbit/s of the packets whose pts fall in `range` (milliseconds).
    public static func kbps(_ packets: [Packet], in range: ClosedRange<Int>) -> Double {
        let bytes = packets.filter { range.contains($0.ptsMilliseconds) }.reduce(0) { $0 + $1.bytes }
        return Double(bytes) * 8 / Double(range.upperBound - range.lowerBound)
    }

    /// `ffmpeg -xerror` stops at the first decoding error; an empty result means a clean decode.
    /// `-enc_time_base -1` keeps FLV's millisecond clock: a camera's jittery frame times would
    /// otherwise collide when ffmpeg rounds them onto a 1/fps grid, and it complains about that.
    public static func decodeErrors(_ file: URL) throws -> String {
        let result = try FFmpegTools.result(
            "ffmpeg", ["-v", "error", "-xerror", "-i", file.path, "-enc_time_base", "-1", "-f", "null", "-"])
        return result.status == 0 ? result.stderr : "exit \(result.status): \(result.stderr)"
    }
}
