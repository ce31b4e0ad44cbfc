import Logging
import Media
import V4L2

/// Live capture: one poll, then every buffer that is ready, in order.
extension V4L2CaptureLoop {
    func captureLive(from stream: V4L2Stream) {
        // Wake for the next placeholder a silence needs, or when the silence becomes a fault.
        let timeout = Self.pollMilliseconds(from: .now(), until: min(nextBridgeSlot, silenceLimit))
        let reportsError: Bool
        do {
            switch try stream.device.waitForBuffer(orWake: wake, timeoutMilliseconds: timeout) {
            case .woken:
                return  // stop() asked; run() sees `running` cleared
            case .timedOut:
                handleSilence(on: stream)
                return
            case .ready(let error):
                reportsError = error
            }
        } catch {
            enterFault(.failing(error.description))
            return
        }
        do {
            var dequeuedAny = false
            while let buffer = try stream.pool.dequeue() {
                dequeuedAny = true
                lastHeardFrom = .now()
                try handle(buffer, from: stream)
            }
            // Frames keep coming from an input without signal, and are dropped: placeholders go
            // out on their own clock meanwhile, every slot due by now (those the loss took to
            // notice too), and no more: a consumer slower than the clock must not keep us here.
            // Counted as bridged: frames the driver drops after the last refused one (a starved
            // machine, the moment the signal returns) are slots these filled, not losses.
            let now = MonotonicTime.now()
            while fault != nil, now >= nextPlaceholder { bridgedSlots += sendDuePlaceholder(now: now) }
            // Readable or in error, yet nothing to dequeue: vb2 says the queue is broken.
            if !dequeuedAny && reportsError {
                enterFault(.failing("the device reported an error while streaming"))
            }
        } catch {
            enterFault(error.meansDeviceGone ? .gone(error.description) : .failing(error.description))
        }
    }

    /// What a dequeued buffer gives the encoder.
    private enum Picture {
        /// The frame's bytes, where the driver put them.
        case mapped(UnsafeRawBufferPointer)
        /// MJPEG decoded to NV12 in memory of our own; the buffer is not needed any more.
        case decoded([UInt8])
    }

    /// Delivers the frame in a dequeued buffer, or hands the buffer straight back if the frame is
    /// dropped. Throws what the driver said when a buffer went back (the device is failing).
    private func handle(_ buffer: V4L2DequeuedBuffer, from stream: V4L2Stream) throws(SystemCallError) {
        if let problem = inputProblem(of: stream) {
            refuseFrame(of: buffer, becauseOf: problem, on: stream)
            try stream.pool.queue(buffer.index)
            return
        }
        let afterPlaceholders = bridgedSlots > 0 || fault != nil
        var timestamp = timestamp(of: buffer)
        if afterPlaceholders { fillSlots(before: timestamp) }
        let sequence = advanceSequence(past: buffer)
        if afterPlaceholders, let lastTimestamp, timestamp <= lastTimestamp {
            // Placeholders are stamped on the frame clock up to now; a frame the driver stamped at
            // the start of its exposure can lie just behind the last one. Dropping it would drop
            // every frame of a camera slow enough (1 fps at night) to be bridged between frames.
            timestamp = lastTimestamp.adding(nanoseconds: 1_000_000)
        }
        guard let picture = picture(in: buffer, from: stream), timestampAdvances(timestamp) else {
            try stream.pool.queue(buffer.index)
            return
        }
        switch picture {
        case .decoded(let bytes):
            try stream.pool.queue(buffer.index)
            let frame = outputFrame(bytes: bytes, timestamp: timestamp, sequence: sequence)
            liveFrameComing()
            send(frame)
            lastGoodFrame = frame
        case .mapped(let bytes):
            // The previous frame's buffer goes back first, so that while this one is encoded the
            // driver has every other buffer to fill.
            try releaseHeldBuffer(to: stream)
            // Mapped read-write (V4L2BufferPool), and the driver refills it once it is queued again:
            // the overlay may draw on it in place.
            let lent = BorrowedPixels(bytes, writable: true)
            liveFrameComing()
            send(
                VideoFrame(
                    width: outputLayout.width, height: outputLayout.height, pixelFormat: outputLayout.pixelFormat,
                    planes: outputLayout.planes, borrowing: lent, timestamp: timestamp, sequence: sequence))
            lent.endLoan()
            counters.borrowed.add(1, ordering: .relaxed)
            held = HeldBuffer(index: buffer.index, bytes: bytes)
            lastGoodFrame = nil
        }
    }

