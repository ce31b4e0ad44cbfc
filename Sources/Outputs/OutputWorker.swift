import Dispatch
import Media
import Synchronization

/// A thread of its own and a queue bounded in media time, for an output whose writes may block
/// (a file on a slow or full disk): the capture thread only pushes, so a stuck write never holds
/// up the encoder or the other outputs. On overflow the queue drops up to the next keyframe and
/// asks the encoder for one, as an RTMP output's does (`SendQueue`).
package final class OutputWorker: Sendable {
    /// How much media a file output may hold while its disk is slow: ten seconds.
    package static let fileQueueMilliseconds: Int64 = 10_000

    let queue: SendQueue
    private let thread = Mutex<DedicatedThread?>(nil)
    private let done = DispatchSemaphore(value: 0)

    package init(maxSpanMilliseconds: Int64, requestKeyframe: @escaping @Sendable () -> Void) {
        queue = SendQueue(maxSpanMilliseconds: maxSpanMilliseconds, requestKeyframe: requestKeyframe)
    }

    /// Starts the thread; it hands every packet to `body`, in order, until `stop`.
    package func start(_ body: @escaping @Sendable (MediaPacket) -> Void) throws(ThreadStartError) {
        let queue = self.queue
        let done = self.done
        let started = try DedicatedThread {
            while let packet = queue.pop() { body(packet) }
            done.signal()
        }
        thread.withLock { $0 = started }
    }

    package func push(_ packet: MediaPacket) {
        queue.push(packet)
    }

    /// Packets waiting for the thread, and pictures dropped because it fell behind: for the status line.
    package var queuedPackets: Int { queue.count }
    package var droppedFrames: Int { queue.droppedFrames.load(ordering: .relaxed) }

    /// Lets the thread write what is queued, for up to `drainSeconds` (plus a moment), then
    /// returns; a thread still blocked in a write after that is left to end by itself. True if
    /// the thread ended.
    @discardableResult
    package func stop(drainSeconds: Double) -> Bool {
        queue.close()
        guard let started = thread.withLock({ current -> DedicatedThread? in
            defer { current = nil }
            return current
        }) else { return true }
        let bound = max(0, drainSeconds) + 2
        if done.wait(timeout: .now() + .milliseconds(Int(bound * 1000))) == .success {
            started.join()
            return true
        }
        queue.discardAll()
        started.detach()
        return false
    }
}
