import Foundation
import TestSupport

/// Reading a running camcast's stderr: waiting for a line, and the time stamped on each.
extension RunningProcess {
    /// Lines of stderr that contain `text`.
    func logLines(containing text: String) -> [String] {
        stderrSoFar.split(separator: "\n").map(String.init).filter { $0.contains(text) }
    }

    /// Waits until `count` lines contain `text`; false on timeout.
    @discardableResult
    func waitForLog(_ text: String, count: Int = 1, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if logLines(containing: text).count >= count { return true }
            usleep(20_000)
        }
        return logLines(containing: text).count >= count
    }
}

enum CamcastLog {
    /// The timestamp a console log line starts with (`2026-11-22T21:40:00.123Z info …`).
    static func time(of line: String) -> Date? {
        guard let stamp = line.split(separator: " ").first else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: String(stamp))
    }

    /// An integer from the run's stop summary (`stopped … frames=N skipped=N …`).
    static func stopCount(_ key: String, in log: String) -> Int? {
        log.split(separator: "\n").last { $0.contains(" stopped") }.flatMap { value(key, in: String($0)) }.flatMap { Int($0) }
    }

    /// Frame slots of the run that no encoded picture fills, from its stop summary: the ones the
    /// source skipped (`skipped`) and the pictures a live source handed on while the encoder
    /// stage's queue was full (`encoder_dropped`). With the pictures encoded (`frames`), and a
    /// camera driver's drops, they are every slot of the run; each leaves a hole of one frame
    /// interval in the stream's time line. `log`: the run's stderr, or its stop line alone.
    static func unencodedSlots(in log: String) -> Int? {
        guard let skipped = stopCount("skipped", in: log), let dropped = stopCount("encoder_dropped", in: log) else { return nil }
        return skipped + dropped
    }

    /// The value of `key=value` in a log line.
    static func value(_ key: String, in line: String) -> String? {
        guard let range = line.range(of: " \(key)=") else { return nil }
        let rest = line[range.upperBound...]
        if rest.first == "\"" { return String(rest.dropFirst().prefix(while: { $0 != "\"" })) }
        return String(rest.prefix(while: { $0 != " " }))
    }
}

/// What a received recording must look like after a (re)connection: starts with a keyframe,
/// strictly increasing timestamps, decodes without a single error, and after every hole in the
/// timestamps longer than `holeMilliseconds` (frames dropped by the send queue) the next frame is
/// a keyframe. Shorter holes are the source skipping a frame or two on a busy machine, which the
/// encoder never saw.
struct ResumedStreamCheck {
    var problems: [String] = []
    var packets = 0

    /// `unencodedSlots`: the run's slots without a picture (`CamcastLog.unencodedSlots`: skipped
    /// at the source, dropped at the encoder's full queue). A hole no longer than all of them
    /// together, one interval more, may be theirs: the encoder never saw those slots, so the
    /// picture after them is no keyframe (a loaded machine lost 300 ms and more in a row). Longer
    /// holes must end at a keyframe. 34 ms: a 30 fps interval, rounded up.
    init(_ file: URL, unencodedSlots: Int) throws {
        try self.init(file, holeMilliseconds: max(300, (unencodedSlots + 1) * 34))
    }

    init(_ file: URL, holeMilliseconds: Int = 300) throws {
        let video = try ProbedVideo.probe(file)
        packets = video.packets.count
        let name = file.lastPathComponent
        if video.packets.isEmpty { problems.append("\(name): no video") }
        if video.packets.first?.isKeyframe != true { problems.append("\(name): does not start with a keyframe") }
        for (previous, next) in zip(video.packets, video.packets.dropFirst()) {
            if next.dtsMilliseconds <= previous.dtsMilliseconds {
                problems.append("\(name): dts \(previous.dtsMilliseconds) → \(next.dtsMilliseconds)")
            } else if next.dtsMilliseconds - previous.dtsMilliseconds > holeMilliseconds && !next.isKeyframe {
                problems.append("\(name): after a hole at \(previous.dtsMilliseconds) ms a non-keyframe follows")
            }
        }
        let errors = try ProbedVideo.decodeErrors(file)
        if !errors.isEmpty { problems.append("\(name): decode errors: \(errors.prefix(300))") }
    }
}
