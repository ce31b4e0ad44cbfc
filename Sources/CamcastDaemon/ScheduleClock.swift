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
        WallTime(secondsSince1970: WallTime.now().secondsSince1970 + offsetSeconds)
    }

    /// What the debug build's clock file adds to the system's clock now; 0 without one.
    static var offsetSeconds: Int64 {
        #if DEBUG
        if let path = getenv(offsetFileVariable).map({ String(cString: $0) }), let offset = offsetSeconds(in: path) {
            return offset
        }
        #endif
        return 0
    }

    /// How often a look is taken again while the debug build's clock file is in use: the file
    /// moves the clock without the kernel's knowing, so no wall-clock timer sees it move (debug
    /// builds and tests only; nil otherwise, and the system's clock settings end the waits).
    static var lookAgainNanoseconds: UInt64? {
        #if DEBUG
        if let path = getenv(offsetFileVariable), path.pointee != 0 { return ScheduledOutput.lookIntervalNanoseconds }
        #endif
        return nil
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

    /// Whether `schedule` wants its output now, and when that changes; a clock not yet set means
    /// what `unsetClock` says (and changes when the clock is set).
    static func window(of schedule: Schedule, unsetClock: CamcastConfig.ScheduleConfig.UnsetClock) -> ScheduledOutput.Look {
        // One reading of the system's clock: the transition's instant is given on it (what the
        // timer is armed on), the test clock's offset taken off again.
        let system = WallTime.now()
        let offset = offsetSeconds
        let now = WallTime(secondsSince1970: system.secondsSince1970 + offset)
        let window: ScheduledOutput.Window
        var changesAt: Int64?
        switch schedule.state(at: now) {
        case .open(let next):
            window = .open(closes: next.map { schedule.localDescription(of: $0) })
            changesAt = next.map { $0.at.secondsSince1970 - offset }
        case .closed(let next):
            window = .closed(next: next.map { schedule.localDescription(of: $0) }, inSeconds: next.map { $0.at.secondsSince1970 - now.secondsSince1970 })
            changesAt = next.map { $0.at.secondsSince1970 - offset }
        case .unsetClock:
            window = unsetClock == .stream ? .open(closes: "the clock is set (unset_clock: stream)") : .closed(next: "the clock is set (unset_clock: rest)")
            // Set, the clock ends the wait at once; left to run, it would get there one day.
            changesAt = Schedule.earliestPlausibleTime.secondsSince1970 - offset
        }
        return ScheduledOutput.Look(
            window: window, lookedAt: system.secondsSince1970, changesAt: changesAt, lookAgainNanoseconds: lookAgainNanoseconds)
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
