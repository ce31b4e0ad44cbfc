import Logging
import Media
import Synchronization

/// The one shape of Camcast's file outputs: a thread of its own that owns the open file
/// (`ContainerFile`), fed by a queue bounded in media time. The capture thread only pushes, and
/// no lock is held across `write(2)`, so a slow, full or hung disk (a dead NFS server) never
/// holds up the encoder, the other outputs, the status snapshot, a stop or a reload.
///
/// On overflow the queue drops up to the next keyframe and asks the encoder for one, as an RTMP
/// output's does (`SendQueue`). A stop waits for the thread a bounded time; a thread still
/// inside a write after that is abandoned (detached, with a log line) and closes its file when
/// the write returns.
package final class ContainerWriter: Sendable {
    /// How much media a file output may hold while its disk is slow: ten seconds.
    package static let fileQueueMilliseconds: Int64 = 10_000
    /// What a stop waits beyond its drain time for the file's last write and close.
    static let closeGraceSeconds = 2.0

    let queue: SendQueue
    private let name: String
    private let logger: Logger
    private let thread = Lock<DedicatedThread?>(nil)
    /// How the thread ends the file once the queue is closed and drained.
    private let ending = Lock<ContainerEnding>(.abandon)
    /// Set when a stop stopped waiting: the thread writes nothing more.
    private let abandoned = Atomic<Bool>(false)
    private let failed = Atomic<Bool>(false)
    /// Raised by the thread when it has ended the file.
    private let done = WakeSignal()
    /// Pictures written to the file.
    package let sentFrames = Atomic<Int>(0)

    /// `name`: the output as logs show it.
    package init(name: String, maxSpanMilliseconds: Int64 = fileQueueMilliseconds, logger: Logger, requestKeyframe: @escaping @Sendable () -> Void) {
        self.name = name
        self.logger = logger
        queue = SendQueue(maxSpanMilliseconds: maxSpanMilliseconds, requestKeyframe: requestKeyframe)
    }

    /// Starts the thread, which owns `file` from now on. A write failure goes to `onFailure`
    /// (once) and ends the writes; the file is still ended when the writer stops.
    package func start(_ file: some ContainerFile, onFailure: @escaping @Sendable (OutputFailure) -> Void) throws(ThreadStartError) {
        let started = try DedicatedThread { [self] in
            while let packet = queue.pop() {
                if abandoned.load(ordering: .acquiring) { break }
                guard !failed.load(ordering: .relaxed) else { continue }
                do throws(OutputFailure) {
                    if try file.write(packet) { sentFrames.add(1, ordering: .relaxed) }
                } catch {
                    failed.store(true, ordering: .relaxed)
                    onFailure(error)
                }
            }
            file.end(abandoned.load(ordering: .acquiring) ? .abandon : ending.withLock { $0 })
            done.raise()
        }
        thread.withLock { $0 = started }
    }

    package func push(_ packet: MediaPacket) {
        queue.push(packet)
    }

    /// Packets waiting for the thread, and pictures dropped because it fell behind: for the status line.
    package var queuedPackets: Int { queue.count }
    package var droppedFrames: Int { queue.droppedFrames.load(ordering: .relaxed) }
    package var queuedMilliseconds: Int { Int(queue.spanMilliseconds) }
    /// True once a write failed (the output has ended).
    package var hasFailed: Bool { failed.load(ordering: .relaxed) }

    /// Lets the thread write what is queued and end the file as `ending` says, waiting up to
    /// `drainSeconds` plus a grace for the last write and close. A thread still blocked after
    /// that is left to end by itself: it writes nothing more and closes the file when its write
    /// returns. True if the thread ended in time (also when it never started).
    @discardableResult
    package func stop(_ ending: ContainerEnding, drainSeconds: Double) -> Bool {
        self.ending.withLock { $0 = ending }
        queue.close()
        guard let started = thread.withLock({ current -> DedicatedThread? in
            defer { current = nil }
            return current
        }) else { return true }
        let bound = max(0, drainSeconds) + Self.closeGraceSeconds
        if done.wait(until: MonotonicTime.now().adding(nanoseconds: UInt64(bound * 1e9))) {
            started.join()
            return true
        }
        abandoned.store(true, ordering: .releasing)
        queue.discardAll()
        started.detach()
        logger.error(
            "file writes did not finish in time (a hung disk?); the writer is left behind and closes the file when its write returns",
            metadata: ["output": "\(name)", "waited_seconds": "\(bound)"])
        return false
    }
}
