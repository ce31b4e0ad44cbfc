internal import CAVCodec
import Logging
import Media

/// libav*'s own log (libavcodec's encoders, the AAC encoder, libavformat's muxers: one process-wide
/// callback) through Camcast's logger, once, and never raw on stderr.
///
/// Levels: libav's error (and fatal, panic) → error, warning → warning, info and verbose → debug;
/// its debug and trace are dropped in C before they are formatted. A line is logged as
/// `libav NAME: text`, NAME being the object that logged it (`libx264`, `h264_v4l2m2m`, `mp4`).
/// At most `burst` lines go out per `window`; the rest are counted and the count is logged with the
/// next line let through, so an encoder that complains at every frame cannot flood the journal.
///
/// No stream key can be in these lines: libav* never sees an RTMP URL (librtmp publishes; the
/// muxers write to descriptors Camcast opened), so the redaction the outputs' lines need is not
/// needed here.
///
/// The C side (CAVCodec/log.h) keeps its state in statics of static inline functions, one copy per
/// object file: this file alone calls them.
public enum LibavLog {
    static let burst = 20
    static let window: UInt64 = 10_000_000_000

    /// A line an encoder's open logged at warning or error, held for the opener.
    struct Line: Equatable {
        var isError: Bool
        var text: String
    }

    /// At most `burst` lines per `window` nanoseconds; the ones over it are counted, and the count
    /// is handed back with the next line let through.
    struct LineBudget {
        var burst: Int
        var window: UInt64
        private var windowStart: UInt64?
        private var linesInWindow = 0
        private var suppressed = 0

        init(burst: Int, window: UInt64) {
            self.burst = burst
            self.window = window
        }

        /// Nil if the line at `now` is over the budget; else how many were held back before it.
        mutating func admit(at now: UInt64) -> Int? {
            if windowStart.map({ now &- $0 >= window }) ?? true {
                windowStart = now
                linesInWindow = 0
            }
            guard linesInWindow < burst else {
                suppressed += 1
                return nil
            }
            linesInWindow += 1
            defer { suppressed = 0 }
            return suppressed
        }
    }

    private struct State {
        var logger: Logger?
        var budget = LineBudget(burst: LibavLog.burst, window: LibavLog.window)
    }

    private static let state = Lock(State())

    /// Sends libav*'s log to `logger` from now on. Before this (a test process), lines are dropped.
    public static func route(to logger: Logger) {
        state.withLock { $0.logger = logger }
        install()
    }

    private static func install() {
        cavcodec_log_install { level, component, line in
            guard let component, let line else { return }
            LibavLog.log(level: level, component: String(cString: component), text: String(cString: line))
        }
    }

    /// Runs `body` with this thread's warnings and errors held back from the log and returned:
    /// an open puts them in its error when it fails, and logs them itself when it succeeds.
    static func capturing<Result>(_ body: () -> Result) -> (Result, [Line]) {
        install()
        cavcodec_log_capture_begin()
        let result = body()
        let text = String(cString: cavcodec_log_capture_end())
        let lines = text.split(separator: "\n").compactMap { line -> Line? in
            guard let mark = line.first else { return nil }
            return Line(isError: mark == "E", text: String(line.dropFirst()))
        }
        return (result, lines)
    }

    /// Logs lines an open held back (it succeeded, so they are not in any error).
    static func log(_ lines: [Line], component: String) {
        for line in lines {
            log(level: line.isError ? AV_LOG_ERROR : AV_LOG_WARNING, component: component, text: line.text)
        }
    }

    private static func log(level: Int32, component: String, text: String) {
        let mapped: Logger.Level = level <= AV_LOG_ERROR ? .error : level <= AV_LOG_WARNING ? .warning : .debug
        let now = MonotonicTime.now().nanoseconds
        let admitted: (Logger, suppressed: Int)? = state.withLock { state in
            guard let logger = state.logger, logger.logLevel <= mapped,
                let suppressed = state.budget.admit(at: now)
            else { return nil }
            return (logger, suppressed)
        }
        guard let (logger, suppressed) = admitted else { return }
        if suppressed > 0 {
            logger.warning("libav: \(suppressed) more lines were not logged (at most \(burst) every \(window / 1_000_000_000) s)")
        }
        logger.log(level: mapped, "libav \(component): \(text)")
    }
}
