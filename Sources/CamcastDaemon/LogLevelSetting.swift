import Logging
import Synchronization

/// The log level from the config, shared by every logger of the process so that a reload that
/// changes `logging.level` takes effect at once, including for loggers made before it.
public final class LogLevelSetting: Sendable {
    private let index: Atomic<Int>

    public init(_ level: Logger.Level) {
        index = Atomic(Self.index(of: level))
    }

    public var level: Logger.Level {
        get { Logger.Level.allCases[index.load(ordering: .relaxed)] }
        set { index.store(Self.index(of: newValue), ordering: .relaxed) }
    }

    private static func index(of level: Logger.Level) -> Int {
        Logger.Level.allCases.firstIndex(of: level) ?? 2
    }
}