    /// Gives the buffer of the previous live frame back to the driver.
    private func releaseHeldBuffer(to stream: V4L2Stream) throws(SystemCallError) {
        guard let previous = held else { return }
        try stream.pool.queue(previous.index)
        held = nil
    }

    /// Our sequence number for `buffer`, one past the last unless the driver skipped some; counts
    /// those driver drops, less the slots placeholders already filled while the device was silent.
    private func advanceSequence(past buffer: V4L2DequeuedBuffer) -> UInt64 {
        let dropped = max(0, tracker.observe(buffer.sequence) - bridgedSlots)
        bridgedSlots = 0
        if dropped > 0 {
            counters.driverDropped.add(dropped, ordering: .relaxed)
            logger.debug("driver dropped frames", metadata: ["count": "\(dropped)", "sequence": "\(buffer.sequence)"])
        }
        let sequence = nextSequence + UInt64(dropped)
        nextSequence = sequence + 1
        return sequence
    }

    /// The picture in a dequeued buffer (decoding MJPEG), or nil if it must be dropped.
    private func picture(in buffer: V4L2DequeuedBuffer, from stream: V4L2Stream) -> Picture? {
        if buffer.isError {
            counters.errorBuffers.add(1, ordering: .relaxed)
            logger.warning("driver flagged a buffer as corrupt; dropped", metadata: ["sequence": "\(buffer.sequence)"])
            return nil
        }
        let mapping = stream.pool.bytes(of: buffer.index)
        let start = min(buffer.dataOffset, mapping.count)
        let used = buffer.bytesUsed > 0 ? buffer.bytesUsed : stream.layout.byteCount
        let data = UnsafeRawBufferPointer(rebasing: mapping[start..<min(mapping.count, start + used)])

        if let mjpeg {
            return mjpeg.decode(data, sequence: UInt64(buffer.sequence)).map { .decoded($0) }
        }
        guard data.count >= stream.layout.byteCount else {
            counters.errorBuffers.add(1, ordering: .relaxed)
            logger.warning("driver returned a short buffer; dropped", metadata: [
                "bytes": "\(data.count)", "expected": "\(stream.layout.byteCount)",
            ])
            return nil
        }
        return .mapped(UnsafeRawBufferPointer(rebasing: data.prefix(stream.layout.byteCount)))
    }

    /// The kernel's capture time when it is on CLOCK_MONOTONIC (V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC);
    /// otherwise the dequeue time, which is late by the queueing delay but on the right clock.
    private func timestamp(of buffer: V4L2DequeuedBuffer) -> MonotonicTime {
        if buffer.hasMonotonicTimestamp { return MonotonicTime(nanoseconds: buffer.timestampNanoseconds) }
        if !warnedAboutClock {
            warnedAboutClock = true
            logger.notice("driver timestamps are not monotonic; using dequeue time", metadata: ["flags": "\(buffer.flags)"])
        }
        return .now()
    }

    /// Whether a frame stamped `timestamp` may go out: the encoder's PTS must increase. Counts the
    /// frame as skipped if not.
    func timestampAdvances(_ timestamp: MonotonicTime) -> Bool {
        if let lastTimestamp, timestamp <= lastTimestamp {
            counters.skipped.add(1, ordering: .relaxed)
            logger.debug("dropped a frame whose timestamp did not advance", metadata: ["timestamp": "\(timestamp)"])
            return false
        }
        return true
    }

    /// Delivers a frame whose timestamp advances (see `timestampAdvances`).
    func send(_ frame: VideoFrame) {
        lastTimestamp = frame.timestamp
        deliver(frame)
        counters.delivered.add(1, ordering: .relaxed)
    }
}
