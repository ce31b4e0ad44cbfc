import Media

/// The stage where the two encoders' packets meet — video from the capture thread, audio from
/// the audio source's thread — and leave as one sequence in non-decreasing timestamp (DTS) order,
/// on a thread of the interleaver's own, for the outputs.
///
/// Why here and not in each output: every output needs the same order (FLV files and RTMP
/// connections alike require tags in time order), and ordering once before the outputs' queues
/// keeps those queues, the keyframe gate and the muxers single-stream and unchanged. The rule
/// (what waits for what, how long, what is moved up) is `PacketOrder`'s.
///
/// Each track's thread only appends to the interleaver's state and returns: the audio never
/// waits for a picture's encode nor a picture for the audio encoder, and no lock is held while
/// the outputs are called (an output's queue may overflow and ask the encoder for a keyframe).
/// One thread delivers, so the order the rule chose is the order the outputs see; it hands on
/// everything released since its last wake-up as one batch, so the outputs take their locks once
/// per batch, not once per packet.
package final class PacketInterleaver: @unchecked Sendable {
    // @unchecked: `order`, `outbox`, `isDelivering` and `isClosed` are read and written only while
    // `condition` is locked, and that is structural: every access is inside a `withLock` or the
    // delivering loop's own `lock()`…`unlock()`, in the method that touches it (no helper touches
    // them for a caller). The thread is behind a lock of its own.
    private let condition = ConditionLock()
    private var order: PacketOrder
    /// Released, in order, for the delivering thread.
    private var outbox: [MediaPacket] = []
    private var isDelivering = false
    private var isClosed = false
    /// The delivering thread until `close` joins it.
    private let thread = Lock<DedicatedThread?>(nil)
    private let deliver: @Sendable ([MediaPacket]) -> Void
    /// How long a packet waits at most for the other track (`PacketOrder`).
    package let windowMilliseconds: Int64
    /// The kernel name of the delivering thread.
    package static let threadName = "interleaver"

    /// How far the AAC encoder's packets lag their first sample: three frames of 1024 samples (the
    /// frame's own length and libavcodec's two frames of delay), rounded up to whole milliseconds.
    package static func presentationDelay(sampleRate: Int) -> Int64 {
        Int64((3 * 1024 * 1000 + sampleRate - 1) / sampleRate)
    }

    /// Starts the delivering thread; `close` ends it. `deliver` is called on that thread only, with
    /// the packets released since its last call, in order. `windowMilliseconds` and
    /// `presentationDelayMilliseconds`: see `PacketOrder` (`presentationDelay(sampleRate:)`).
    package init(
        windowMilliseconds: Int64, presentationDelayMilliseconds: Int64 = 0,
        deliver: @escaping @Sendable ([MediaPacket]) -> Void
    ) throws(ThreadStartError) {
        order = PacketOrder(windowMilliseconds: windowMilliseconds, presentationDelayMilliseconds: presentationDelayMilliseconds)
        self.windowMilliseconds = windowMilliseconds
        self.deliver = deliver
        let started = try DedicatedThread(name: Self.threadName) { [self] in deliverUntilClosed() }
        thread.withLock { $0 = started }
    }

    /// Packets that arrived behind the released time line and were moved up to it.
    package var latePackets: Int { condition.withLock { order.late } }

    /// The presentation delay in force (ms): where a stream's end goes after its last picture.
    package var presentationDelay: Int64 { condition.withLock { order.presentationDelay } }

    /// Raises the presentation delay for audio of a lower sample rate (`PacketOrder` says how and
    /// why it never shrinks): the audio's packets pushed from now on take it, the pictures at
    /// their next keyframe, which the caller asks the encoder for. Returns the delay it replaced,
    /// or nil if it was not raised.
    package func raisePresentationDelay(to milliseconds: Int64) -> Int64? {
        condition.withLock {
            let before = order.presentationDelay
            return order.raisePresentationDelay(to: milliseconds) ? before : nil
        }
    }

    package func push(_ packet: MediaPacket) {
        condition.withLock {
            guard !isClosed else { return }
            let before = outbox.count
            order.push(packet, releasing: &outbox)
            if outbox.count > before { condition.broadcast() }
        }
    }

    /// `packets` in order, then `announce(kind, next:)` if `announcing` says so, under one take of
    /// the lock (an AAC encode's packets and its next packet's time).
    package func push(_ packets: [MediaPacket], announcing: (kind: MediaPacket.MediaKind, next: Int64)?) {
        condition.withLock {
            guard !isClosed else { return }
            let before = outbox.count
            for packet in packets { order.push(packet, releasing: &outbox) }
            if let announcing { order.announce(announcing.kind, next: announcing.next, releasing: &outbox) }
            if outbox.count > before { condition.broadcast() }
        }
    }

    /// The track of `kind` will bring nothing earlier than `dts` (the AAC encoder knows its next
    /// packet's time a frame before it hands the packet out).
    package func announce(_ kind: MediaPacket.MediaKind, next dts: Int64) {
        condition.withLock {
            guard !isClosed else { return }
            let before = outbox.count
            order.announce(kind, next: dts, releasing: &outbox)
            if outbox.count > before { condition.broadcast() }
        }
    }

    /// Releases everything held, in order, and returns once the outputs have it (at stop, before
    /// they finish); later pushes pass straight through in order of arrival, moved up where needed.
    package func flush() {
        condition.withLock {
            order.releaseAll(into: &outbox)
            condition.broadcast()
            while (!outbox.isEmpty || isDelivering) && !isClosed { condition.wait() }
        }
    }

    /// Delivers what was released, then ends the thread and drops later pushes. Call once, last.
    package func close() {
        condition.withLock {
            isClosed = true
            condition.broadcast()
        }
        thread.withLock { $0.take() }?.join()
    }

    private func deliverUntilClosed() {
        var batch: [MediaPacket] = []
        condition.lock()
        while true {
            while outbox.isEmpty && !isClosed { condition.wait() }
            if outbox.isEmpty { break }
            // Swapped, not copied: the pushing threads fill the other array meanwhile.
            swap(&batch, &outbox)
            isDelivering = true
            condition.unlock()
            deliver(batch)
            batch.removeAll(keepingCapacity: true)
            condition.lock()
            isDelivering = false
            condition.broadcast()
        }
        condition.unlock()
    }
}
