import Logging
import Media

/// Riding out a lost or failing device: placeholder frames on the frame clock, a reopen attempt
/// every `reopenIntervalSeconds`, live frames again once a reopened device delivers one.
extension V4L2CaptureLoop {
    /// Closes the device (stop streaming, unmap, close: the driver may need all three to recover)
    /// and switches to placeholders, the first of them the last live frame, copied out of its
    /// buffer while that is still mapped.
    ///
    /// One fault is reported once: a reopened device that fails again the same way (still silent,
    /// still erroring) is closed again quietly; a different reason is logged.
    func enterFault(_ newFault: V4L2DeviceFault) {
        keepLastGoodFrame()
        stream = nil
        tracker.reset()
        bridgedSlots = 0
        let now = MonotonicTime.now()
        nextReopen = now.adding(nanoseconds: UInt64(settings.reopenIntervalSeconds * 1e9))
        record(newFault, now: now)
    }

    /// Makes `newFault` the source's state: the first fault since live frames is logged and
    /// starts the placeholder clock; the same fault again is not news; a different one is logged.
    func record(_ newFault: V4L2DeviceFault, now: MonotonicTime) {
        switch fault {
        case nil:
            faultSince = now
            log(newFault, message: "camera lost; sending placeholder frames")
            startPlaceholderClock(now: now)
        case newFault?:
            logger.debug("camera still unavailable, for the same reason", metadata: ["device": "\(settings.devicePath)", "fault": "\(newFault)"])
        case _?:
            log(newFault, message: "camera still unavailable")
        }
        fault = newFault
        counters.state.withLock { $0 = .placeholder(newFault) }
    }

    /// Placeholders continue the frame clock from the last frame sent (live, or a placeholder that
    /// bridged a silence): every slot since then is filled, the ones already past as fast as the
    /// loop goes (`PlaceholderSlots`), so noticing the loss late leaves no hole in the stream.
    /// Returns the slots too far back to fill, counted as skipped.
    @discardableResult
    func startPlaceholderClock(now: MonotonicTime) -> Int {
        placeholders = PlaceholderSlots(after: lastTimestamp, now: now, frameInterval: frameInterval)
        skipUnfilledSlots()
        return placeholders.skipped
    }

    func ridePlaceholder() {
        let now = MonotonicTime.now()
        if now >= nextReopen {
            reopen()
            if stream != nil { return }
        }
        if now >= nextPlaceholder {
            sendDuePlaceholder(now: now)
            return
        }
        // Sleep until the next slot or reopen attempt; stop() wakes us through the eventfd.
        wake.wait(until: min(nextPlaceholder, nextReopen))
    }

    /// Sends the placeholder due at `nextPlaceholder` and moves the clock on; returns the frame
    /// slots that took (more than one when the loop fell further behind than the backfill limit).
    @discardableResult
    func sendDuePlaceholder(now: MonotonicTime) -> Int {
        guard let due = placeholders.take(now: now) else { return 0 }
        skipUnfilledSlots()
        sendPlaceholder(at: due)
        return 1 + placeholders.skipped
    }

    /// The camera is back with a frame stamped `live`: the slots before it that no placeholder
    /// filled yet go out first. The loop may wake a slot or more after the frame was taken (a slow
    /// machine, a poll rounded up, a batch of buffers), and a driver may stamp a frame ahead of its
    /// dequeue (vivid stamps the end of the frame's interval: 25 ms ahead in the VM), so the
    /// slot before it may not be due by the clock yet; sending the live frame first would leave a
    /// hole where the camera came back. Slots within half an interval of the live frame are its
    /// own; at most one slot ahead of the clock goes out, whatever the driver's stamp says.
    func fillSlots(before live: MonotonicTime) {
        let beforeLive = MonotonicTime(nanoseconds: live.nanoseconds - min(live.nanoseconds, frameInterval / 2))
        let limit = min(MonotonicTime.now().adding(nanoseconds: frameInterval), beforeLive)
        // Counted as bridged: the driver's sequence gap over them is not a loss (`advanceSequence`).
        while nextPlaceholder <= limit { bridgedSlots += sendDuePlaceholder(now: limit) }
    }

    /// Frame slots no placeholder will fill (further back than the backfill limit): counted, and a
    /// gap in the sequence numbers, as a frame the driver dropped would be. Noticed in the log with
    /// how far behind the loop was (`SkippedSlotsNotice` paces it), so a rising `skipped` counter
    /// has its reason there: a machine too slow or too loaded to notice the loss or to send
    /// placeholders within a second.
    private func skipUnfilledSlots() {
        let count = placeholders.skipped
        guard count > 0 else { return }
        counters.skipped.add(count, ordering: .relaxed)
        nextSequence += UInt64(count)
        if let due = skipNotice.skipped(count, behind: placeholders.skippedBehindNanoseconds, now: .now()) { logSkipped(due) }
    }

