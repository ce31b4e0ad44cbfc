import Media
import Synchronization

/// The bounded queue between the encoder (capture thread) and a publisher thread.
///
/// Bounded in media time, not in count: when the frames waiting span more than `maxSpan`
/// milliseconds the connection is not keeping up, and what is queued is stale. Then the queue
/// drops every waiting frame and every new frame up to the next keyframe, so no frame that a
/// later frame references is ever skipped in the middle of a GOP while its successors are sent
/// (design invariant 5), and asks the encoder for an IDR so the gap is short. Which frames wait
/// for a keyframe is decided by a `KeyframeGate`, the one place that decides that.
///
/// While the publisher has no connection (`suspend`), nothing is queued: frames for a dead
/// connection are never replayed, because a new connection starts at a fresh IDR with the
/// capture clock's current time. Dropped (congestion) and discarded (no connection) frames are
/// counted apart.
///
/// Audio shares the queue and its fate: it is queued only while its video is (the gate lets audio
/// through only after a video keyframe), an overflow drops both, and audio resumes with the
/// keyframe. The counters count pictures only; the audio that went with them is implied.
final class SendQueue: @unchecked Sendable {
    // @unchecked: every stored var is read and written only while `condition` is locked (the two
    // helpers that touch them outside a lock() of their own assert it in debug builds); the
    // counters are atomics.
    private let condition = ConditionLock()
    private var packets: [MediaPacket] = []
    private var head = 0
    private var closed = false
    private var suspended = false
    /// Inter frames are not queued until the next keyframe: at the start, after an overflow
    /// (they count as dropped) or after a reconnect (discarded), since their reference frames
    /// never went out.
    private var gate = KeyframeGate()
    private var skipReason = Skip.start
    /// False while nothing consumes the queue yet (an RTMP output's first attempt): an overflow
    /// then drops as usual but asks the encoder for no keyframe, which only the frames that will
    /// be sent are worth.
    private var asksForKeyframes = true
    private enum Skip { case start, congestion, reconnect }
    private let maxSpan: Int64
    /// The span the queue holds before it drops to the next keyframe (ms of capture time).
    var boundMilliseconds: Int64 { maxSpan }
    private let requestKeyframe: @Sendable () -> Void
    /// Frames dropped because the connection could not keep up (overflow, then up to the IDR).
    let droppedFrames = Atomic<Int>(0)
    /// Overflows: each one dropped a run of frames ending at a keyframe.
    let overflows = Atomic<Int>(0)
    /// Frames thrown away because there was no connection to send them on.
    let discardedFrames = Atomic<Int>(0)
    /// The longest span of media (ms) the queue has held.
    let peakSpanMilliseconds = Atomic<Int64>(0)

    /// `requestKeyframe` is called on the pushing thread (outside the queue's lock): it must not
    /// block. The encoder's only leaves a message for its next encode (KeyframeRequests).
    init(maxSpanMilliseconds: Int64, requestKeyframe: @escaping @Sendable () -> Void) {
        maxSpan = maxSpanMilliseconds
        self.requestKeyframe = requestKeyframe
    }

    func push(_ packet: MediaPacket) {
        push(contentsOf: CollectionOfOne(packet))
    }

    /// Each of `packets` in order, as `push` would, under one take of the lock (the interleaver
    /// hands its packets on in batches).
    func push(contentsOf packets: some Collection<MediaPacket>) {
        var overflowed = false
        condition.lock()
        defer {
            condition.unlock()
            if overflowed { requestKeyframe() }
        }
        guard !closed else { return }
        var queued = false
        for packet in packets {
            let (added, overflow) = enqueue(packet)
            queued = queued || added
            overflowed = overflowed || overflow
        }
        if queued { condition.signal() }
    }

    /// With the lock held: queues `packet` or skips it; whether it was queued, and whether an
    /// overflow wants a keyframe.
    private func enqueue(_ packet: MediaPacket) -> (queued: Bool, askKeyframe: Bool) {
        condition.assertHeld("SendQueue's packets (enqueue)")
        // Pictures are counted; audio goes with them (every AAC packet is a "keyframe", but
        // only a video keyframe starts a run).
        let picture = packet.mediaKind == .video ? 1 : 0
        if suspended {
            discardedFrames.add(picture, ordering: .relaxed)
            return (false, false)
        }
        if gate.admit(packet) == .skip {
            switch skipReason {
            case .start: break
            case .congestion: droppedFrames.add(picture, ordering: .relaxed)
            case .reconnect: discardedFrames.add(picture, ordering: .relaxed)
            }
            return (false, false)
        }
        packets.append(packet)
        let span = packet.captureTime - packets[head].captureTime
        if span > maxSpan {
            // Everything waiting is stale. A video keyframe that arrives just now starts the next
            // GOP and stays; anything else (audio included) means waiting for one.
            let startsRun = packet.mediaKind == .video && packet.isKeyframe
            let frames = packets[head...].count { $0.mediaKind == .video } - (startsRun ? 1 : 0)
            packets = startsRun ? [packet] : []
            head = 0
            droppedFrames.add(frames, ordering: .relaxed)
            overflows.add(1, ordering: .relaxed)
            gate.restart()
            if startsRun {
                _ = gate.admit(packet)
                return (true, false)
            }
            skipReason = .congestion
            return (false, asksForKeyframes)
        } else if span > peakSpanMilliseconds.load(ordering: .relaxed) {
            peakSpanMilliseconds.store(span, ordering: .relaxed)
        }
        return (true, false)
    }

