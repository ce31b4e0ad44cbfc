import Media
import RTMP

extension RTMPOutput {
    /// How often the watchdog samples the connection's progress.
    static let watchdogIntervalNanoseconds = 200_000_000

    /// The watchdog thread: cuts the live connection once it has made no progress for the send
    /// timeout (see `StallDetector`). The publisher thread, blocked in a send or about to start
    /// one, then sees the failure and reconnects.
    func watch(until publisherEnded: WakeEvent) {
        var detector = StallDetector(timeoutNanoseconds: UInt64(max(1, options.sendTimeoutSeconds)) * 1_000_000_000)
        var watched: ObjectIdentifier?
        // A sample every interval until the publisher thread ends, which ends the sleep at once.
        while !publisherEnded.wait(until: MonotonicTime.now().adding(nanoseconds: UInt64(Self.watchdogIntervalNanoseconds))) {
            guard let watch = state.withLock({ $0.watch }) else {
                watched = nil
                stallStartNanoseconds.store(0, ordering: .relaxed)
                continue
            }
            if watched != ObjectIdentifier(watch) {
                watched = ObjectIdentifier(watch)
                detector.reset()
            }
            guard let progress = watch.progress() else { continue }
            let cut = detector.observe(progress, at: MonotonicTime.now().nanoseconds)
            stallStartNanoseconds.store(detector.waitingSince ?? 0, ordering: .relaxed)
            if cut {
                watch.abort(reason: "the server acknowledged nothing for \(options.sendTimeoutSeconds) s while data was waiting")
            }
        }
    }
}
