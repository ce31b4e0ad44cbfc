extension AdaptiveBitrateController {
    /// One connection's samples over the last `historyNanoseconds`, oldest first, and what they
    /// say about the link.
    struct LinkHistory {
        struct Sample {
            var at: UInt64
            var bytesAcked: UInt64
            /// The link held media (unsent bytes in the kernel, SRT's send buffer past a round
            /// trip): the link, not the encoder, set the pace.
            var busy: Bool
            var idle: Bool
        }

        /// What the link carries is its rate over the busy time of this span. Not the best of
        /// short windows: after a loss burst the server's cumulative ACK takes in a second's worth
        /// at once (seen on tc-tbf: 130 kB in 0.6 s, a 1-s window read 680 kbit/s on a 400 kbit/s
        /// link), and a stall before it as little; a long span holds both, so neither a catch-up
        /// nor one bad second moves it much.
        static let historyNanoseconds: UInt64 = 10_000_000_000
        /// The latest rate, for a link that became slower than its span says.
        static let latestNanoseconds: UInt64 = 2_000_000_000
        /// A rate counts once the link was busy this long (a shorter stretch would read a few
        /// packets let through by a token bucket's burst as speed).
        static let minimumBusyNanoseconds: UInt64 = 700_000_000
        /// What is in flight is compared with what the link delivered over this span.
        static let flightNanoseconds: UInt64 = 1_000_000_000
        /// The idle share is judged over this span.
        static let idleSpanNanoseconds: UInt64 = 6_000_000_000

        var connection: Int
        private(set) var samples: [Sample] = []

        init(connection: Int) {
            self.connection = connection
        }

        /// The bytes acknowledged over the second before `now`; nil until the history spans it.
        func lastSecondBytes(_ link: LinkSample, at now: UInt64) -> UInt64? {
            guard now >= Self.flightNanoseconds,
                let reference = samples.last(where: { $0.at <= now - Self.flightNanoseconds }), link.bytesAcked >= reference.bytesAcked
            else { return nil }
            return link.bytesAcked - reference.bytesAcked
        }

        /// More is in flight than the link delivered over the last second: TCP sends faster than
        /// the link carries, and what it loses there waits to be sent again. A link that keeps
        /// up holds its round trip's worth in flight (settled on tc-tbf at 400 kbit/s: up to
        /// 29 kB against 45 kB a second; right after the throttle began, 130–240 kB against
        /// 20–35 kB).
        func flightOverfills(_ link: LinkSample, at now: UInt64) -> Bool {
            guard link.inFlightBytes > 0, let delivered = lastSecondBytes(link, at: now) else { return false }
            return UInt64(link.inFlightBytes) > delivered
        }

        /// `overfilled`: `flightOverfills` said so for this sample; the link sets the pace then too.
        mutating func append(at now: UInt64, _ link: LinkSample, overfilled: Bool = false) {
            samples.append(Sample(at: now, bytesAcked: link.bytesAcked, busy: link.linkHoldsMedia || overfilled, idle: link.isIdle))
            while samples.count > 1, now - samples[1].at >= Self.historyNanoseconds {
                samples.removeFirst()
            }
        }

        /// What the link carried while busy (data waiting at both ends of an interval), in kbit/s:
        /// over the whole history and over its latest `latestNanoseconds`; nil until it was busy
        /// for `minimumBusyNanoseconds`.
        var deliveryKbps: (span: Int, latest: Int)? {
            guard let span = busyKbps(since: 0) else { return nil }
            let recent = samples.last.map { $0.at > Self.latestNanoseconds ? $0.at - Self.latestNanoseconds : 0 } ?? 0
            return (span, busyKbps(since: recent) ?? span)
        }

        /// What the link carried over the busy time so far, however short (nil if none): a
        /// link that has just become congested, read before `minimumBusyNanoseconds` (see
        /// `AdaptiveBitrateController.lowerEarly`).
        /// It starts at the first acknowledgment: until then the link has not been measured (a
        /// stream's first keyframe waits a round trip on any link; read as 0 kbit/s, that sent
        /// the bitrate to the floor 0.4 s into a run).
        var earlyKbps: Int? {
            guard let firstDelivery = zip(samples, samples.dropFirst()).first(where: { $1.bytesAcked > $0.bytesAcked })?.0.at
            else { return nil }
            return busyKbps(since: firstDelivery, minimum: 1)
        }

        private func busyKbps(since start: UInt64, minimum: UInt64 = Self.minimumBusyNanoseconds) -> Int? {
            var bytes: UInt64 = 0
            var nanoseconds: UInt64 = 0
            for (earlier, later) in zip(samples, samples.dropFirst())
            where earlier.at >= start && earlier.busy && later.busy && later.bytesAcked >= earlier.bytesAcked {
                bytes += later.bytesAcked - earlier.bytesAcked
                nanoseconds += later.at - earlier.at
            }
            guard nanoseconds >= minimum else { return nil }
            // bits per millisecond = kbit/s
            return Int(bytes * 8 * 1_000_000 / nanoseconds)
        }

        /// The share of the samples of the last `idleSpanNanoseconds` that found nothing in flight;
        /// nil until the history spans that long.
        var idleShare: Double? {
            guard let last = samples.last, let first = samples.first,
                last.at - first.at >= Self.idleSpanNanoseconds
            else { return nil }
            let recent = samples.filter { last.at - $0.at < Self.idleSpanNanoseconds }
            return Double(recent.count { $0.idle }) / Double(recent.count)
        }
    }
}
