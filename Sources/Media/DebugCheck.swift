import Synchronization

/// What a debug-build check does when it fails: trap, naming what went wrong, unless a test has
/// asked to catch the failures of this one instance (to prove the check fires when the rule is
/// broken). Release builds run no check, so nothing here is reached.
public final class DebugCheck: Sendable {
    /// Read only when a check fails: the success path takes nothing.
    private let caught = Mutex<(@Sendable (String) -> Void)?>(nil)

    public init() {}

    /// Reports a broken rule: traps, or hands `message` to the catcher.
    public func fail(_ message: @autoclosure () -> String) {
        let text = message()
        guard let catcher = caught.withLock({ $0 }) else { preconditionFailure(text) }
        catcher(text)
    }

    #if DEBUG
    /// From now on this instance's failures go to `catcher` instead of trapping (a test's own).
    public func catchFailures(_ catcher: @escaping @Sendable (String) -> Void) {
        caught.withLock { $0 = catcher }
    }
    #endif
}
