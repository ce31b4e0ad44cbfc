/// What an output lost on the way, for the status line: frames dropped under congestion (always
/// a run ending at a keyframe), frames discarded for lack of a connection, and reconnections.
struct DeliveryCounters: Sendable, Equatable {
    var droppedFrames = 0
    var discardedFrames = 0
    var reconnects = 0

    static func + (lhs: DeliveryCounters, rhs: DeliveryCounters) -> DeliveryCounters {
        DeliveryCounters(
            droppedFrames: lhs.droppedFrames + rhs.droppedFrames,
            discardedFrames: lhs.discardedFrames + rhs.discardedFrames, reconnects: lhs.reconnects + rhs.reconnects)
    }
}
