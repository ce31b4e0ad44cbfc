#if canImport(Glibc)
import Glibc
#endif
internal import CEventFD

/// A wait until an instant on the wall clock that also ends when the wall clock is set, or at a
/// `WakeEvent`: what a schedule's watcher sleeps on between two transitions (issue 39 item 4,
/// issue 44), instead of looking at the schedule four times a second.
///
/// Why a timerfd on CLOCK_REALTIME and not a monotonic deadline: a schedule's transitions are
/// wall-clock instants, and the wall clock steps (NTP's first sync on a box without a real-time
/// clock, a manual change, a resume from suspend). The timer is armed at an absolute wall-clock
/// second, so a step forward past it expires it at once; a step backward cannot be waited out
/// (the next transition may now be an earlier one), and `TFD_TIMER_CANCEL_ON_SET` reports every
/// setting of the clock as `clockSet`, so the watcher looks at its schedule again. A DST change
/// is no step (the wall clock counts UTC seconds): it is a transition the schedule itself names.
/// Owns its fd and closes it in `deinit`; one thread waits on it at a time.
public final class WallClockAlarm: Sendable {
    private let fd: Int32

    /// Why a wait ended.
    public enum Wake: Sendable, Equatable {
        /// The event was signalled (a stop).
        case signalled
        /// The wall clock reached the instant.
        case due
        /// The wall clock was set (or stepped back since the look): the instant may mean
        /// something else now.
        case clockSet
        /// The monotonic bound (`lookAgainBy`) came first.
        case lookAgain
    }

    public init() throws(SystemCallError) {
        fd = try SystemCall.run("timerfd_create") { ctimerfd_open_wall_clock() }
    }

    deinit {
        close(fd)
    }

    /// The wall clock's whole seconds since 1970: read it before looking at a schedule, and pass
    /// it to `wait` as `lookedAt`.
    public static var secondsNow: Int64 { cwall_clock_seconds() }

    /// How far off the instant of a wait with none (`at: nil`): a clock that is set still ends it.
    static let withoutInstantSeconds: Int64 = 366 * 86_400

    /// Waits until the wall clock reads `at` (seconds since 1970; nil: no instant, only a setting
    /// of the clock or `event` ends it), the clock is set, `event` is signalled, or — when given —
    /// `lookAgainBy` on CLOCK_MONOTONIC passes. `lookedAt`: the wall clock's seconds read just
    /// before the look that chose `at`; a clock stepped back between that look and this wait's
    /// arming (which `TFD_TIMER_CANCEL_ON_SET` cannot see: it was not armed yet) ends it at once.
    public func wait(untilWallSecond at: Int64?, lookedAt: Int64, lookAgainBy: MonotonicTime? = nil, or event: WakeEvent) -> Wake {
        if event.isSignalled { return .signalled }
        guard ctimerfd_arm_at(fd, at ?? lookedAt + Self.withoutInstantSeconds) == 0 else {
            // Nothing but a bad instant (a bug) gets here: wait on the event and the bound alone.
            return event.wait(until: lookAgainBy ?? .now().adding(nanoseconds: 1_000_000_000)) ? .signalled : .lookAgain
        }
        if Self.secondsNow < lookedAt { return .clockSet }
        while true {
            let remaining = lookAgainBy.map { max(0, $0.nanoseconds(since: .now())) } ?? -1
            let ready = ctimerfd_wait(fd, event.fd, remaining)
            switch ready {
            case 0: return .lookAgain
            case -1 where errno == EINTR: continue
            case -1: return event.wait(until: lookAgainBy ?? .now().adding(nanoseconds: 1_000_000_000)) ? .signalled : .lookAgain
            default:
                // A stop wins over a transition that came at the same time.
                if ready & 2 != 0 { return .signalled }
                switch ctimerfd_read(fd) {
                case 1: return .due
                case 2: return .clockSet
                default: continue
                }
            }
        }
    }
}
