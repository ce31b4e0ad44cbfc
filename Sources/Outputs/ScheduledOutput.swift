import Logging
import Media
import Synchronization
import Telemetry

/// An output that runs only inside its schedule's windows (issue 44): outside them it is idle on
/// purpose (phase `scheduled`: not up, and not a problem), inside them a fresh output made by
/// `make` publishes as any other and starts at a keyframe; at a window's end it is finished as on
/// a stop (an RTMP output sends the end of sequence and deleteStream, so the ingest ends the
/// broadcast). What the schedule says comes from `look`, asked by the output's own thread when
/// the window changes next, when the wall clock is set (NTP's first sync, a manual change, a
/// resume: `WallClockAlarm`), and at the stop — not on a period: between windows the thread
/// sleeps in the kernel. A DST change is a transition the schedule names; a reload that changes
/// the schedule makes the output again, and the new one looks at once.
package final class ScheduledOutput: StreamOutput {
    /// What the schedule says now.
    package enum Window: Sendable, Equatable {
        /// Open; `closes`: when and why it closes next, as the operator reads it (nil: not within a
        /// year, or a clock not yet set that `unset_clock: stream` streams through).
        case open(closes: String?)
        /// Closed; `next`: when and why it opens next, as the operator reads it (nil: not within a
        /// year); `inSeconds`: how far away that start is on the wall clock (nil: none known).
        case closed(next: String?, inSeconds: Int64? = nil)
    }

    /// One look at the schedule.
    package struct Look: Sendable, Equatable {
        package var window: Window
        /// The system's wall clock (seconds since 1970) when the look was taken.
        package var lookedAt: Int64
        /// When, on the system's wall clock, the window changes next; nil: not within a year, or
        /// a clock not yet set (its setting is what changes it).
        package var changesAt: Int64?
        /// A clock the kernel cannot see move (a debug build's test clock, `ScheduleClock`) is
        /// looked at again this often; nil: the system's clock, whose settings end the wait.
        package var lookAgainNanoseconds: UInt64?

        package init(window: Window, lookedAt: Int64, changesAt: Int64?, lookAgainNanoseconds: UInt64? = nil) {
            self.window = window
            self.lookedAt = lookedAt
            self.changesAt = changesAt
            self.lookAgainNanoseconds = lookAgainNanoseconds
        }
    }

    package let name: String
    package let meter: OutputMeter
    let make: @Sendable () -> any StreamOutput
    let look: @Sendable () -> Look
    let logger: Logger
    /// The kernel name of its own thread, which watches the schedule.
    static let watchThreadName = "schedule"
    /// The output while a window is open; nil outside. The encoder's thread reads it at every write.
    let current = Lock<(any StreamOutput)?>(nil)
    /// What the last look saw while the output rests; nil while a window is open.
    let rest = Lock<ScheduleRest?>(nil)
    /// The newest packet's time: where an output closed at a window's end ends its stream.
    let lastTime = Atomic<Int64>(0)
    let threads = PublisherThreads()
    let stop = AtomicLazyReference<WakeEvent>()
    /// Looks at the schedule so far (tests: a look per transition, not per period).
    package let looks = Atomic<Int>(0)
    /// How often a thread looks when the kernel gives it no wall-clock timer (`timerfd_create`
    /// failed: out of fds), and how often `IdleRest` reads what the outputs' looks saw.
    package static let lookIntervalNanoseconds: UInt64 = 250_000_000
    /// What an output closed at a window's end may still send.
    static let closingDrainSeconds = 2.0

    package init(
        name: String, meter: OutputMeter, logger: Logger, window: @escaping @Sendable () -> Look,
        make: @escaping @Sendable () -> any StreamOutput
    ) {
        self.name = name
        self.meter = meter
        self.logger = logger
        self.look = window
        self.make = make
    }

    /// Looks at the schedule once (an open window starts the output at once, and a file output
    /// that cannot open fails the start as it would unscheduled), then watches it on a thread.
    package func open() throws(OutputFailure) {
        let stopEvent: WakeEvent
        do {
            stopEvent = stop.storeIfNil(try WakeEvent())
        } catch {
            throw OutputFailure(output: name, reason: "\(error)")
        }
        let first = look()
        looks.add(1, ordering: .relaxed)
        try follow(first.window)
        do {
            try threads.start(name: Self.watchThreadName, publish: { [self] in watch(from: first, until: stopEvent) })
        } catch {
            close(drainSeconds: 0)
            throw OutputFailure(output: name, reason: "\(error)")
        }
    }

    package func write(_ packet: MediaPacket) {
        lastTime.store(packet.dts, ordering: .relaxed)
        current.withLock { $0 }?.write(packet)
    }

    package func write(contentsOf packets: [MediaPacket]) {
        if let last = packets.last { lastTime.store(last.dts, ordering: .relaxed) }
        current.withLock { $0 }?.write(contentsOf: packets)
    }

    package func finish(endTime: Int64, drainSeconds: Double) {
        stop.load()?.signal()
        _ = threads.end(waitingUpTo: 1)
        if let output = current.withLock({ output in defer { output = nil }; return output }) {
            output.finish(endTime: endTime, drainSeconds: drainSeconds)
        }
        meter.enter(.stopped)
    }

    /// A resting output's rate says nothing about the stream (the status line's "out … fps" leaves it out).
    package var statistics: OutputStatistics { current.withLock { $0 }?.statistics ?? OutputStatistics(isComplete: true) }

    package var link: LinkSample? { current.withLock { $0 }?.link }

    /// The open window's output's sender; while it rests, nothing takes packets: its own watch.
    package var threadName: String { current.withLock { $0 }?.threadName ?? Self.watchThreadName }

    package var scheduleRest: ScheduleRest? { rest.withLock { $0 } }

    /// The watch thread: follows the schedule until the stop event, looking at it again when its
    /// window changes, when the wall clock is set, and — for a test clock only — every
    /// `lookAgainNanoseconds`; an output that could not start in an open window is tried again
    /// every `lookIntervalNanoseconds`, as it was when every look tried it.
    private func watch(from first: Look, until stop: WakeEvent) {
        let alarm: WallClockAlarm
        do {
            alarm = try WallClockAlarm()
        } catch {
            logger.warning("schedule: no wall-clock timer; the schedule is looked at four times a second", metadata: ["output": "\(name)", "error": "\(error)"])
            while !stop.wait(until: MonotonicTime.now().adding(nanoseconds: Self.lookIntervalNanoseconds)) { _ = lookAndFollow() }
            return
        }
        var last = first
        var startFailed = false
        while true {
            // A transition not later than the look (a bug in the schedule) is waited for a second,
            // not looked at again at once.
            let at = last.changesAt.map { max($0, last.lookedAt + 1) }
            let retry = startFailed ? Self.lookIntervalNanoseconds : nil
            let bound = [last.lookAgainNanoseconds, retry].compactMap { $0 }.min().map { MonotonicTime.now().adding(nanoseconds: $0) }
            if alarm.wait(untilWallSecond: at, lookedAt: last.lookedAt, lookAgainBy: bound, or: stop) == .signalled { return }
            (last, startFailed) = lookAndFollow()
        }
    }

    /// One look and what follows from it; `startFailed`: the window is open and its output would
    /// not start.
    private func lookAndFollow() -> (look: Look, startFailed: Bool) {
        let now = look()
        looks.add(1, ordering: .relaxed)
        do {
            try follow(now.window)
            return (now, false)
        } catch {
            logger.error("a window opened and the output could not start", metadata: ["name": "\(meter.name)", "output": "\(name)", "error": "\(error.reason)"])
            return (now, true)
        }
    }

    /// Starts the output when `window` is open and none runs, ends it when closed.
    private func follow(_ window: Window) throws(OutputFailure) {
        if case .closed(let next, let seconds) = window {
            let opensAt = seconds.map { MonotonicTime.now().adding(nanoseconds: UInt64(max(0, $0)) * 1_000_000_000) }
            rest.withLock { $0 = ScheduleRest(opensAt: opensAt, next: next) }
        } else {
            rest.withLock { $0 = nil }
        }
        // Where the window stands, in one wording for /status's `schedule` and, while resting,
        // its last error.
        let standing = switch window {
        case .open(let closes): closes.map { "open until \($0)" } ?? "open: no stop within a year"
        case .closed(let next, _): next.map { "rests until \($0)" } ?? "rests: no window within a year"
        }
        meter.describeSchedule(standing)
        switch (window, current.withLock({ $0 }) != nil) {
        case (.open, false):
            meter.restart()
            let output = make()
            try output.open()
            current.withLock { $0 = output }
            logger.notice("schedule: a window opened; the output starts", metadata: ["name": "\(meter.name)", "output": "\(name)"])
        case (.closed(let next, _), let running):
            if running {
                close(drainSeconds: Self.closingDrainSeconds)
                logger.notice("schedule: the window closed; the output rests", metadata: ["name": "\(meter.name)", "output": "\(name)", "next": "\(next ?? "none within a year")"])
            }
            meter.enter(.scheduled)
            meter.describe(standing)
        case (.open, true):
            break
        }
    }

    private func close(drainSeconds: Double) {
        guard let output = current.withLock({ output in defer { output = nil }; return output }) else { return }
        output.finish(endTime: lastTime.load(ordering: .relaxed), drainSeconds: drainSeconds)
    }
}

extension ScheduledOutput: NetworkOutput {
    private var network: (any NetworkOutput)? { current.withLock { $0 } as? any NetworkOutput }

    /// Resting on purpose is no outage.
    package var isInterrupted: Bool { network?.isInterrupted ?? false }
    package var isStreaming: Bool { network?.isStreaming ?? false }
    package var sentFrameCount: Int { network?.sentFrameCount ?? 0 }
    package var stalledSince: MonotonicTime? { network?.stalledSince }
}
