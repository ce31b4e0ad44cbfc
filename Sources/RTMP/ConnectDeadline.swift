import Dispatch
import Media
import Glibc

/// Ends a connection attempt that is still going at its deadline. librtmp's reads time out one at
/// a time (SO_RCVTIMEO), so a server that trickles a byte now and then could hold the handshake
/// or the publish exchange for minutes; at the deadline the socket is shut down and the blocked
/// read fails at once.
final class ConnectDeadline: Sendable {
    /// A duplicate of the attempt's socket, -1 once disarmed. Shutting it down ends the connection
    /// librtmp holds; being our own descriptor, it can never be a number librtmp closed and the
    /// process reused meanwhile.
    private let state: Lock<(socket: Int32, fired: Bool)>

    init(socket: Int32, at deadline: ContinuousClock.Instant) {
        state = Lock((dup(socket), false))
        let nanoseconds = Int(clamping: ContinuousClock.now.duration(to: deadline).clampedNanoseconds)
        // A timer, not a way to wait: the publisher thread blocks in librtmp, not here, and the
        // callback only shuts the socket down. libdispatch's timer needs no thread parked per
        // attempt (a WakeEvent would: one thread sleeping out each connect timeout).
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            state.withLock { state in
                guard state.socket >= 0 else { return }
                state.fired = true
                shutdown(state.socket, Int32(SHUT_RDWR))
            }
        }
    }

    /// Whether the deadline cut the attempt short.
    var fired: Bool { state.withLock { $0.fired } }

    /// The attempt is over: the deadline no longer applies, and the duplicate goes at once (it
    /// would otherwise keep a failed connection open until the deadline).
    func disarm() {
        state.withLock { state in
            guard state.socket >= 0 else { return }
            close(state.socket)
            state.socket = -1
        }
    }

    deinit { disarm() }
}
