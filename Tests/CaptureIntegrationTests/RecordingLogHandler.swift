import Logging
import Synchronization

/// Keeps every log record (and echoes it to stderr), so a test can check what the source reported.
struct RecordingLogHandler: LogHandler {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    final class Store: Sendable {
        let records = Mutex<[Record]>([])
        var all: [Record] { records.withLock { $0 } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let record = Record(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
        store.records.withLock { $0.append(record) }
        if event.level >= .info {
            let facts = record.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            print("[\(event.level)] \(record.message) \(facts)")
        }
    }

    static func logger(_ store: Store) -> Logger {
        Logger(label: "camcast.capture.test") { _ in RecordingLogHandler(store: store) }
    }
}
