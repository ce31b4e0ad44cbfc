#if canImport(Glibc)
import Glibc
import Media
#endif

/// What another thread may do with a publisher's connection: read its TCP progress, cut it, and
/// cancel a connect still in progress. The publisher thread may be blocked in `send()` inside librtmp; `shutdown(2)` from here
/// wakes that send with an error (the socket stays open until its owner closes it), so a dead
/// peer is left at once instead of after the kernel's own timeouts.
///
/// Owns a duplicate of librtmp's socket descriptor (closed in `detach` and `deinit`): librtmp
/// closes its own descriptor whenever a send fails, and a number it closed may at once be reused
/// by another file, which a `shutdown` must never hit. The duplicate keeps the number ours.
public final class RTMPConnectionWatch: Sendable {
    private struct State {
        var fd: Int32 = -1
        /// The connection's addresses, read at `attach`.
        var addresses: AbandonedConnections.Addresses?
        var abortReason: String?
        /// Set for good by `cancel`: every socket attached afterwards is shut down at once.
        var cancelled = false
        /// The name lookup of the attempt under way, before it has a socket.
        var lookup: NameLookup?
    }

    private let state = Lock(State())

    init() {}

    deinit {
        state.withLock { if $0.fd >= 0 { Glibc.close($0.fd) } }
    }

    /// Starts watching the connection on `socket` (duplicated; the caller keeps its own).
    func attach(socket: Int32) {
        let copy = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        let addresses = AbandonedConnections.addresses(of: socket)
        state.withLock { state in
            if state.fd >= 0 { Glibc.close(state.fd) }
            state.fd = copy
            state.addresses = addresses
            state.abortReason = nil
            if state.cancelled && copy >= 0 { shutdown(copy, Int32(SHUT_RDWR)) }
        }
    }

    /// Watches the attempt's name lookup until `detachLookup`: a cancel ends its wait at once.
    func attach(lookup: NameLookup) {
        state.withLock { state in
            state.lookup = lookup
            if state.cancelled { lookup.cancel() }
        }
    }

    func detachLookup() {
        state.withLock { $0.lookup = nil }
    }

    /// Ends the attempt for good, from any thread: a connect in progress fails at its next read or
    /// write (`RTMPError.Kind.cancelled`), and one not yet started fails before it sends anything.
    /// A server thus never sees a publish the stopping output had not sent yet.
    public func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.lookup?.cancel()
            if state.fd >= 0 { shutdown(state.fd, Int32(SHUT_RDWR)) }
        }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Stops watching: closes the duplicate so that librtmp's close really ends the connection.
    func detach() {
        state.withLock { state in
            if state.fd >= 0 { Glibc.close(state.fd) }
            state.fd = -1
        }
    }

    /// Cuts the connection: the next (or the blocked) send fails, and the publisher reports
    /// `RTMPError.Kind.sendTimeout` with `reason` as its detail. No effect when not connected.
    public func abort(reason: String) {
        state.withLock { state in
            guard state.fd >= 0 else { return }
            if state.abortReason == nil { state.abortReason = reason }
            Self.giveUp(&state)
            shutdown(state.fd, Int32(SHUT_RDWR))
        }
    }

    /// The peer went silent and the connection is given up (`abort`, or a send that timed out):
    /// its close resets it (SO_LINGER 0) and the kernel forgets it at once, rather than keeping
    /// an orphan that retransmits into the dead path. Then whatever the server sends once the
    /// path is back (nginx-rtmp's ping, an acknowledgement) draws a RST at once, and the server
    /// ends the stale publish that would hold the stream name until its own timeout; and the next
    /// connects to the server come from this connection's port (`AbandonedConnections`), so the
    /// server need not send anything for that.
    func abandon() {
        state.withLock { Self.giveUp(&$0) }
    }

    private static func giveUp(_ state: inout State) {
        guard state.fd >= 0 else { return }
        var abortive = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(state.fd, SOL_SOCKET, SO_LINGER, &abortive, socklen_t(MemoryLayout<linger>.size))
        state.addresses.map(AbandonedConnections.remember)
    }

    /// Why `abort` cut the current connection, if it did.
    var abortReason: String? { state.withLock { $0.abortReason } }

    /// The connection's progress now; nil when not connected.
    public func progress() -> TCPProgress? {
        state.withLock { state in state.fd >= 0 ? TCPProgress.read(fd: state.fd) : nil }
    }
}
