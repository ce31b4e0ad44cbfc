import Media
import SRT
import Telemetry

extension SRTOutput {
    /// The live connection, for the statistics thread: the caller and which connection it is
    /// (the attempt that made it, as RTMP numbers its links).
    struct LiveConnection {
        let caller: SRTCaller
        let number: Int
    }

    /// How often the statistics thread reads libsrt (the bitrate adapter samples as often while an
    /// SRT output runs, `BitrateAdapter.srtInterval`): twice per libsrt acknowledgement period
    /// (10 ms) would read nothing new, a frame's time (33 ms at 30 fps) lets a keyframe's backlog
    /// go unseen for a frame. A read is one srt_bistats call under libsrt's own lock.
    package static let statisticsIntervalNanoseconds: UInt64 = 20_000_000

    /// The statistics thread: every interval, libsrt's figures of the live connection (read with
    /// no lock held) become the meter's SRT series, the link adaptive bitrate follows, and the
    /// stall reading a group fails over by. The connection itself is libsrt's to cut (its peer
    /// idle timeout is the send timeout).
    func readStatistics(until publisherEnded: WakeEvent) {
        var reader = SRTLinkReader(latencyMilliseconds: options.latencyMilliseconds)
        var detector = StallDetector(timeoutNanoseconds: UInt64(max(1, options.sendTimeoutSeconds)) * 1_000_000_000)
        var watched: Int?
        while !publisherEnded.wait(until: MonotonicTime.now().adding(nanoseconds: Self.statisticsIntervalNanoseconds)) {
            guard let live = liveConnection.withLock({ $0 }) else {
                if watched != nil { meter.srtLinkEnded() }
                watched = nil
                linkSample.withLock { $0 = nil }
                stallStartNanoseconds.store(0, ordering: .relaxed)
                continue
            }
            if watched != live.number {
                watched = live.number
                detector.reset()
            }
            guard let statistics = live.caller.statistics() else { continue }
            let sample = reader.sample(statistics, connection: live.number, queuedMilliseconds: queue.spanMilliseconds)
            linkSample.withLock { $0 = sample }
            meter.recordSRTLink(SRTLinkReading(statistics), connection: live.number)
            _ = detector.observe(pending: statistics.sendBufferPackets > 0, acknowledged: reader.acknowledged, at: MonotonicTime.now().nanoseconds)
            stallStartNanoseconds.store(detector.waitingSince ?? 0, ordering: .relaxed)
        }
        if watched != nil { meter.srtLinkEnded() }
        linkSample.withLock { $0 = nil }
        stallStartNanoseconds.store(0, ordering: .relaxed)
    }
}

extension SRTLinkReading {
    /// The meter's units (seconds, bytes a second) from libsrt's (milliseconds, Mbit/s).
    init(_ statistics: SRTLinkStatistics) {
        self.init(
            roundTripSeconds: statistics.roundTripMilliseconds / 1000, sendBufferSeconds: Double(statistics.sendBufferMilliseconds) / 1000,
            sendBufferBytes: statistics.sendBufferBytes, bandwidthBytesPerSecond: statistics.bandwidthMbps * 125_000,
            sendRateBytesPerSecond: statistics.sendRateMbps * 125_000, sentPackets: statistics.sentPackets,
            retransmittedPackets: statistics.retransmittedPackets, lostPackets: statistics.lostPackets,
            droppedPackets: statistics.droppedPackets)
    }
}
