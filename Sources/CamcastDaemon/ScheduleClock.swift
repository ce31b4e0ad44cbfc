import Config
import Outputs
import Schedule
#if canImport(Glibc)
import Glibc
#endif

/// The wall clock schedules are judged by, and what a schedule says of it for an output.
///
/// Debug builds only: `CAMCAST_DEBUG_CLOCK_OFFSET_FILE` names a file holding a number of seconds
/// (may be negative) added to the system's clock, read again at every look, so a test moves the
/// clock as NTP or a DST change would, without touching the machine's (issue 44). Release builds
/// ignore it.
enum ScheduleClock {
    static let offsetFileVariable = "CAMCAST_DEBUG_CLOCK_OFFSET_FILE"

    static func now() -> WallTime {
        var now = WallTime.now()
        #if DEBUG
        if let path = getenv(offsetFileVariable).map({ String(cString: $0) }), let offset = offsetSeconds(in: path) {
            now = WallTime(secondsSince1970: now.secondsSince1970 + offset)
        }
        #endif
        return now
    }

    #if DEBUG
    private static func offsetSeconds(in path: String) -> Int64? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 64)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Int64(text.filter { !$0.isWhitespace })
    }
    #endif

    /// Whether `schedule` wants its output now; a clock not yet set means what `unsetClock` says.
    static func window(of schedule: Schedule, unsetClock: CamcastConfig.ScheduleConfig.UnsetClock) -> ScheduledOutput.Window {
        let now = now()
        switch schedule.state(at: now) {
        case .open(let next): return .open(closes: next.map { schedule.localDescription(of: $0) })
        case .closed(let next):
            return .closed(next: next.map { schedule.localDescription(of: $0) }, inSeconds: next.map { $0.at.secondsSince1970 - now.secondsSince1970 })
        case .unsetClock:
            return unsetClock == .stream ? .open(closes: "the clock is set (unset_clock: stream)") : .closed(next: "the clock is set (unset_clock: rest)")
        }
    }
}

extension SettingsResolver {
    /// Whether an output rests outside its schedule: network outputs and recordings do; a single
    /// .flv or .h264 file would be written over at every window's start, so it runs all the time.
    static func followsSchedules(_ target: OutputTarget) -> Bool {
        switch target {
        case .rtmp, .srt, .group, .recording: true
        case .flvFile, .annexBFile: false
        }
    }
}