    /// What waits, in order, up to and including the first picture, into `batch` (emptied first),
    /// waiting for at least one packet: the publisher takes a picture and the audio before it in
    /// one take of the lock. No more than one picture leaves the queue at a time, so on a slow link
    /// the backlog stays here, where an overflow can drop it and `spanMilliseconds` sees it.
    /// False once the queue is closed and empty.
    func popBatch(into batch: inout [MediaPacket]) -> Bool {
        batch.removeAll(keepingCapacity: true)
        return takeWaiting { waiting in
            let end = waiting.firstIndex { $0.mediaKind == .video }.map { $0 + 1 } ?? waiting.endIndex
            batch.append(contentsOf: waiting[..<end])
            return ((), end)
        } != nil
    }

    /// The next packet, waiting for one; nil once the queue is closed and empty.
    func pop() -> MediaPacket? {
        takeWaiting { waiting in (waiting[waiting.startIndex], waiting.startIndex + 1) }
    }

    /// Waits for at least one packet, then lets `take` have what waits, from the front: it returns
    /// what it made of them and the index past the last one it took. Nil, without calling `take`,
    /// once the queue is closed and empty. `pop` and `popBatch` both wait and compact through here.
    private func takeWaiting<Taken>(_ take: (ArraySlice<MediaPacket>) -> (Taken, end: Int)) -> Taken? {
        condition.lock()
        defer { condition.unlock() }
        while head == packets.count && !closed {
            condition.wait()
        }
        guard head < packets.count else { return nil }
        let (taken, end) = take(packets[head...])
        head = end
        // Compact now and then instead of shifting the array on every pop.
        if head == packets.count {
            packets.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > packets.count {
            packets.removeFirst(head)
            head = 0
        }
        return taken
    }

    /// No more pushes; `pop` returns what is left, then nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    /// Waits up to `seconds` for `close()`; true if the queue is closed.
    func waitForClose(seconds: Double) -> Bool {
        let deadline = MonotonicTime.now().adding(nanoseconds: UInt64(max(0, seconds) * 1e9))
        condition.lock()
        defer { condition.unlock() }
        while !closed {
            if !condition.wait(until: deadline) { break }
        }
        return closed
    }

    /// The connection is gone: discard what waits and every frame pushed until `resume()`.
    func suspend() {
        condition.lock()
        suspended = true
        discardWaiting()
        condition.unlock()
    }

    /// Whether an overflow asks the encoder for a keyframe (see `asksForKeyframes`).
    func askForKeyframes(_ ask: Bool) {
        condition.lock()
        asksForKeyframes = ask
        condition.unlock()
    }

    /// A new connection: queue again, starting at the next keyframe.
    func resume() {
        condition.lock()
        suspended = false
        gate.restart()
        skipReason = .reconnect
        condition.unlock()
    }

    /// Throws away everything waiting (a dead connection's frames are never replayed); what
    /// follows is queued only from the next keyframe on.
    func discardAll() {
        condition.lock()
        discardWaiting()
        condition.unlock()
    }

    private func discardWaiting() {
        condition.assertHeld("SendQueue's packets (discardWaiting)")
        discardedFrames.add(packets[head...].count { $0.mediaKind == .video }, ordering: .relaxed)
        packets = []
        head = 0
        gate.restart()
        skipReason = .reconnect
    }

    /// Media time (ms) from the oldest to the newest packet waiting: how far behind the
    /// connection is (adaptive bitrate's trigger). 0 when at most one packet waits.
    var spanMilliseconds: Int64 {
        condition.lock()
        defer { condition.unlock() }
        guard packets.count - head > 1, let newest = packets.last else { return 0 }
        return newest.captureTime - packets[head].captureTime
    }

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return packets.count - head
    }
}
