import Glibc

/// A loopback TCP port that was free a moment ago (bound to port 0, then closed): somewhere
/// nothing listens, for a connection that must be refused.
func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw LoopbackPortError(call: "socket", errno: errno) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw LoopbackPortError(call: "bind", errno: errno) }
    return UInt16(bigEndian: address.sin_port)
}

struct LoopbackPortError: Error, CustomStringConvertible {
    var call: String
    var errno: Int32
    var description: String { "\(call)() for a free loopback port failed: errno \(errno)" }
}
