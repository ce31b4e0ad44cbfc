internal import CSRT
import Logging
import Media

/// libsrt's own log lines in the daemon's log, rate-limited.
///
/// libsrt wrote its errors to stderr by itself, outside the log's format and levels, from its
/// receiving threads: a peer that answers every handshake with a truncated packet made it write
/// some 20,000 lines a second (59 MB in 20 s, issue 42's hostile listener) into the journal. Its
/// lines now come here, process-wide (libsrt has one handler for the process): each is logged at
/// warning level as `libsrt: …`, with the secrets of every SRT output masked, at most `burst` at
/// once and `perSecond` a second after that; how many were left out is said with the next line
/// let through.
public enum SRTLibraryLog {
    public static let burst = 20.0
    public static let perSecond = 2.0

    struct State {
        var logger: Logger?
        var secrets: Set<String> = []
        var tokens = SRTLibraryLog.burst
        var refilled = MonotonicTime.now()
        var suppressed = 0
    }

    static let state = Lock(State())

    /// Where libsrt's lines go from now on, and text they must never show (a passphrase, a
    /// stream id): added to those of earlier outputs.
    public static func route(to logger: Logger, masking secrets: [String]) {
        state.withLock { state in
            state.logger = logger
            state.secrets.formUnion(secrets.filter { !$0.isEmpty })
        }
    }

    /// Installs the handler; once per process, before the first socket (`SRTCaller.started`).
    static func install() {
        csrt_route_logs { _, _, _, _, _, message in
            guard let message else { return }
            // Without its header, libsrt's message still starts with the header's ": ".
            SRTLibraryLog.receive(String(String(cString: message).drop { $0 == ":" || $0 == " " }))
        }
    }

    static func receive(_ message: String, now: MonotonicTime = .now()) {
        let decision = state.withLock { state -> (Logger, String, Int)? in
            guard let logger = state.logger else { return nil }
            let seconds = Double(now.nanoseconds(since: state.refilled)) / 1e9
            state.tokens = min(burst, state.tokens + seconds * perSecond)
            state.refilled = now
            guard state.tokens >= 1 else {
                state.suppressed += 1
                return nil
            }
            state.tokens -= 1
            defer { state.suppressed = 0 }
            let shown = state.secrets.reduce(message) { $0.replacing($1, with: "****") }
            return (logger, shown, state.suppressed)
        }
        // Logged outside the lock: a log handler may block on its output.
        guard let (logger, text, suppressed) = decision else { return }
        logger.warning("libsrt: \(text)", metadata: suppressed > 0 ? ["suppressed": "\(suppressed)"] : [:])
    }
}
