import Foundation
import Synchronization

/// The bounded queue between the encoder (capture thread) and a publisher thread.
///
/// Bounded in media time, not in count: when the packets waiting span more than `maxSpan`
/// milliseconds, the connection is not keeping up, and everything queued is stale. Then the queue
/// drops every waiting frame and then every new frame up to the next keyframe, so no frame that a
/// later frame references is ever skipped in the middle of a GOP (design invariant 5), and asks the
/// encoder for an IDR so the gap is short. Sequence headers are never dropped.
final class SendQueue: @unchecked Sendable {
    // @unchecked: every stored var is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var packets: [StreamPacket] = []
    private var head = 0
    private var closed = false
    private var droppingUntilKeyframe = false
    private let maxSpan: Int64
    private let requestKeyframe: @Sendable () -> Void
    let droppedFrames = Atomic<Int>(0)

    init(maxSpanMilliseconds: Int64, requestKeyframe: @escaping @Sendable () -> Void) {
        maxSpan = maxSpanMilliseconds
        self.requestKeyframe = requestKeyframe
    }

    func push(_ packet: StreamPacket) {
        var overflowed = false
        condition.lock()
        defer {
            condition.unlock()
            if overflowed { requestKeyframe() }
        }
        guard !closed else { return }
        if droppingUntilKeyframe && packet.kind == .interFrame {
            droppedFrames.add(1, ordering: .relaxed)
            return
        }
        if packet.kind == .keyframe { droppingUntilKeyframe = false }
        packets.append(packet)
        if let oldest = packets[head...].first(where: { $0.kind != .sequenceHeader }),
            packet.captureTime - oldest.captureTime > maxSpan
        {
            let waiting = packets[head...]
            let frames = waiting.filter { $0.kind != .sequenceHeader }.count
            packets = waiting.filter { $0.kind == .sequenceHeader }
            head = 0
            droppedFrames.add(frames, ordering: .relaxed)
            droppingUntilKeyframe = true
            overflowed = true
        }
        condition.signal()
    }

    /// The next packet, waiting for one; nil once the queue is closed and empty.
    func pop() -> StreamPacket? {
        condition.lock()
        defer { condition.unlock() }
        while head == packets.count && !closed {
            condition.wait()
        }
        guard head < packets.count else { return nil }
        let packet = packets[head]
        head += 1
        // Compact now and then instead of shifting the array on every pop.
        if head > 64 && head * 2 > packets.count {
            packets.removeFirst(head)
            head = 0
        }
        return packet
    }

    /// No more pushes; `pop` returns what is left, then nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Throws away everything waiting (a dead connection's frames are never replayed).
    func discardAll() {
        condition.lock()
        let frames = packets[head...].filter { $0.kind != .sequenceHeader }.count
        droppedFrames.add(frames, ordering: .relaxed)
        packets = packets[head...].filter { $0.kind == .sequenceHeader }
        head = 0
        condition.unlock()
    }

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return packets.count - head
    }
}
