/// Decides the encoder's bitrate from what the RTMP outputs really send: it follows the output
/// that can carry least, settles below what that link carries, and remembers it.
///
/// - Lowering: when packets worth `triggerMilliseconds` of media wait to be sent (in the send
///   queue and the socket) the bitrate drops to `headroomPercent` of the link's rate: what it
///   delivered over its busy time in the last ten seconds (see `LinkHistory`), so one bad second
///   does not send it to the floor. Another lowering needs a queue that still grows (one that
///   drains after a lowering, or after a second of loss recovery, is left to drain).
/// - In flight: more bytes in flight than the link delivered over the last second (see
///   `LinkHistory.flightOverfills`) count as waiting media too, and the link as busy: a link that
///   has just become slower takes a second's worth into TCP's flight before anything stays
///   unsent, and what it loses there must be sent again before anything newer.
/// - Early: congestion found before the link was busy long enough to be measured lowers at once
///   to `headroomPercent` of what it carried over its busy time so far. The first full measurement then replaces that reading (lowering again if it is
///   lower); a queue that drains before it comes leaves nothing known, and the bitrate climbs.
/// - Remembering: that rate, followed while the queue drains, is the link's known rate R. Once
///   the queue has drained, the bitrate goes straight back to the safe level (`headroomPercent`
///   of R) if it was lower. Above it, it probes only after `probeAfterNanoseconds` of calm, by one
///   step, and backs off at once when the queue grows. A probe that holds for
///   `probeHoldNanoseconds`, or a link found idle even at its keyframes (`roomIdleShare`), has
///   room: R is forgotten and the bitrate climbs by half again every `climbIntervalNanoseconds`
///   to the ceiling.
/// - Calm: nothing counts as calm while the queue still drains after congestion; calm starts only
///   once less than `drainedMilliseconds` waits.
/// - It never goes below `floorKbps`: below that the send queue's overflow (dropping up to the
///   next keyframe) stays the last resort.
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
        /// `output` was congested; its link is estimated to carry `sendKbps`.
        case lowered(from: Int, to: Int, output: String, sendKbps: Int)
        /// One step up, for `reason`.
        case raised(from: Int, to: Int, reason: Raise)
    }

    package enum Raise: Sendable, Equatable {
        /// Back to the safe level below the link's known rate.
        case recovering(linkKbps: Int)
        /// Above the link's known rate, to see whether it carries more now.
        case probing(linkKbps: Int)
        /// The link has room (a probe held, or it idles): climbing fast.
        case climbing
    }

    package static let triggerMilliseconds: Int64 = 200
    /// A queue below this has drained: calm may begin.
    static let drainedMilliseconds: Int64 = 100
    /// The bitrate is set to this share of the link's estimate, leaving room to drain a backlog
    /// and for x264's VBV to overshoot around a keyframe.
    static let headroomPercent = 80
    /// After a lowering, the link first carries what was encoded at the old bitrate: the next
    /// lowering waits this long…
    static let settleNanoseconds: UInt64 = 2_000_000_000
    /// …unless this much media waits, on its way to the send queue's overflow (then a second).
    static let urgentMilliseconds: Int64 = 1000
    /// Calm this long after congestion before going back up to the safe level.
    static let recoverAfterNanoseconds: UInt64 = 2_000_000_000
    /// Calm this long at the safe level before a probe: a failed one costs two changes and a few
    /// seconds of a growing queue, so not often (a link that freed on a LAN is found idle first).
    static let probeAfterNanoseconds: UInt64 = 60_000_000_000
    /// A probe calm this long shows the link carries more.
    static let probeHoldNanoseconds: UInt64 = 4_000_000_000
    /// After a lowering the queue drains slowly (the link carries only a little more than the
    /// encoder makes): a queue that did not grow by `growthMilliseconds` over this span is
    /// draining, and another lowering would only follow a second of loss recovery down.
    static let growthNanoseconds: UInt64 = 1_000_000_000
    static let growthMilliseconds: Int64 = 50
    /// At the safe level, congestion must last this long, its queue still growing, before the
    /// bitrate goes lower.
    static let persistentNanoseconds: UInt64 = 3_000_000_000
    /// Climbing without a known limit: one step per this much calm.
    static let climbIntervalNanoseconds: UInt64 = 2_000_000_000
    /// A link found with nothing in flight in this share of its samples (over six seconds, a few
    /// keyframes) has room (a LAN, a link that freed): even the keyframes, the stream's biggest
    /// bursts, pass at once. A token bucket lets P-frames through at once below about 75 % of
    /// its rate (seen on tc-tbf at 600 kbit/s: idle in 90 % of the samples at 370), but holds
    /// each keyframe for a few samples; a free link was idle in all of them. A WAN's round trip
    /// keeps data in flight, so there only a probe finds the room.
    static let roomIdleShare = 0.97

    /// The configured bitrate: never exceeded.
    package private(set) var ceilingKbps: Int
    package private(set) var floorKbps: Int
    /// What the encoder should run at now.
    package private(set) var currentKbps: Int
    /// The rate the slowest link was measured to carry at the last congestion; nil when none is
    /// known (at start, or once the link showed room).
    package private(set) var knownLinkKbps: Int?
    private var histories: [Int: LinkHistory] = [:]
    private var lastLowering: UInt64?
    private var lastChange: UInt64 = 0
    /// Since when nothing waits (nil while congested or draining).
    private var calmSince: UInt64?
    /// When the current probe began, if one runs.
    private var probeStart: UInt64?
    /// Lowered since the queue last drained: another lowering then needs a growing queue.
    private var loweredSinceCalm = false
    /// `knownLinkKbps` is an early reading (see `lowerEarly`), to be replaced by a full one.
    private var knownIsEarly = false
    private var congestedSince: UInt64?
    /// The most media waiting at each sample of the last `growthNanoseconds` (and one before).
    private var waitingLog: [(at: UInt64, milliseconds: Int64)] = []

    /// `floorKbps` is clamped to the ceiling.
    package init(ceilingKbps: Int, floorKbps: Int) {
        self.ceilingKbps = max(1, ceilingKbps)
        self.floorKbps = min(max(1, floorKbps), self.ceilingKbps)
        currentKbps = self.ceilingKbps
    }

    private var stepKbps: Int { max(1, ceilingKbps / 10) }

    /// `headroomPercent` of `linkKbps`, rounded down to 10 kbit/s, within floor and ceiling.
    func safeKbps(_ linkKbps: Int) -> Int {
        min(ceilingKbps, max(floorKbps, linkKbps * Self.headroomPercent / 100 / 10 * 10))
    }

    /// Takes one round of samples at `now` (CLOCK_MONOTONIC ns); returns the change to apply, if any.
    package mutating func observe(_ observations: [Observation], at now: UInt64) -> Change? {
        let present = Set(observations.map(\.id))
        histories = histories.filter { present.contains($0.key) }
        var slowest: (name: String, kbps: (span: Int, latest: Int), waiting: Int64)?
        var earliest: (name: String, kbps: Int)?
        var congested = false
        var mostWaiting: Int64 = 0
        var idleShares: [Double?] = []
        for observation in observations {
            guard let link = observation.link else {
                histories[observation.id] = nil
                continue
            }
            var history = histories[observation.id] ?? LinkHistory(connection: link.connection)
            if history.connection != link.connection || (history.samples.last?.bytesAcked ?? 0) > link.bytesAcked {
                history = LinkHistory(connection: link.connection)
            }
            let overfilled = history.flightOverfills(link, at: now)
            history.append(at: now, link, overfilled: overfilled)
            histories[observation.id] = history
            idleShares.append(history.idleShare)
            // An overfilled flight waits too: it must reach the server before anything newer.
            let waiting = max(waitingMilliseconds(link), overfilled ? Int64(link.inFlightBytes) * 8 / Int64(currentKbps) : 0)
            mostWaiting = max(mostWaiting, waiting)
            guard waiting >= Self.triggerMilliseconds else { continue }
            congested = true
            if let kbps = history.deliveryKbps, kbps.span < slowest?.kbps.span ?? .max {
                slowest = (observation.name, kbps, waiting)
            }
            if let kbps = history.earlyKbps, kbps < earliest?.kbps ?? .max {
                earliest = (observation.name, kbps)
            }
        }

        waitingLog.append((now, mostWaiting))
        while waitingLog.count > 1, now - waitingLog[1].at >= Self.growthNanoseconds { waitingLog.removeFirst() }
        congestedSince = congested ? congestedSince ?? now : nil
        if congested {
            calmSince = nil
            let probing = probeStart != nil
            probeStart = nil
            guard let slowest else { return earliest.flatMap { lowerEarly(to: $0, at: now) } }
            if knownIsEarly { return replaceEarlyReading(with: slowest, at: now) }
            // Draining after a lowering, the link shows what it carries once TCP has recovered
            // from the losses that made it slow: the known rate follows it up.
            if loweredSinceCalm, let known = knownLinkKbps { knownLinkKbps = max(known, slowest.kbps.span) }
            return lower(to: slowest, probing: probing, at: now)
        }
        if mostWaiting >= Self.drainedMilliseconds {
            // Still draining, or a keyframe's moment: not congested, not calm either.
            if calmSince == nil { return nil }
        } else if calmSince == nil {
            calmSince = now
            loweredSinceCalm = false
            if knownIsEarly {
                // Drained before the link could be measured: nothing is known about it.
                knownIsEarly = false
                knownLinkKbps = nil
            }
        }
        let idle = !idleShares.isEmpty && idleShares.allSatisfy { ($0 ?? 0) >= Self.roomIdleShare }
        return climb(at: now, linkIdles: idle)
    }

    private mutating func lower(
        to slowest: (name: String, kbps: (span: Int, latest: Int), waiting: Int64), probing: Bool, at now: UInt64
    ) -> Change? {
        let urgent = slowest.waiting >= Self.urgentMilliseconds
        let linkKbps: Int
        if probing, let known = knownLinkKbps {
            // The probe found the link's limit where it was: back to below it at once.
            linkKbps = known
        } else if !loweredSinceCalm, knownLinkKbps.map({ currentKbps > safeKbps($0) }) ?? true {
            // Above what the link is known to carry (or nothing known): at once.
            linkKbps = slowest.kbps.span
        } else {
            // At the safe level, or lowered already: a second of loss recovery builds a queue
            // that then drains; only one that keeps growing means the link became slower.
            let since = lastLowering.map { now - $0 } ?? .max
            let settled = since >= Self.settleNanoseconds
            guard settled || urgent && since >= Self.growthNanoseconds else { return nil }
            let persistent = loweredSinceCalm || urgent || now - (congestedSince ?? now) >= Self.persistentNanoseconds
            guard persistent, queueGrows(at: now) else { return nil }
            // A second waiting and growing: the link carries less than its span says (a
            // retransmission timeout, or it became slower); the latest rate counts.
            linkKbps = urgent ? min(slowest.kbps.span, slowest.kbps.latest) : slowest.kbps.span
        }
        let target = safeKbps(linkKbps)
        guard target < currentKbps else { return nil }
        let from = currentKbps
        currentKbps = target
        knownLinkKbps = probing ? knownLinkKbps : slowest.kbps.span
        lastLowering = now
        lastChange = now
        loweredSinceCalm = true
        return .lowered(from: from, to: target, output: slowest.name, sendKbps: linkKbps)
    }

    /// Congested, and no output was busy long enough to be measured: once per congestion, down
    /// to `headroomPercent` of what the slowest carried over its busy time so far. On tc-tbf at
    /// 400 kbit/s (1200 configured) the measurement took a second after the queue formed; in that
    /// second TCP put 200 kB in flight, mostly lost, and the queue overflowed 5 s later while TCP
    /// was still sending those again (issue 41).
    private mutating func lowerEarly(to earliest: (name: String, kbps: Int), at now: UInt64) -> Change? {
        guard !loweredSinceCalm else { return nil }
        let target = safeKbps(earliest.kbps)
        guard target < currentKbps else { return nil }
        let from = currentKbps
        currentKbps = target
        knownLinkKbps = earliest.kbps
        knownIsEarly = true
        lastLowering = now
        lastChange = now
        loweredSinceCalm = true
        return .lowered(from: from, to: target, output: earliest.name, sendKbps: earliest.kbps)
    }

    /// The first full measurement after an early lowering: it is the known rate now (followed up
    /// while the queue drains, as after any lowering); lower again at once if it says less.
    private mutating func replaceEarlyReading(
        with slowest: (name: String, kbps: (span: Int, latest: Int), waiting: Int64), at now: UInt64
    ) -> Change? {
        knownIsEarly = false
        knownLinkKbps = slowest.kbps.span
        let target = safeKbps(slowest.kbps.span)
        guard target < currentKbps else { return nil }
        let from = currentKbps
        currentKbps = target
        lastLowering = now
        lastChange = now
        return .lowered(from: from, to: target, output: slowest.name, sendKbps: slowest.kbps.span)
    }

    /// The most media waiting grew by `growthMilliseconds` over the last `growthNanoseconds`.
    private func queueGrows(at now: UInt64) -> Bool {
        guard let latest = waitingLog.last, let reference = waitingLog.first, now - reference.at >= Self.growthNanoseconds
        else { return false }
        return latest.milliseconds - reference.milliseconds >= Self.growthMilliseconds
    }

    private mutating func climb(at now: UInt64, linkIdles: Bool) -> Change? {
        guard currentKbps < ceilingKbps else {
            probeStart = nil
            knownLinkKbps = nil
            return nil
        }
        guard let calmSince else { return nil }
        let calm = now - max(calmSince, lastChange)
        if let linkKbps = knownLinkKbps {
            if let probeStart {
                guard now - max(probeStart, calmSince) >= Self.probeHoldNanoseconds else { return nil }
                return climbFreely(at: now)
            }
            if linkIdles, calm >= Self.recoverAfterNanoseconds {
                return climbFreely(at: now)
            }
            let safe = safeKbps(linkKbps)
            if currentKbps < safe, calm >= Self.recoverAfterNanoseconds {
                return raise(to: safe, .recovering(linkKbps: linkKbps), at: now)
            }
            guard calm >= Self.probeAfterNanoseconds else { return nil }
            probeStart = now
            return raise(to: max(currentKbps + stepKbps, linkKbps), .probing(linkKbps: linkKbps), at: now)
        }
        guard calm >= Self.climbIntervalNanoseconds else { return nil }
        return climbFreely(at: now)
    }

    /// The link has room: nothing known limits it any more; half again (at least a step).
    private mutating func climbFreely(at now: UInt64) -> Change? {
        knownLinkKbps = nil
        probeStart = nil
        return raise(to: currentKbps + max(stepKbps, currentKbps / 2), .climbing, at: now)
    }

    private mutating func raise(to kbps: Int, _ reason: Raise, at now: UInt64) -> Change? {
        let target = min(ceilingKbps, kbps)
        guard target > currentKbps else { return nil }
        let from = currentKbps
        currentKbps = target
        lastChange = now
        return .raised(from: from, to: target, reason: reason)
    }

    /// How much media waits to be sent: the send queue's span plus what the kernel has not sent
    /// yet, in media time at the current bitrate (the kernel takes up to a quarter second before
    /// the queue grows at all, see `RTMPOutput.transportOptions`), plus what the transport holds
    /// (SRT's send buffer past a round trip, `LinkSample.transportWaitingMilliseconds`). Nothing
    /// when the link holds nothing: packets that wait then wait for a busy publisher thread.
    func waitingMilliseconds(_ link: LinkSample) -> Int64 {
        guard link.linkHoldsMedia else { return 0 }
        return link.queuedMilliseconds + Int64(link.unsentBytes) * 8 / Int64(currentKbps) + link.transportWaitingMilliseconds
    }

    /// A reload: the newly configured bitrate is the ceiling. At the old ceiling the bitrate moves
    /// with it; below it (adapted down) it stays, unless above the new ceiling, and climbs from
    /// there as it would have. Returns the bitrate to run at now.
    @discardableResult
    package mutating func setCeiling(_ kbps: Int, floorKbps floor: Int, at now: UInt64) -> Int {
        let wasAtCeiling = currentKbps == ceilingKbps
        ceilingKbps = max(1, kbps)
        floorKbps = min(max(1, floor), ceilingKbps)
        currentKbps = wasAtCeiling ? ceilingKbps : min(currentKbps, ceilingKbps)
        currentKbps = max(currentKbps, floorKbps)
        return currentKbps
    }
}
