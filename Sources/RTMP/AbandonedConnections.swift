#if canImport(Glibc)
import Glibc
import Media
#endif

/// The local address and port of each connection Camcast gave up as dead (`RTMPConnectionWatch
/// .abandon`), by the server address it was connected to: the next connects to that server are
/// made from the same port.
///
/// Why: the server still holds the dead connection (nothing crossed the dead path), and with it
/// the stream name ("already publishing"), until it sends on it and draws a RST or times it out
/// (nginx-rtmp pings a silent publisher only 1–2 min after its last data). A SYN from the same
/// address and port reaches that very connection: the server answers with a challenge ACK
/// (RFC 5961 §4), Camcast's kernel, which has no such connection any more, answers that with a
/// RST the server must accept, and the server ends the stale session the moment the path is
/// back. The kernel sends the SYN again a second later, and the new connection is made.
enum AbandonedConnections {
    /// How long a dead connection's port is reused: as long as servers hold a stale publish.
    static let reuseSeconds = 120

    private struct Entry {
        var local: [UInt8]
        var abandonedAt: ContinuousClock.Instant
    }

    private static let table = Lock<[[UInt8]: Entry]>([:])

    /// The local and remote address of connected socket `fd` (read while it is connected: after
    /// the kernel's own timeout it has none).
    static func addresses(of fd: Int32) -> Addresses? {
        guard let local = address(of: fd, peer: false), let remote = address(of: fd, peer: true) else { return nil }
        return Addresses(local: local, remote: remote)
    }

    struct Addresses: Sendable {
        fileprivate let local: [UInt8]
        fileprivate let remote: [UInt8]
    }

    /// Remembers a connection that is being given up.
    static func remember(_ addresses: Addresses) {
        let (local, remote) = (addresses.local, addresses.remote)
        table.withLock { table in
            table = table.filter { ContinuousClock.now - $0.value.abandonedAt < .seconds(reuseSeconds) }
            table[remote] = Entry(local: local, abandonedAt: .now)
        }
    }

    /// Binds `fd` (not yet connected) to the local address of the connection abandoned to
    /// `remote`, if there is one still fresh. Best effort: when the port is taken, the kernel picks one.
    /// `onlyFrom`: a source address the output is bound to (a sockaddr with port 0): the old port is
    /// reused only if the old connection came from it (a reload may have changed it). True if `fd` is bound now.
    @discardableResult
    static func bindForReconnect(_ fd: Int32, to remote: UnsafePointer<sockaddr>, length: socklen_t, onlyFrom source: [UInt8]? = nil) -> Bool {
        let key = Array(UnsafeRawBufferPointer(start: remote, count: Int(length)))
        guard let entry = table.withLock({ $0[key] }), ContinuousClock.now - entry.abandonedAt < .seconds(reuseSeconds) else { return false }
        if let source {
            var local = entry.local
            if local.count >= 4 { local.replaceSubrange(2..<4, with: [0, 0]) }  // the port: sin_port and sin6_port alike
            guard local == source else { return false }
        }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        return entry.local.withUnsafeBytes { bind(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count)) } == 0
    }

    /// A connection to `remote` was made: the server has let the old one go.
    static func forget(_ remote: UnsafePointer<sockaddr>, length: socklen_t) {
        let key = Array(UnsafeRawBufferPointer(start: remote, count: Int(length)))
        _ = table.withLock { $0.removeValue(forKey: key) }
    }

    private static func address(of fd: Int32, peer: Bool) -> [UInt8]? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard rc == 0 else { return nil }
        return withUnsafeBytes(of: &storage) { Array($0.prefix(Int(length))) }
    }
}
