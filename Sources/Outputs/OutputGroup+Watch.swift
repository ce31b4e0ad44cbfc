import Logging
import Media
import Telemetry

extension OutputGroup {
    /// The watch thread: looks at its legs every `watchIntervalNanoseconds` until the stop event,
    /// keeps the group's meter and note current, and in failover switches legs.
    func watch(until stop: WakeEvent) {
        var failover = FailoverWatch()
        while !stop.wait(until: MonotonicTime.now().adding(nanoseconds: Self.watchIntervalNanoseconds)) {
            switch policy.mode {
            case .both: lookAtBothLegs()
            case .failover: step(&failover, now: MonotonicTime.now())
            }
        }
    }

    /// What the failover watch remembers between looks.
    struct FailoverWatch {
        /// Since when the active leg has not been streaming (it counts from its start too).
        var activeDownSince: MonotonicTime? = MonotonicTime.now()
        /// Since when the active leg carries the stream.
        var activeSince = MonotonicTime.now()
        /// When the candidate leg (an earlier one coming back) was started.
        var candidateSince: MonotonicTime?
    }

    func lookAtBothLegs() {
        let started = routing.withLock { $0.legs }
        let streaming = started.map { $0?.isStreaming ?? false }
        let down = legs.indices.filter { !streaming[$0] }
        meter.enter(down.count < legs.count ? .streaming : .connecting)
        meter.describe(down.isEmpty ? nil : down.map { describeDown($0) }.joined(separator: "; "))
    }

    func step(_ watch: inout FailoverWatch, now: MonotonicTime) {
        let (active, activeOutput, candidate, candidateOutput) = routing.withLock { routing in
            (routing.active, routing.legs[routing.active], routing.candidate, routing.candidate.flatMap { routing.legs[$0] })
        }
        if activeOutput?.isStreaming == true {
            // A live connection that carries nothing (a black-holed link) is down since it stalled.
            watch.activeDownSince = activeOutput?.stalledSince
        } else if watch.activeDownSince == nil {
            watch.activeDownSince = now
        }
        if let candidate, let candidateOutput {
            if candidateOutput.isStreaming && candidateOutput.sentFrameCount > 0 {
                // The earlier leg publishes and has sent a picture: it takes over, the other closes.
                switchTo(candidate, from: active, drainSeconds: 1, &watch, now: now, why: "its server is back")
                return
            }
            if seconds(now, since: watch.candidateSince ?? now) >= policy.failoverAfterSeconds {
                logger.warning("failover: an earlier leg answered but did not publish; staying", metadata: legMetadata(candidate))
                retireLeg(candidate, drainSeconds: 0)
                reachableSince.withLock { $0[candidate] = nil }
                watch.candidateSince = nil
            }
        } else if active > 0, let back = returningLeg(before: active, now: now), startLeg(back) {
            routing.withLock { $0.candidate = back }
            watch.candidateSince = now
            logger.notice("failover: an earlier leg answered for \(Int(policy.returnAfterSeconds)) s; publishing to it beside the active one", metadata: legMetadata(back))
        }
        if let down = watch.activeDownSince, legs.count > 1, seconds(now, since: down) >= policy.failoverAfterSeconds {
            let next = (active + 1) % legs.count
            if next == candidate || startLeg(next) {
                switchTo(next, from: active, drainSeconds: 0, &watch, now: now, why: "leg \(active + 1) was down \(Int(seconds(now, since: down))) s")
                watch.activeDownSince = now
                return
            }
        }
        describeFailover(active: active, streaming: watch.activeDownSince == nil, since: watch.activeSince, now: now)
    }

    /// Leg `next` (already started) carries the stream from now; leg `old` ends.
    private func switchTo(_ next: Int, from old: Int, drainSeconds: Double, _ watch: inout FailoverWatch, now: MonotonicTime, why: String) {
        routing.withLock { routing in
            routing.active = next
            if routing.candidate == next { routing.candidate = nil }
        }
        logger.notice("failover: leg \(next + 1) carries the stream: \(why)", metadata: legMetadata(next))
        retireLeg(old, drainSeconds: drainSeconds)
        reachableSince.withLock { $0 = $0.map { _ in nil } }
        watch.activeSince = now
        watch.activeDownSince = nil
        watch.candidateSince = nil
    }

    /// The earliest leg before `active` whose server has answered for `returnAfterSeconds`.
    private func returningLeg(before active: Int, now: MonotonicTime) -> Int? {
        let since = reachableSince.withLock { $0 }
        return (0..<active).first { index in
            since[index].map { seconds(now, since: $0) >= policy.returnAfterSeconds } ?? false
        }
    }

    /// The group's phase and note: which leg carries the stream, since when, and which are down.
    private func describeFailover(active: Int, streaming: Bool, since: MonotonicTime, now: MonotonicTime) {
        meter.enter(streaming ? .streaming : .connecting)
        meter.activeLeg.store(active + 1, ordering: .relaxed)
        var parts: [String] = []
        if active > 0 || !streaming {
            parts.append("leg \(active + 1) (\(legs[active].name)) \(streaming ? "carries the stream" : "is down") for \(Int(seconds(now, since: since))) s")
        }
        if active > 0 { parts.append(describeDown(0)) }
        meter.describe(parts.isEmpty ? nil : parts.joined(separator: "; "))
    }

    /// `leg 1 (rtmp://a/live/****) down: connection refused`.
    private func describeDown(_ index: Int) -> String {
        let reading = legs[index].meter.reading()
        return "leg \(index + 1) (\(legs[index].name)) down" + (reading.lastError.map { ": \($0)" } ?? "")
    }

    private func legMetadata(_ index: Int) -> Logger.Metadata {
        ["output": "\(name)", "leg": "\(index + 1)", "url": "\(legs[index].name)"]
    }

    private func seconds(_ now: MonotonicTime, since earlier: MonotonicTime) -> Double {
        Double(now.nanoseconds(since: earlier)) / 1e9
    }

    /// The probe thread (failover): asks each leg before the active one whether its server answers,
    /// once a second, and keeps since when each has answered without a break.
    func probe(until stop: WakeEvent) {
        while !stop.wait(until: MonotonicTime.now().adding(nanoseconds: Self.probeIntervalNanoseconds)) {
            // While an earlier leg is being brought back, it is the test itself.
            let active = routing.withLock { $0.candidate == nil ? $0.active : 0 }
            var answered: [Bool] = []
            for index in 0..<active { answered.append(legs[index].isReachable()) }
            let now = MonotonicTime.now()
            reachableSince.withLock { since in
                for index in since.indices {
                    let answers = index < answered.count && answered[index]
                    since[index] = answers ? (since[index] ?? now) : nil
                }
            }
        }
    }
}
