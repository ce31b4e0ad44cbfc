import Logging
import Media
import RTMPAddress

/// Where librtmp's log lines go while one publisher is inside a librtmp call: its logger
/// (after redaction) and its list of classification events.
final class LibrtmpLogSink: Sendable {
    let logger: Logger
    let redactor: StreamKeyRedactor
    /// See `RTMPPublisherOptions.librtmpLogLevelCap`.
    let levelCap: Logger.Level?
    /// See `RTMPPublisherOptions.librtmpDebugLogging`.
    let debugLogging: Bool
    private let events = Lock<[LibrtmpLogEvent]>([])

    init(logger: Logger, redactor: StreamKeyRedactor, levelCap: Logger.Level? = nil, debugLogging: Bool = false) {
        self.logger = logger
        self.redactor = redactor
        self.levelCap = levelCap
        self.debugLogging = debugLogging
    }

    /// Longest librtmp line logged (after masking; see `StreamKeyRedactor.redactForDisplay`).
    static let lineLimit = 1024

    func receive(level: Int32, line rawLine: String) {
        let line = rawLine.hasSuffix("\n") ? String(rawLine.dropLast()) : rawLine
        if let event = LibrtmpLogEvent(line: line, redactor: redactor) {
            events.withLock { $0.append(event) }
        }
        let mapped = Self.loggerLevel(librtmpLevel: level)
        logger.log(level: levelCap.map { min($0, mapped) } ?? mapped, "\(redactor.redactForDisplay(line, limit: Self.lineLimit))",
                   source: "librtmp")
    }

    /// Adds an event that did not come from a log line.
    func record(_ event: LibrtmpLogEvent) {
        events.withLock { $0.append(event) }
    }

    /// Returns and forgets the events collected so far.
    func takeEvents() -> [LibrtmpLogEvent] {
        events.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }

    /// librtmp levels (log.h): CRIT 0, ERROR 1, WARNING 2, INFO 3, DEBUG 4, DEBUG2 5, ALL 6.
    /// One step milder than librtmp's own: its "errors" reach the caller as an `RTMPError`,
    /// and the caller decides how bad a failed attempt is (a reconnect loop expects some).
    static func loggerLevel(librtmpLevel level: Int32) -> Logger.Level {
        switch level {
        case ...0: return .error
        case 1: return .warning
        case 2: return .notice
        case 3: return .info
        case 4: return .debug
        default: return .trace
        }
    }
}
