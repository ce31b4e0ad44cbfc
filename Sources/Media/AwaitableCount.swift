import Synchronization

/// An atomic count whose first step an async task can await (`firstStep`): the pipeline's
/// encoded pictures, which READY=1 waits for. Counting costs what `Atomic.add` costs, plus one
/// comparison; only the step from zero touches the flag.
public final class AwaitableCount: Sendable {
    private let count = Atomic<Int>(0)
    /// Set at the first step from zero.
    public let firstStep = AwaitableFlag()

    public init() {}

    /// As `Atomic.add`; an ordering other than `.relaxed` is taken as sequentially consistent
    /// (`Atomic` wants its ordering known where it is compiled).
    @discardableResult
    public func add(_ operand: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
        let result = ordering == .relaxed ? count.add(operand, ordering: .relaxed) : count.add(operand, ordering: .sequentiallyConsistent)
        if result.oldValue == 0, result.newValue != 0 { firstStep.set() }
        return result
    }

    /// As `Atomic.load`, under the same rule of orderings as `add`.
    public func load(ordering: AtomicLoadOrdering) -> Int {
        ordering == .relaxed ? count.load(ordering: .relaxed) : count.load(ordering: .sequentiallyConsistent)
    }
}
