/// The hand-off between two stages' threads: a bounded FIFO the upstream thread pushes into and
/// the stage's own thread pops from, as ffmpeg's scheduler joins its nodes. Bounded in items (a
/// stage's input is a picture or two); what a full queue does is the pusher's choice:
/// - `.drop`: a live source never waits for the stage behind it; the item is refused (the caller
///   counts it) and the source keeps its cadence;
/// - `.wait`: a file played as fast as it can be read waits for room (backpressure);
/// - `.exceed`: a control message (a codec switch) that must not be lost goes in anyway.
///
/// Debug builds check that the pushing thread holds no `Lock` or `ConditionLock` (`HeldLocks`):
/// a lock held across a hand-off would make its other takers wait on the next stage.
///
/// Waits are `ConditionLock`'s (the queue is the state they wait on); no sleep, no polling.
public final class StageQueue<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `items`, `isClosed` and `waiting` are read and written only while `condition`
    // is locked, and that is structural: every access is between the `lock()` (or inside the
    // `withLock`) of the method that touches it; no helper touches them for a caller.
    private let condition = ConditionLock()
    private var items: [Element] = []
    private var isClosed = false
    private var waiting = 0
    public let capacity: Int
    /// Fails when a thread pushes with a lock held (debug builds; a test may catch it).
    public let lockCheck = DebugCheck()

    public enum WhenFull: Sendable {
        case drop
        case wait
        case exceed
    }

    public init(capacity: Int) {
        precondition(capacity > 0, "a stage queue holds at least one item")
        self.capacity = capacity
        items.reserveCapacity(capacity + 1)
    }

    /// Appends `element`; false if it was not taken (full and `.drop`, or closed).
    @discardableResult
    public func push(_ element: Element, whenFull: WhenFull) -> Bool {
        #if DEBUG
        if let held = HeldLocks.onThisThread, held > 0 {
            lockCheck.fail("a push into a stage queue with \(held) lock(s) held by the pushing thread")
        }
        #endif
        condition.lock()
        defer { condition.unlock() }
        if whenFull == .wait {
            waiting += 1
            while items.count >= capacity && !isClosed { condition.wait() }
            waiting -= 1
        }
        guard !isClosed, items.count < capacity || whenFull == .exceed else { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// The oldest item, waiting for one; nil once the queue is closed and empty.
    public func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !isClosed { condition.wait() }
        guard !items.isEmpty else { return nil }
        let first = items.removeFirst()
        // A pusher waiting for room (`.wait`) has it now.
        condition.broadcast()
        return first
    }

    /// Takes no more items; what is queued is still popped, then `pop` returns nil. A pusher
    /// waiting for room gives up.
    public func close() {
        condition.withLock {
            isClosed = true
            condition.broadcast()
        }
    }

    /// Items waiting now.
    public var depth: Int { condition.withLock { items.count } }

    /// Pushers in `.wait` now (waiting for room, or about to find it).
    public var waitingPushers: Int { condition.withLock { waiting } }
}
