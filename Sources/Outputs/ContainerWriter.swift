import Logging
import Media
import Synchronization

/// The one shape of Camcast's file outputs: a thread of its own that opens and owns the file
/// (`ContainerFile`), fed by a queue bounded in media time. The capture thread only pushes, and
/// no lock is held across `open(2)` or `write(2)`, so a slow, full or hung disk (a dead NFS
/// server) never holds up the encoder, the other outputs, the status snapshot, a start, a stop or
/// a reload.
///
/// On overflow the queue drops up to the next keyframe and asks the encoder for one, as an RTMP
/// output's does (`SendQueue`). While the file is still opening the queue keeps nothing (and
/// asks for nothing): the file starts at the first keyframe after it opened. A stop waits for
/// the thread a bounded time; a thread still inside an open or a write after that is abandoned
/// (detached, with a log line) and closes its file when the call returns.
package final class ContainerWriter: Sendable {
    /// How much media a file output may hold while its disk is slow: ten seconds.
    package static let fileQueueMilliseconds: Int64 = 10_000
    /// What a stop waits beyond its drain time for the file's last write and close.
    static let closeGraceSeconds = 2.0
    /// How long `start` waits for the open: a path that fails at once fails the start (or the
    /// reload) with its own error; one still opening after this goes on in the background.
    package static let openPatienceSeconds = 2.0

    /// The writer's life. Only `stop` enters `.abandoned`; the thread moves on only by
    /// compare-exchange, so it never undoes that.
    enum Phase: UInt8, AtomicRepresentable {
        /// The thread is creating the file (it may hang there on a dead mount).
        case opening
        case writing
        /// The open or a write failed: this output writes nothing more.
        case failed
        /// A stop stopped waiting: the thread writes nothing more and closes the file when its
        /// call returns.
        case abandoned
    }

    /// What `start` found within its patience.
    package enum Start: Sendable, Equatable {
        case opened
        /// The file did not open yet (a hung folder): the writer opens it when the path answers.
        case stillOpening
    }

    let queue: SendQueue
    private let name: String
    private let logger: Logger
    private let requestKeyframe: @Sendable () -> Void
    /// The writer thread and the event it signals when it has ended the file (made by `start`).
    private let thread = Lock<(thread: DedicatedThread, done: WakeEvent)?>(nil)
    /// How the thread ends the file once the queue is closed and drained.
    private let ending = Lock<ContainerEnding>(.abandon)
    private let phase = Atomic<Phase>(.opening)
    /// Pictures written to the file.
    package let sentFrames = Atomic<Int>(0)

    /// `name`: the output as logs show it.
    package init(name: String, maxSpanMilliseconds: Int64 = fileQueueMilliseconds, logger: Logger, requestKeyframe: @escaping @Sendable () -> Void) {
        self.name = name
        self.logger = logger
        self.requestKeyframe = requestKeyframe
        queue = SendQueue(maxSpanMilliseconds: maxSpanMilliseconds, requestKeyframe: requestKeyframe)
    }

    /// Starts the thread, which opens the file with `open` and owns it from then on, and waits
    /// up to `openPatienceSeconds` for the open. An open that failed by then throws its error; one
    /// that has not returned yet goes on in the thread (`.stillOpening`, after `onDelay`, which
    /// must be short and do no I/O): `onOpened` follows when it returns, or `onFailure` if it
    /// fails. A write failure also goes to `onFailure` (once) and ends the writes; the file is
    /// still ended when the writer stops.
    package func start<File: ContainerFile>(
        patienceSeconds: Double = openPatienceSeconds,
        opening open: @escaping @Sendable () throws(OutputFailure) -> File,
        onDelay: () -> Void = {},
        onOpened: @escaping @Sendable (File) -> Void,
        onFailure: @escaping @Sendable (OutputFailure) -> Void
    ) throws(OutputFailure) -> Start {
        let opening = Handoff<Result<Void, OutputFailure>>()
        // Nothing waits for a file that is not open: no frames held, no keyframes asked for.
        queue.suspend()
        let started: DedicatedThread
        let done: WakeEvent
        do {
            done = try WakeEvent()
            started = try DedicatedThread(name: Self.threadName) { [self] in
                defer { done.signal() }
                guard let file = self.open(open, opening: opening, onOpened: onOpened, onFailure: onFailure) else { return }
                while let packet = queue.pop() {
                    let now = phase.load(ordering: .acquiring)
                    if now == .abandoned { break }
                    guard now == .writing else { continue }
                    do throws(OutputFailure) {
                        if try file.write(packet) { sentFrames.add(1, ordering: .relaxed) }
                    } catch {
                        if phase.compareExchange(expected: .writing, desired: .failed, ordering: .acquiringAndReleasing).exchanged {
                            onFailure(error)
                        }
                    }
                }
                file.end(phase.load(ordering: .acquiring) == .abandoned ? .abandon : ending.withLock { $0 })
            }
        } catch {
            // eventfd or pthread_create refused (out of descriptors or threads), in the system's words.
            throw OutputFailure(output: name, reason: "\(error)")
        }
        thread.withLock { $0 = (started, done) }
        switch opening.value(within: patienceSeconds, leaving: onDelay) {
        case .success: return .opened
        case .failure(let failure):
            // The thread has ended (or is just ending): nothing is left for a stop.
            thread.withLock { $0 = nil }
            started.join()
            throw failure
        case nil: return .stillOpening
        }
    }

    /// On the thread: opens the file and tells whoever waits. Nil if there is nothing to write to
    /// (the open failed, or a stop gave up on it meanwhile and the file is closed again).
    private func open<File: ContainerFile>(
        _ open: @Sendable () throws(OutputFailure) -> File, opening: Handoff<Result<Void, OutputFailure>>,
        onOpened: @Sendable (File) -> Void, onFailure: @Sendable (OutputFailure) -> Void
    ) -> File? {
        let file: File
        do {
            file = try open()
            // From here on the file is this thread's alone (debug builds check each call).
            file.confinement.bindToCurrentThread()
        } catch {
            let failed = phase.compareExchange(expected: .opening, desired: .failed, ordering: .acquiringAndReleasing).exchanged
            if !opening.hand(.failure(error)) && failed { onFailure(error) }
            return nil
        }
        guard phase.compareExchange(expected: .opening, desired: .writing, ordering: .acquiringAndReleasing).exchanged else {
            file.end(.abandon)
            _ = opening.hand(.success(()))
            return nil
        }
        queue.resume()
        // Settled first: a caller that left has marked the delay by now, and `onOpened` comes after.
        let late = !opening.hand(.success(()))
        onOpened(file)
        // A reload or a start went on without it: the file starts at the next picture.
        if late { requestKeyframe() }
        return file
    }

    package func push(_ packet: MediaPacket) {
        queue.push(packet)
    }

    /// Packets waiting for the thread, and pictures dropped because it fell behind: for the status line.
    package var queuedPackets: Int { queue.count }
    package var droppedFrames: Int { queue.droppedFrames.load(ordering: .relaxed) }
    /// The kernel name of the thread that writes (every file output's).
    package static let threadName = "writer"
    package var queuedMilliseconds: Int { Int(queue.spanMilliseconds) }
    package var queueBoundMilliseconds: Int { Int(queue.boundMilliseconds) }
    /// True once the open or a write failed (the output has ended).
    package var hasFailed: Bool { phase.load(ordering: .relaxed) == .failed }

    /// Lets the thread write what is queued and end the file as `ending` says, waiting up to
    /// `drainSeconds` (none while the file is still opening) plus a grace for the last write and
    /// close. A thread still blocked after that (in a write, or still in the open) is left to end
    /// by itself: it writes nothing more and closes the file when its call returns. True if the
    /// thread ended in time (also when it never started).
    @discardableResult
    package func stop(_ ending: ContainerEnding, drainSeconds: Double) -> Bool {
        self.ending.withLock { $0 = ending }
        queue.close()
        guard let (started, done) = thread.withLock({ current -> (DedicatedThread, WakeEvent)? in
            defer { current = nil }
            return current
        }) else { return true }
        // A file still opening has nothing queued to drain (its queue keeps nothing): the grace
        // alone is left for an open that was merely slow to end its file properly.
        let drain = phase.load(ordering: .acquiring) == .opening ? 0 : max(0, drainSeconds)
        let bound = drain + Self.closeGraceSeconds
        if done.wait(until: MonotonicTime.now().adding(nanoseconds: UInt64(bound * 1e9))) {
            started.join()
            return true
        }
        let was = phase.exchange(.abandoned, ordering: .acquiringAndReleasing)
        queue.discardAll()
        started.detach()
        logger.error(
            was == .opening
                ? "the file did not open in time (a hung disk or mount?); the writer is left behind and closes the file if its open returns"
                : "file writes did not finish in time (a hung disk?); the writer is left behind and closes the file when its write returns",
            metadata: ["output": "\(name)", "waited_seconds": "\(bound)"])
        return false
    }
}
