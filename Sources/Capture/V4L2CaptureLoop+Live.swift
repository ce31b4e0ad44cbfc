#if canImport(Glibc)
import Glibc
#endif
import Logging
import Media

/// Live capture: one poll, then every buffer that is ready, in order.
extension V4L2CaptureLoop {
    func captureLive(from stream: V4L2Stream) {
        var fds = [
            pollfd(fd: stream.device.fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0),
        ]
        let timeout = Int32(min(settings.pollTimeoutSeconds * 1000, Double(Int32.max)).rounded(.up))
        let ready: Int32
        do {
            ready = try SystemCall.run("poll") { poll(&fds, 2, timeout) }
        } catch {
            enterFault(.failing(error.description))
            return
        }
        if fds[1].revents != 0 { return }  // stop() asked; run() sees `running` cleared
        if ready == 0 {
            // Silence: a device that is present but sends nothing (no signal, stuck firmware).
            let why = stream.device.inputProblem() ?? "no frame for \(settings.pollTimeoutSeconds) s"
            enterFault(.failing(why))
            return
        }
        do {
            var dequeuedAny = false
            while let buffer = try stream.pool.dequeue() {
                dequeuedAny = true
                let frame = take(buffer, from: stream)
                try stream.pool.queue(buffer.index)
                if let frame { emit(frame) }
            }
            // Readable or in error, yet nothing to dequeue: vb2 says the queue is broken.
            let trouble = Int16(POLLERR | POLLHUP | POLLNVAL)
            if !dequeuedAny && fds[0].revents & trouble != 0 {
                enterFault(.failing("the device reported an error while streaming"))
            }
        } catch {
            enterFault(error.meansDeviceGone ? .gone(error.description) : .failing(error.description))
        }
    }

    /// Turns a dequeued buffer into a frame (copying it out of the mapping, or decoding MJPEG), or
    /// nil if it must be dropped. Counts driver drops from the sequence gap either way.
    private func take(_ buffer: V4L2DequeuedBuffer, from stream: V4L2Stream) -> VideoFrame? {
        let dropped = tracker.observe(buffer.sequence)
        if dropped > 0 {
            counters.driverDropped.add(dropped, ordering: .relaxed)
            logger.debug("driver dropped frames", metadata: ["count": "\(dropped)", "sequence": "\(buffer.sequence)"])
        }
        let sequence = nextSequence + UInt64(dropped)
        nextSequence = sequence + 1
        if buffer.isError {
            counters.errorBuffers.add(1, ordering: .relaxed)
            logger.warning("driver flagged a buffer as corrupt; dropped", metadata: ["sequence": "\(buffer.sequence)"])
            return nil
        }
        let mapping = stream.pool.bytes(of: buffer.index)
        let start = min(buffer.dataOffset, mapping.count)
        let used = buffer.bytesUsed > 0 ? buffer.bytesUsed : deviceLayout.byteCount
        let data = UnsafeRawBufferPointer(rebasing: mapping[start..<min(mapping.count, start + used)])

        let bytes: [UInt8]
        if let decoder {
            do {
                bytes = try decoder.decodeI420(data, width: outputLayout.width, height: outputLayout.height)
            } catch {
                counters.corruptFrames.add(1, ordering: .relaxed)
                logger.warning("dropped a bad MJPEG frame", metadata: ["reason": "\(error.reason)", "sequence": "\(buffer.sequence)"])
                return nil
            }
        } else {
            guard data.count >= deviceLayout.byteCount else {
                counters.errorBuffers.add(1, ordering: .relaxed)
                logger.warning("driver returned a short buffer; dropped", metadata: [
                    "bytes": "\(data.count)", "expected": "\(deviceLayout.byteCount)",
                ])
                return nil
            }
            // One copy out of the driver's buffer, so it can be queued again at once.
            bytes = Array(data.prefix(deviceLayout.byteCount))
        }
        return VideoFrame(
            width: outputLayout.width, height: outputLayout.height, pixelFormat: outputLayout.pixelFormat,
            planes: outputLayout.planes, bytes: bytes, timestamp: timestamp(of: buffer), sequence: sequence)
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

    /// Delivers a frame unless its timestamp would not advance (the encoder's PTS must increase).
    func emit(_ frame: VideoFrame, live: Bool = true) {
        if let lastTimestamp, frame.timestamp <= lastTimestamp {
            counters.skipped.add(1, ordering: .relaxed)
            logger.debug("dropped a frame whose timestamp did not advance", metadata: ["timestamp": "\(frame.timestamp)"])
            return
        }
        lastTimestamp = frame.timestamp
        if live { lastFrame = frame }
        deliver(frame)
        counters.delivered.add(1, ordering: .relaxed)
    }
}
