import Logging
import Synchronization

/// Keeps every log record (and echoes those of level info and up to stdout), so a test can check
/// what a stage reported.
public struct RecordingLogHandler: LogHandler {
    public struct Record: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]
    }

    public final class Store: Sendable {
        let records = Mutex<[Record]>([])
        public var all: [Record] { records.withLock { $0 } }

        public init() {}
    }

    let store: Store
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .debug

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let record = Record(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
        store.records.withLock { $0.append(record) }
        if event.level >= .info {
            let facts = record.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            print("[\(event.level)] \(record.message) \(facts)")
        }
    }

    public static func logger(_ store: Store) -> Logger {
        Logger(label: "camcast.test") { _ in RecordingLogHandler(store: store) }
    }
}
