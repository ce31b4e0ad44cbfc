import Logging
import Media
import Synchronization

extension OutputGroup {
    /// Makes leg `index` a fresh output and opens it (it connects in the background); it carries
    /// the stream from the next write on, starting with the newest keyframe's run.
    @discardableResult
    func startLeg(_ index: Int) -> Bool {
        let leg = legs[index]
        leg.meter.restart()
        let output = leg.make { [weak self] failure in self?.legGaveUp(index, failure) }
        do {
            try output.open()
        } catch {
            logger.error("could not start a leg", metadata: ["output": "\(name)", "leg": "\(index + 1)", "error": "\(error)"])
            return false
        }
        guard routing.withLock({ $0.start(index, output) }) else {
            // The group ended meanwhile.
            output.finish(endTime: 0, drainSeconds: 0)
            return false
        }
        return true
    }

    /// Leg `index` stops carrying the stream at once and ends on a thread of its own (sending up
    /// to `drainSeconds` of what it has): a leg on a black-holed link may take its send timeout to
    /// end, and the watch thread must go on looking meanwhile. `finish` joins those threads.
    func retireLeg(_ index: Int, drainSeconds: Double) {
        guard let (output, endTime) = routing.withLock({ routing in routing.take(index).map { ($0, routing.lastTime) } }) else { return }
        let leg = RetiringLeg()
        do {
            let thread = try DedicatedThread(name: "group retire") {
                output.finish(endTime: endTime, drainSeconds: drainSeconds)
                leg.ended.store(true, ordering: .releasing)
            }
            retiring.withLock { $0.append((thread, leg)) }
        } catch {
            output.finish(endTime: endTime, drainSeconds: drainSeconds)
        }
        joinEndedLegs()
    }

    /// Joins the threads of legs that have ended, so a group that switches for months holds none.
    func joinEndedLegs() {
        let done = retiring.withLock { legs in
            let done = legs.filter { $0.leg.ended.load(ordering: .acquiring) }
            legs.removeAll { $0.leg.ended.load(ordering: .acquiring) }
            return done
        }
        for leg in done { leg.thread.join() }
    }

    /// Every leg ends at once, each draining up to `drainSeconds` on a thread of its own, so one
    /// slow server does not hold the others' ends back.
    func finishLegs(endTime: Int64, drainSeconds: Double) {
        let outputs = routing.withLock { $0.takeAll() }
        var threads: [DedicatedThread] = []
        for output in outputs {
            do {
                threads.append(try DedicatedThread(name: "group finish") { output.finish(endTime: endTime, drainSeconds: drainSeconds) })
            } catch {
                output.finish(endTime: endTime, drainSeconds: drainSeconds)
            }
        }
        for thread in threads + retiring.withLock({ $0 }).map(\.thread) { thread.join() }
    }

    /// A leg's output gave up (its reconnect policy). With both, the group fails once every leg
    /// has; in failover the watch thread moves on when the failover time has passed.
    func legGaveUp(_ index: Int, _ failure: OutputFailure) {
        logger.warning("a leg gave up", metadata: ["output": "\(name)", "leg": "\(index + 1)", "error": "\(failure.reason)"])
        let allGaveUp = routing.withLock { routing in
            routing.gaveUp.insert(index)
            return policy.mode == .both && routing.gaveUp.count == legs.count
        }
        if allGaveUp {
            meter.enter(.failed, error: "every leg gave up; the last: \(failure.reason)")
            onFailure(OutputFailure(output: name, reason: "every leg gave up; the last: \(failure.reason)"))
        }
    }
}

/// Whether a leg ending on its own thread after a switch is done (then its thread can be joined).
final class RetiringLeg: Sendable {
    let ended = Atomic<Bool>(false)
}
