import Foundation
import TestSupport

/// What ffprobe and ffmpeg (not our parser) say about a recorded MP4 segment.
struct RecordingProbe {
    struct Packet {
        var dtsSeconds: Double
        var isKeyframe: Bool
    }

    var videoCodec: String
    var audioCodec: String?
    var videoPackets: [Packet]
    var decodedFrames: Int
    /// Where each track starts (s): in sync, the sound starts with the first picture.
    var videoStart: Double?
    var audioStart: Double?

    /// Media time the video covers: from the first packet to the end of the last (one frame).
    var videoSeconds: Double {
        guard let first = videoPackets.first, let last = videoPackets.last else { return 0 }
        let frame = videoPackets.count > 1 ? (last.dtsSeconds - first.dtsSeconds) / Double(videoPackets.count - 1) : 0
        return last.dtsSeconds - first.dtsSeconds + frame
    }

    /// Whether a segment that is not the last was cut where the recorder's rule says: at the first
    /// keyframe at or after `segmentSeconds` of stream time. Every keyframe inside it comes before
    /// that (else the cut would have been there), and it runs until the next keyframe: fewer than
    /// `keyint` pictures after its last one, and media up to `segmentSeconds`, less the frame slots
    /// no picture filled on a loaded machine (`CamcastLog.unencodedSlots`, at `frameRate`; lost
    /// before the cut, they shorten a segment without a gap inside it). Nothing here depends on the
    /// machine's speed. Returns what is wrong, or nil.
    func cutProblem(segmentSeconds: Double, keyint: Int, unencodedSlots: Int, frameRate: Double) -> String? {
        guard let first = videoPackets.first else { return "no picture" }
        let keyframes = videoPackets.indices.filter { videoPackets[$0].isKeyframe }
        // dts are milliseconds (MP4) or exact in 90 kHz (MPEG-TS): half a millisecond of rounding.
        if let late = keyframes.dropFirst().first(where: { videoPackets[$0].dtsSeconds - first.dtsSeconds >= segmentSeconds - 0.0005 }) {
            return "a keyframe at \(videoPackets[late].dtsSeconds - first.dtsSeconds) s, past the \(segmentSeconds) s cut"
        }
        let afterLastKeyframe = videoPackets.count - (keyframes.last ?? 0)
        if afterLastKeyframe > keyint { return "\(afterLastKeyframe) pictures from its last keyframe, more than the \(keyint) between keyframes" }
        if videoSeconds < segmentSeconds - Double(unencodedSlots) / frameRate - 0.0015 {
            return "\(videoSeconds) s of pictures, short of \(segmentSeconds) s less \(unencodedSlots) slots not encoded"
        }
        return nil
    }

    static func probe(_ file: URL) throws -> RecordingProbe {
        let codecs = { (stream: String) throws -> String? in
            firstLine(try FFmpegTools.run(
                "ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "stream=codec_name", "-of", "csv=p=0", file.path]))
        }
        let packets = String(decoding: try FFmpegTools.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=dts_time,flags", "-of", "csv=p=0", file.path]),
            as: UTF8.self)
        let frames = String(decoding: try FFmpegTools.run(
            "ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file.path]),
            as: UTF8.self)
        let start = { (stream: String) throws -> Double? in
            firstLine(try FFmpegTools.run(
                "ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "stream=start_time", "-of", "csv=p=0", file.path]))
                .flatMap(Double.init)
        }
        return RecordingProbe(
            videoCodec: try codecs("v:0") ?? "", audioCodec: try codecs("a:0"),
            videoPackets: packets.split(separator: "\n").compactMap { line in
                let columns = line.split(separator: ",", omittingEmptySubsequences: false)
                guard columns.count >= 2, let dts = Double(columns[0]) else { return nil }
                return Packet(dtsSeconds: dts, isKeyframe: columns[1].hasPrefix("K"))
            },
            decodedFrames: firstLine(Data(frames.utf8)).flatMap { Int($0) } ?? -1,
            videoStart: try start("v:0"), audioStart: try start("a:0"))
    }

    /// ffprobe's first non-empty line: an MPEG-TS lists each stream again under its program.
    static func firstLine(_ output: Data) -> String? {
        String(decoding: output, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
    }

    /// The segments a recorder made under `directory`, oldest first: in the order of its index
    /// (`-2` sorts before `.mp4`, so names alone would not do), then any the index does not list
    /// yet (the one in progress), by name.
    static func segments(in directory: URL, suffix: String = ".mp4") -> [URL] {
        let names = (FileManager.default.subpaths(atPath: directory.path) ?? []).filter { $0.hasSuffix(suffix) }
        let index = ((try? String(contentsOf: directory.appendingPathComponent(".camcast-recordings"), encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
        let listed = index.filter(names.contains)
        return (listed + names.filter { !listed.contains($0) }.sorted()).map { directory.appendingPathComponent($0) }
    }

    static func size(_ file: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) ?? 0
    }

    /// Waits until `condition` holds; false after `timeout` seconds.
    static func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }
}
