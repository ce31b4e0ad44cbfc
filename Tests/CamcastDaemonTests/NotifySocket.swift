import Foundation

/// A datagram socket bound where systemd's would be, collecting what arrives.
final class NotifySocket: Sendable {
    let address: String
    private let fd: Int32

    /// `@name` binds in the abstract namespace; anything else is a file path.
    init(address: String) throws {
        self.address = address
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var local = sockaddr_un()
        local.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(address.utf8)
        if address.hasPrefix("@") { bytes[0] = 0 } else { unlink(address) }
        withUnsafeMutableBytes(of: &local.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram, or nil after 200 ms without one.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    deinit {
        close(fd)
        if !address.hasPrefix("@") { unlink(address) }
    }
}