    func logSkipped(_ due: SkippedSlotsNotice.Due) {
        logger.notice(
            "frame slots skipped: placeholders fill at most \(PlaceholderSlots.backfillLimitNanoseconds / 1_000_000) ms behind the frame clock",
            metadata: ["device": "\(settings.devicePath)", "slots": "\(due.slots)", "behind_ms": "\(due.behindNanoseconds / 1_000_000)"])
    }

    /// Copies the frame in the held buffer, the one copy a fault or a silence costs. The buffer
    /// goes back to `stream` when the device stays open, else it goes with the stream.
    func keepLastGoodFrame(requeueingTo stream: V4L2Stream? = nil) {
        guard let held else { return }
        lastGoodFrame = outputFrame(bytes: Array(held.bytes), timestamp: MonotonicTime(nanoseconds: 0), sequence: 0)
        counters.copied.add(1, ordering: .relaxed)
        self.held = nil
        // A failed re-queue means the device is failing; the next poll or dequeue reports it.
        try? stream?.pool.queue(held.index)
    }

    private func sendPlaceholder(at due: MonotonicTime) {
        // The last good frame bridges a short outage unnoticed; held longer, a frozen picture
        // would pass for live, so the slate says the camera is gone.
        let holding = due.nanoseconds(since: faultSince) < Int64(settings.lastGoodFrameSeconds * 1e9)
        var frame = (holding ? lastGoodFrame : nil) ?? slateFrame(at: due)
        frame.timestamp = due
        frame.sequence = nextSequence
        // A slot this loop has decided to fill: the encoder stage waits for room rather than drop it.
        frame.isPlaceholder = true
        nextSequence += 1
        counters.placeholders.add(1, ordering: .relaxed)
        if timestampAdvances(due) { send(frame) }
    }

    /// The slate in the delivered layout, made once per layout (a late camera changes it).
    private func slateFrame(at due: MonotonicTime) -> VideoFrame {
        if slate?.width != outputLayout.width || slate?.height != outputLayout.height || slate?.pixelFormat != outputLayout.pixelFormat {
            slate = outputFrame(bytes: OfflineSlate.bytes(for: outputLayout, slate: settings.slate), timestamp: due, sequence: 0)
        }
        return slate!
    }

    private func reopen() {
        let now = MonotonicTime.now()
        nextReopen = now.adding(nanoseconds: UInt64(settings.reopenIntervalSeconds * 1e9))
        do {
            let opened = try V4L2Stream(settings: settings, expected: deviceLayout, logger: logger)
            if deviceLayout == nil {
                // First open (the camera was not there at start): what it grants is the format.
                try adopt(opened)
            } else {
                stream = opened
            }
        } catch {
            record(V4L2DeviceFault(error), now: now)
            return
        }
        // Not back yet: placeholders go on until the device delivers a frame (`liveFrameComing`).
        lastHeardFrom = now
        bridgedSlots = 0
        logger.debug("camera reopened; waiting for its first frame", metadata: ["device": "\(settings.devicePath)"])
    }

    /// A live frame is about to go out: if it is the first after a fault, the camera is back (and
    /// says so before the frame is delivered, so the consumer sees it as live).
    func liveFrameComing() {
        guard fault != nil else { return }
        counters.reopens.add(1, ordering: .relaxed)
        counters.state.withLock { $0 = .live }
        logger.notice("camera back; live frames resume", metadata: [
            "device": "\(settings.devicePath)",
            "offlineSeconds": "\(Double(MonotonicTime.now().nanoseconds(since: faultSince)) / 1e9)",
            "placeholders": "\(counters.placeholders.load(ordering: .relaxed))",
        ])
        fault = nil
    }

    /// "Gone" is expected (someone unplugged it) and logged as a warning; "failing" needs a human.
    func log(_ fault: V4L2DeviceFault, message: Logger.Message) {
        switch fault {
        case .gone(let reason):
            logger.warning(message, metadata: ["device": "\(settings.devicePath)", "camera": "gone", "reason": "\(reason)"])
        case .failing(let reason):
            logger.error(message, metadata: ["device": "\(settings.devicePath)", "camera": "failing", "reason": "\(reason)"])
        }
    }
}
