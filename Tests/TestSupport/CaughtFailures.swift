import Synchronization

/// What debug-build checks (`DebugCheck`, handed `add` through its `catchFailures`) said instead
/// of trapping, in the order they said it: a test that breaks a rule on purpose reads it here.
public final class CaughtFailures: Sendable {
    private let messages = Mutex<[String]>([])

    public init() {}

    public func add(_ message: String) { messages.withLock { $0.append(message) } }

    public var all: [String] { messages.withLock { $0 } }
}
