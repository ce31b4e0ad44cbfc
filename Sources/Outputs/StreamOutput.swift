import Media
import Telemetry

/// One destination of the encoded stream: an RTMP server or a file. Each output muxes the
/// codec-neutral packets for itself.
///
/// `write` is called for every packet (on the capture thread after the encoder released its lock,
/// or in batches on the interleaver's thread) and must not block for long; an output that fails later (a dropped connection, a full
/// disk) reports it through the failure handler it was made with.
package protocol StreamOutput: AnyObject, Sendable {
    /// How the output appears in logs and errors; never contains a stream key.
    var name: String { get }
    /// Creates the file or starts connecting; throws if the output cannot start at all. Never
    /// waits for a server.
    func open() throws(OutputFailure)
    func write(_ packet: MediaPacket)
    /// `packets` in order, as `write` each would; an output with a lock of its own takes it once.
    func write(contentsOf packets: [MediaPacket])
    /// Sends what is still queued (bounded by `drainSeconds`), ends the stream with the AVC
    /// end-of-sequence tag at stream time `endTime` (ms), and closes.
    func finish(endTime: Int64, drainSeconds: Double)
    /// Ends the output after a run that failed to start or failed before this output got media: a
    /// file output that no media reached takes its file (or folder) away again — no debris
    /// (issues 25 and 41); one that got media, and every other output, ends as `finish` would.
    func abandon(endTime: Int64, drainSeconds: Double)
    /// Its own figures, read at report time: queue, drops, reconnects, what left it (Telemetry's
    /// `OutputStatistics`, the one type the registry, the status line and the graph read).
    var statistics: OutputStatistics { get }
    /// It streamed to viewers and does not now (a network output between connections): what an
    /// outage recording starts on. Never for a file.
    var isInterrupted: Bool { get }
    /// What the output's network connection carries now (adaptive bitrate); nil by default.
    var link: LinkSample? { get }
    /// The kernel name of the thread that takes what its queue holds (sends or writes it), as the
    /// pipeline's graph shows it and `ps -L` finds it.
    var threadName: String { get }
    /// Set while the output rests between its schedule's windows: when the next one opens
    /// (`ScheduledOutput`); nil while it runs, and always for an output without a schedule.
    var scheduleRest: ScheduleRest? { get }
}

/// An output resting by its schedule, as its last look at the schedule saw it (issue 44).
package struct ScheduleRest: Sendable, Equatable {
    /// When its next window opens, on the monotonic clock (the look's instant plus the wall
    /// clock's distance to the start): nil when no start is known (none within a year, a clock
    /// not yet set with `unset_clock: rest`).
    package var opensAt: MonotonicTime?
    /// The start as the operator reads it, or what it waits for; nil: no window within a year.
    package var next: String?

    package init(opensAt: MonotonicTime?, next: String?) {
        self.opensAt = opensAt
        self.next = next
    }
}

extension StreamOutput {
    package func write(contentsOf packets: [MediaPacket]) {
        for packet in packets { write(packet) }
    }

    /// A network output has nothing to take away: it ends as on a stop (an RTMP output unpublishes).
    package func abandon(endTime: Int64, drainSeconds: Double) {
        finish(endTime: endTime, drainSeconds: drainSeconds)
    }

    /// Files are never interrupted.
    package var isInterrupted: Bool { false }

    /// Outputs without a network connection (files) constrain no bitrate.
    package var link: LinkSample? { nil }

    /// Outputs without a schedule never rest.
    package var scheduleRest: ScheduleRest? { nil }
}
