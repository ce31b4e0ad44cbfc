import NIOPosix
import Synchronization

/// How many turns the endpoint's event loop has finished. A turn waits once for I/O, handles what
/// is ready (the listener's accepts, the connections' reads) and runs the tasks due. A connection
/// accepted in turn n has its first chance to be read in turn n + 1 (it is added to the poller in
/// turn n), so `ConnectionTable` knows from this count whether a connection's request, already
/// sent, may merely be waiting for the loop to read it.
///
/// The loop's metrics delegate: NIO calls it on the loop's own thread after every turn.
final class EventLoopTurns: NIOEventLoopMetricsDelegate {
    private let count = Atomic<Int>(0)

    /// Turns finished so far; read on the loop's thread, as the table does.
    var finished: Int { count.load(ordering: .relaxed) }

    func turnFinished() {
        count.add(1, ordering: .relaxed)
    }

    func processedTick(info: NIOEventLoopTickInfo) {
        turnFinished()
    }
}
