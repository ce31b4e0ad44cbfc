#if canImport(Glibc)
import Glibc
#endif
import Logging

/// One line per message on stderr: `2026-11-22T21:40:00.123Z info streaming size=640x360 …`.
///
/// Under systemd (JOURNAL_STREAM set) the journal stamps every line itself, so the timestamp is
/// left out rather than printed twice. Metadata values are written as given: whatever reaches a
/// logger must already be safe (RTMP URLs describe themselves with the stream key masked).
public struct ConsoleLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let withTimestamps: Bool
    /// The process-wide level (from the config, changed by reloads)…
    private let sharedLevel: LogLevelSetting
    /// …unless code set one on this logger itself.
    private var ownLevel: Logger.Level?

    public var logLevel: Logger.Level {
        get { ownLevel ?? sharedLevel.level }
        set { ownLevel = newValue }
    }

    public init(label: String, level: LogLevelSetting, withTimestamps: Bool) {
        self.label = label
        sharedLevel = level
        self.withTimestamps = withTimestamps
    }

    public init(label: String, level: Logger.Level, withTimestamps: Bool) {
        self.init(label: label, level: LogLevelSetting(level), withTimestamps: withTimestamps)
    }

    /// Timestamps unless stderr is the journal.
    public static func standard(label: String, level: LogLevelSetting) -> ConsoleLogHandler {
        ConsoleLogHandler(label: label, level: level, withTimestamps: getenv("JOURNAL_STREAM") == nil)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = withTimestamps ? Self.timestamp() + " " : ""
        line += "\(event.level) \(event.message)"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() {
            let value = "\(merged[key]!)"
            line += value.contains(" ") ? " \(key)=\"\(value)\"" : " \(key)=\(value)"
        }
        StandardError.write(line)
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
