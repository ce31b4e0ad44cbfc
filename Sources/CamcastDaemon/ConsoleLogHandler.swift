#if canImport(Glibc)
import Glibc
#endif
import Logging

/// One line per message on stderr: `2026-11-22T21:40:00.123Z info streaming size=640x360 …`.
///
/// Under systemd, when stderr is the journal (see `Style.current`), the journal stamps every line
/// itself, so the timestamp is left out; instead each line starts with its sd-daemon priority
/// prefix (`<3>error …`), which journald turns into PRIORITY= and strips, so that
/// `journalctl -p warning` finds warnings and errors. Metadata values are written as given:
/// whatever reaches a logger must already be safe (RTMP URLs describe themselves with the stream
/// key masked).
public struct ConsoleLogHandler: LogHandler {
    /// How lines are dressed for where they go.
    public enum Style: Sendable, Equatable {
        /// A terminal or a file: each line starts with a UTC timestamp.
        case terminal
        /// journald's stream: each line starts with `<N>`, its syslog priority.
        case journal
    }

    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let style: Style
    /// The process-wide level (from the config, changed by reloads)…
    private let sharedLevel: LogLevelSetting
    /// …unless code set one on this logger itself.
    private var ownLevel: Logger.Level?

    public var logLevel: Logger.Level {
        get { ownLevel ?? sharedLevel.level }
        set { ownLevel = newValue }
    }

    public init(label: String, level: LogLevelSetting, style: Style) {
        self.label = label
        sharedLevel = level
        self.style = style
    }

    public init(label: String, level: Logger.Level, style: Style) {
        self.init(label: label, level: LogLevelSetting(level), style: style)
    }

    /// Dressed for where stderr really goes.
    public static func standard(label: String, level: LogLevelSetting) -> ConsoleLogHandler {
        ConsoleLogHandler(label: label, level: level, style: .current)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        StandardError.write(Self.line(level: event.level, message: "\(event.message)", metadata: merged, style: style))
    }

    /// The text of one log line (without its newline).
    static func line(
        level: Logger.Level, message: String, metadata: Logger.Metadata, style: Style,
        timestamp: () -> String = Self.timestamp
    ) -> String {
        var line =
            switch style {
            case .terminal: timestamp() + " "
            case .journal: level.journalPrefix
            }
        line += "\(level) \(message)"
        for key in metadata.keys.sorted() {
            let value = "\(metadata[key]!)"
            line += value.contains(" ") ? " \(key)=\"\(value)\"" : " \(key)=\(value)"
        }
        return line
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &parts)
        let base = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let millis = now.tv_nsec / 1_000_000
        return base + "." + String(repeating: "0", count: millis < 10 ? 2 : millis < 100 ? 1 : 0) + "\(millis)Z"
    }
}
