/// Decides the encoder's bitrate from what the RTMP outputs really send: it follows the output
/// that can carry least, and climbs back gradually once the links free.
///
/// The rule is OBS's dynamic bitrate (obs-outputs `rtmp-stream.c`): when packets worth at least
/// `triggerMilliseconds` of media wait to be sent (in the send queue and the socket), the bitrate drops to the rate the link was
/// measured to carry over the last one to two seconds (counting only time it was busy), rounded
/// down to 100 kbit/s; while no
/// output is congested it climbs back by a tenth of the ceiling every `raiseIntervalNanoseconds`.
/// It never goes below `floorKbps`: below that the send queue's overflow (dropping up to the next
/// keyframe) stays the last resort.
///
/// A pure value: the caller feeds it samples with their time and applies what it returns, so
/// it is tested with scripted measurements and a scripted clock.
package struct AdaptiveBitrateController: Sendable {
    /// One output as sampled: `link` is nil while it has no connection (connecting, backing
    /// off), and then it constrains nothing.
    package struct Observation: Sendable {
        package var id: Int
        /// For the log; never contains a stream key (a redacted URL).
        package var name: String
        package var link: LinkSample?

        package init(id: Int, name: String, link: LinkSample?) {
            self.id = id
            self.name = name
            self.link = link
        }
    }

    package enum Change: Sendable, Equatable {
        /// `output` was congested and carried only `sendKbps`.
        case lowered(from: Int, to: Int, output: String, sendKbps: Int)
        /// No output congested for a while: one step up.
        case raised(from: Int, to: Int)
    }

    package static let triggerMilliseconds: Int64 = 200
    package static let raiseIntervalNanoseconds: UInt64 = 4_000_000_000
    /// The send rate is measured over at least this much time…
    static let minimumWindowNanoseconds: UInt64 = 1_000_000_000
    /// …and at most this much (older samples are forgotten).
    static let maximumWindowNanoseconds: UInt64 = 2_000_000_000

    /// After a lowering, the link first carries what was encoded at the old bitrate, often still
    /// recovering from the losses that made it slow: the next lowering waits this long…
    static let settleNanoseconds: UInt64 = 2_000_000_000
    /// …unless this much media waits, on its way to the send queue's overflow.
    static let urgentMilliseconds: Int64 = 1000

    /// The configured bitrate: never exceeded.
    package private(set) var ceilingKbps: Int
    package private(set) var floorKbps: Int
    /// What the encoder should run at now.
    package private(set) var currentKbps: Int
    /// When the next step up may come; nil at the ceiling.
    private var nextRaise: UInt64?
    private var histories: [Int: History] = [:]
    /// When the bitrate was last lowered.
    private var loweredAt: UInt64?

    /// Acknowledged byte counts of one connection over the measuring window, oldest first, and
    /// whether the kernel held unsent bytes then (the link, not the encoder, set the pace).
    private struct History {
        var connection: Int
        var samples: [(at: UInt64, bytesAcked: UInt64, busy: Bool)] = []

        /// kbit/s the link is known to carry, once it was busy (data waiting at both ends of an
        /// interval) for at least the minimum window: the larger of its rate over those busy
        /// intervals and its rate over the whole window. Both are rates it really delivered. The
        /// first sees a link's full capacity at once after a drop (time it idled for want of data
        /// says nothing about what it can carry); the second keeps a moment of TCP loss recovery
        /// inside the window (a probe above capacity) from reading as the link's capacity.
        var kbps: Int? {
            var bytes: UInt64 = 0
            var nanoseconds: UInt64 = 0
            for (earlier, later) in zip(samples, samples.dropFirst()) where earlier.busy && later.busy {
                guard later.bytesAcked >= earlier.bytesAcked else { return nil }
                bytes += later.bytesAcked - earlier.bytesAcked
                nanoseconds += later.at - earlier.at
            }
            guard nanoseconds >= AdaptiveBitrateController.minimumWindowNanoseconds,
                let first = samples.first, let last = samples.last, last.bytesAcked >= first.bytesAcked
            else { return nil }
            // bits per millisecond = kbit/s
            let busy = bytes * 8 * 1_000_000 / nanoseconds
            let whole = (last.bytesAcked - first.bytesAcked) * 8 * 1_000_000 / (last.at - first.at)
            return Int(max(busy, whole))
        }

        mutating func append(at now: UInt64, bytesAcked: UInt64, busy: Bool) {
            samples.append((now, bytesAcked, busy))
            while samples.count > 1, now - samples[1].at >= AdaptiveBitrateController.maximumWindowNanoseconds {
                samples.removeFirst()
            }
        }

        /// Starts a fresh window at the latest sample (after a change, the old rate says nothing).
        mutating func restart() {
            if let last = samples.last { samples = [last] }
        }
    }

    /// `floorKbps` is clamped to the ceiling.
    package init(ceilingKbps: Int, floorKbps: Int) {
        self.ceilingKbps = max(1, ceilingKbps)
        self.floorKbps = min(max(1, floorKbps), self.ceilingKbps)
        currentKbps = self.ceilingKbps
    }

    private var stepKbps: Int { max(1, ceilingKbps / 10) }

    /// Takes one round of samples at `now` (CLOCK_MONOTONIC ns); returns the change to apply, if any.
    package mutating func observe(_ observations: [Observation], at now: UInt64) -> Change? {
        let present = Set(observations.map(\.id))
        histories = histories.filter { present.contains($0.key) }
        var congested = false
        var slowest: (name: String, kbps: Int, waiting: Int64)?
        for observation in observations {
            guard let link = observation.link else {
                histories[observation.id] = nil
                continue
            }
            var history = histories[observation.id] ?? History(connection: link.connection)
            if history.connection != link.connection || (history.samples.last?.bytesAcked ?? 0) > link.bytesAcked {
                history = History(connection: link.connection)
            }
            history.append(at: now, bytesAcked: link.bytesAcked, busy: link.unsentBytes > 0)
            histories[observation.id] = history
            let waiting = waitingMilliseconds(link)
            guard waiting >= Self.triggerMilliseconds else { continue }
            congested = true
            if let kbps = history.kbps, kbps < slowest?.kbps ?? .max {
                slowest = (observation.name, kbps, waiting)
            }
        }

        if congested {
            if currentKbps < ceilingKbps { nextRaise = now + Self.raiseIntervalNanoseconds }
            guard let slowest else { return nil }
            let settled = loweredAt.map { now - $0 >= Self.settleNanoseconds } ?? true
            guard settled || slowest.waiting >= Self.urgentMilliseconds else { return nil }
            // Rounded down, so that the link has room to drain what waits.
            let target = max(floorKbps, slowest.kbps / 100 * 100)
            guard target < currentKbps else { return nil }
            let from = currentKbps
            currentKbps = target
            loweredAt = now
            nextRaise = now + Self.raiseIntervalNanoseconds
            for id in histories.keys { histories[id]?.restart() }
            return .lowered(from: from, to: target, output: slowest.name, sendKbps: slowest.kbps)
        }

        guard currentKbps < ceilingKbps else {
            nextRaise = nil
            return nil
        }
        guard let due = nextRaise else {
            nextRaise = now + Self.raiseIntervalNanoseconds
            return nil
        }
        guard now >= due else { return nil }
        let from = currentKbps
        currentKbps = min(ceilingKbps, currentKbps + stepKbps)
        nextRaise = currentKbps < ceilingKbps ? now + Self.raiseIntervalNanoseconds : nil
        return .raised(from: from, to: currentKbps)
    }

    /// How much media waits to be sent: the send queue's span plus what the kernel has not sent
    /// yet, in media time at the current bitrate (the kernel takes up to a quarter second before
    /// the queue grows at all, see `RTMPOutput.transportOptions`). Nothing when the kernel has
    /// sent everything: packets that wait then wait for a busy publisher thread, not the link.
    func waitingMilliseconds(_ link: LinkSample) -> Int64 {
        guard link.unsentBytes > 0 else { return 0 }
        return link.queuedMilliseconds + Int64(link.unsentBytes) * 8 / Int64(currentKbps)
    }

    /// A reload: the newly configured bitrate is the ceiling. At the old ceiling the bitrate moves
    /// with it; below it (adapted down) it stays, unless above the new ceiling, and climbs from
    /// there. Returns the bitrate to run at now.
    @discardableResult
    package mutating func setCeiling(_ kbps: Int, floorKbps floor: Int, at now: UInt64) -> Int {
        let wasAtCeiling = currentKbps == ceilingKbps
        ceilingKbps = max(1, kbps)
        floorKbps = min(max(1, floor), ceilingKbps)
        currentKbps = wasAtCeiling ? ceilingKbps : min(currentKbps, ceilingKbps)
        currentKbps = max(currentKbps, floorKbps)
        if currentKbps < ceilingKbps {
            if nextRaise == nil { nextRaise = now + Self.raiseIntervalNanoseconds }
        } else {
            nextRaise = nil
        }
        return currentKbps
    }
}
