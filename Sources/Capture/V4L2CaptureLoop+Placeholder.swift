#if canImport(Glibc)
import Glibc
#endif
import Logging
import Media

/// Riding out a lost or failing device: placeholder frames on the frame clock, a reopen attempt
/// every `reopenIntervalSeconds`, live frames again as soon as one succeeds.
extension V4L2CaptureLoop {
    /// Closes the device (stop streaming, unmap, close: the driver may need all three to recover)
    /// and switches to placeholders, the first of them the last live frame, copied out of its
    /// buffer while that is still mapped.
    func enterFault(_ newFault: V4L2DeviceFault) {
        keepLastGoodFrame()
        stream = nil
        tracker.reset()
        let now = MonotonicTime.now()
        fault = newFault
        faultSince = now
        counters.state.withLock { $0 = .placeholder(newFault) }
        log(newFault, message: "camera lost; sending placeholder frames")
        nextReopen = now.adding(nanoseconds: UInt64(settings.reopenIntervalSeconds * 1e9))
        // Continue the frame clock from the last frame, but never back-date a burst of placeholders.
        let continued = lastTimestamp.map { $0.adding(nanoseconds: frameInterval) } ?? now
        nextPlaceholder = max(continued, now)
    }

    func ridePlaceholder() {
        let now = MonotonicTime.now()
        if now >= nextReopen {
            reopen()
            if stream != nil { return }
        }
        if now >= nextPlaceholder {
            sendPlaceholder(at: nextPlaceholder)
            nextPlaceholder = nextPlaceholder.adding(nanoseconds: frameInterval)
            if nextPlaceholder < now {
                // Fell behind (a slow consumer or a slow reopen): skip the missed slots, no burst.
                let missed = UInt64(now.nanoseconds(since: nextPlaceholder)) / frameInterval + 1
                counters.skipped.add(Int(missed), ordering: .relaxed)
                nextPlaceholder = nextPlaceholder.adding(nanoseconds: missed * frameInterval)
            }
            return
        }
        // Sleep until the next slot or reopen attempt; stop() wakes us through the eventfd.
        let until = min(nextPlaceholder, nextReopen)
        let milliseconds = Int32((until.nanoseconds(since: now) + 999_999) / 1_000_000)
        var fds = [pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)]
        _ = try? SystemCall.run("poll") { poll(&fds, 1, max(1, milliseconds)) }
    }

    /// Copies the frame in the held buffer, the one copy a fault costs; the buffer itself goes with
    /// the stream.
    private func keepLastGoodFrame() {
        guard let held else { return }
        lastGoodFrame = VideoFrame(
            width: outputLayout.width, height: outputLayout.height, pixelFormat: outputLayout.pixelFormat,
            planes: outputLayout.planes, bytes: Array(held.bytes), timestamp: MonotonicTime(nanoseconds: 0), sequence: 0)
        counters.copied.add(1, ordering: .relaxed)
        self.held = nil
    }

    private func sendPlaceholder(at due: MonotonicTime) {
        var frame = lastGoodFrame ?? VideoFrame(
            width: outputLayout.width, height: outputLayout.height, pixelFormat: outputLayout.pixelFormat,
            planes: outputLayout.planes, bytes: OfflineSlate.bytes(for: outputLayout), timestamp: due, sequence: 0)
        frame.timestamp = due
        frame.sequence = nextSequence
        nextSequence += 1
        counters.placeholders.add(1, ordering: .relaxed)
        if timestampAdvances(due) { send(frame) }
    }

    private func reopen() {
        let now = MonotonicTime.now()
        nextReopen = now.adding(nanoseconds: UInt64(settings.reopenIntervalSeconds * 1e9))
        do {
            stream = try V4L2Stream(settings: settings, expected: deviceLayout, logger: logger)
        } catch {
            let newFault = V4L2DeviceFault(error)
            if newFault != fault {
                fault = newFault
                counters.state.withLock { $0 = .placeholder(newFault) }
                log(newFault, message: "camera still unavailable")
            } else {
                logger.debug("reopen failed", metadata: ["device": "\(settings.devicePath)", "error": "\(error)"])
            }
            return
        }
        counters.reopens.add(1, ordering: .relaxed)
        counters.state.withLock { $0 = .live }
        logger.notice("camera back; live frames resume", metadata: [
            "device": "\(settings.devicePath)",
            "offlineSeconds": "\(Double(now.nanoseconds(since: faultSince)) / 1e9)",
            "placeholders": "\(counters.placeholders.load(ordering: .relaxed))",
        ])
        fault = nil
    }

    /// "Gone" is expected (someone unplugged it) and logged as a warning; "failing" needs a human.
    private func log(_ fault: V4L2DeviceFault, message: Logger.Message) {
        switch fault {
        case .gone(let reason):
            logger.warning(message, metadata: ["device": "\(settings.devicePath)", "camera": "gone", "reason": "\(reason)"])
        case .failing(let reason):
            logger.error(message, metadata: ["device": "\(settings.devicePath)", "camera": "failing", "reason": "\(reason)"])
        }
    }
}
