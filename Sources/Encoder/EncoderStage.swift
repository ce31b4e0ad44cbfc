import Logging
import Media
import Synchronization

/// The video encoder as a stage of its own (issue 39): one thread, one bounded input queue
/// (`StageQueue`), and the session in force, which only this thread calls (debug builds check it:
/// `EncoderSession.confinement`). The capture thread hands it a copy of each picture and goes
/// back to its camera; a slow encode (x265 starting its threads, a stalled hardware encoder) then
/// costs live pictures here, counted by the caller, never the source's cadence (placeholders and
/// a file played flat out wait instead: `whenFull`). Pictures come out of the session's output
/// handler on this thread, with no lock held.
///
/// What reaches the encoder goes through the queue (pictures, a codec switch) or an atomic the
/// next encode reads (keyframe requests, bitrate changes: the session's); nothing polls.
/// At stop (`finish`): the queue takes nothing more, what it holds is encoded, the session is
/// flushed, and the thread ends.
public final class EncoderStage: Sendable {
    /// Pictures waiting: one being copied in while one waits and one is encoded is enough to ride
    /// out an encode that takes a little longer than a frame interval; more would only add latency.
    public static let queueDepth = 2

    enum Input: Sendable {
        case picture(VideoFrame)
        /// A codec switch: flush the session in force, then encode with this one; `done` hears
        /// when it is in force.
        case replace(EncoderSession, done: StageQueue<Void>)
    }

    /// Who hands the stage its pictures: with the picture itself, what a full queue does
    /// (`whenFull`).
    public enum Upstream: Sendable {
        /// A camera, the test pattern, a file played in real time: it keeps its own cadence.
        case live
        /// A file played as fast as it can be read (`--pace fast`): the encoder is its pace.
        case flatOut
    }

    /// What a full queue does with `picture` from `upstream`; decided here and nowhere else.
    ///
    /// - A file played flat out waits for room: backpressure, as ffmpeg's scheduler applies it;
    ///   nothing is lost, the encoder sets the pace.
    /// - A live source's placeholder waits too. It fills a slot the source has already decided to
    ///   fill: the slots a loss or a silence took to notice, sent after the fact as fast as the loop
    ///   goes (up to a second behind, `PlaceholderSlots`), and the ones before a returning camera's
    ///   first frame. Such a burst finds the queue full by its nature; dropping from it would put
    ///   back the holes in the time line that the backfill exists to close. The source's own limit
    ///   bounds the wait: slots further back than the backfill limit it skips, and counts.
    /// - A live source's captured picture is dropped (the caller counts it): the camera, or the
    ///   test pattern's clock, keeps its cadence while the encoder is behind, and the next picture
    ///   is a fresh one rather than one that waited.
    ///
    /// Not by how far behind now a picture is stamped: the tail of a backfill burst and the slot
    /// sent just ahead of a returning camera's frame are stamped within an interval of now (the
    /// latter up to an interval after it), yet must not be dropped; and a camera's own frame may
    /// be stamped an interval or more back (stamped at the start of its exposure, dequeued from a
    /// backlog on a loaded machine) without being a slot the source chose to fill, and waiting
    /// for it would tie the camera to the encoder again.
    static func whenFull(for picture: VideoFrame, from upstream: Upstream) -> StageQueue<Input>.WhenFull {
        switch upstream {
        case .flatOut: .wait
        case .live: picture.isPlaceholder ? .wait : .drop
        }
    }

    private let queue = StageQueue<Input>(capacity: EncoderStage.queueDepth)
    /// Whether a full queue drops a picture (live) or makes the pusher wait (a file played flat out).
    public let upstream: Upstream
    /// The kernel name of the stage's thread.
    public static let threadName = "encoder"
    private let current: PublishedReference<EncoderSession>
    private let thread = Lock<DedicatedThread?>(nil)
    /// What the last flush said: set by the stage's thread before it ends, read after the join.
    private let flushResult = Lock<Result<Void, EncoderError>>(.success(()))
    private let logger: Logger
    /// An encode that failed beyond the session's recovery: the run cannot go on.
    private let failed: @Sendable (EncoderError) -> Void
    /// How long each encode call took (ns, wall time), for the registry.
    private let encoded: @Sendable (_ nanoseconds: Int) -> Void

    /// The stage around `session`, fed by `upstream`; `start` begins its thread.
    public init(
        session: EncoderSession, upstream: Upstream, logger: Logger,
        failed: @escaping @Sendable (EncoderError) -> Void,
        encoded: @escaping @Sendable (_ nanoseconds: Int) -> Void = { _ in }
    ) {
        current = PublishedReference(session)
        self.upstream = upstream
        self.logger = logger
        self.failed = failed
        self.encoded = encoded
    }

    /// The session in force: for keyframe requests, bitrate changes and what it reports (read it
    /// each time: a codec switch replaces it).
    public var session: EncoderSession { current.value }

    /// Pictures waiting for the encoder now.
    public var queueDepth: Int { queue.depth }

    /// Fails when a thread hands over a picture with a lock held (debug builds; tests catch it).
    public var handOffCheck: DebugCheck { queue.lockCheck }

    public func start() throws(ThreadStartError) {
        let started = try DedicatedThread(name: Self.threadName) { [self] in run() }
        thread.withLock { $0 = started }
    }

    /// Hands `picture` to the encoder: a copy, so the caller's buffer (a camera's, a source's own
    /// it refills, one the overlay draws on and restores) is the caller's again when this returns.
    /// When the queue is full the picture waits for room or is dropped (`whenFull`); false: it
    /// was dropped, for the caller to count (or the stage has finished).
    public func offer(_ picture: VideoFrame) -> Bool {
        queue.push(.picture(picture.copied()), whenFull: Self.whenFull(for: picture, from: upstream))
    }

    /// Pictures handed over that wait for room in the queue now (0 or 1: one capture thread).
    public var waitingForRoom: Int { queue.waitingPushers }

    /// Makes `replacement` the session from the next picture on: the one in force is flushed
    /// first on the stage's thread, so its last pictures go out before the new one's first.
    /// Returns once the switch is done (or at once if the stage has finished).
    public func replace(with replacement: EncoderSession) {
        let done = StageQueue<Void>(capacity: 1)
        guard queue.push(.replace(replacement, done: done), whenFull: .exceed) else {
            replacement.close()
            return
        }
        _ = done.pop()
    }

    /// Stops taking pictures, encodes the ones waiting, flushes the session and ends the thread.
    /// Call once, after the source stopped; throws what the flush threw.
    public func finish() throws(EncoderError) {
        queue.close()
        let started = thread.withLock { current -> DedicatedThread? in
            defer { current = nil }
            return current
        }
        guard let started else { return }
        started.join()
        try flushResult.withLock { $0 }.get()
    }

    private func run() {
        var session = current.value
        session.confinement.bindToCurrentThread()
        while let input = queue.pop() {
            switch input {
            case .picture(let picture):
                let start = MonotonicTime.now()
                do {
                    try session.encode(picture)
                } catch {
                    failed(error)
                }
                encoded(Int(MonotonicTime.now().nanoseconds(since: start)))
            case .replace(let replacement, let done):
                do {
                    try session.flush()
                } catch {
                    logger.warning("encoder flush before the codec change failed", metadata: ["error": "\(error)"])
                }
                replacement.confinement.bindToCurrentThread()
                current.replace(with: replacement)
                session.close()
                session = replacement
                done.push((), whenFull: .exceed)
            }
        }
        let flushed = Result { () throws(EncoderError) in try session.flush() }
        flushResult.withLock { $0 = flushed }
    }
}
