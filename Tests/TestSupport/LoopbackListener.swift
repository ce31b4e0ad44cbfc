import Foundation

/// A TCP socket on 127.0.0.1 on a port the kernel picked, closed when released.
public final class LoopbackListener: @unchecked Sendable {
    public let port: UInt16
    /// The socket; `accept` on it to talk to a client.
    public let fd: Int32

    /// Binds, and with `listening` takes connections into the backlog: without an `accept` a
    /// client sees a server that completed the TCP handshake and then says nothing.
    /// With `datagram`, a UDP socket instead (never listening): for a port SRT's UDP may take.
    public init(listening: Bool = true, datagram: Bool = false) throws {
        let fd = socket(AF_INET, Int32((datagram ? SOCK_DGRAM : SOCK_STREAM).rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0 && (datagram || !listening || listen(fd, 4) == 0)
            }
        }
        guard ready else {
            let code = errno
            close(fd)
            throw HarnessError("cannot bind a loopback port: errno \(code)")
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }
}

/// A loopback TCP port that was free a moment ago (bound to port 0, then closed): somewhere
/// nothing listens, for a connection that must be refused.
public func freeLoopbackPort() throws -> UInt16 {
    try LoopbackListener(listening: false).port
}

/// A loopback UDP port that was free a moment ago, picked as `freeLoopbackPort` picks a TCP one:
/// for an SRT listener the test starts there.
public func freeLoopbackUDPPort() throws -> UInt16 {
    try LoopbackListener(datagram: true).port
}
