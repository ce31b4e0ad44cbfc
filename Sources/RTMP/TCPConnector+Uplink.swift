import Media
#if canImport(Glibc)
import Glibc
#endif

/// Binding the TCP socket to the output's uplink (`outputs[].interface` / `source_address`).
extension TCPConnector {
    /// Only the addresses a socket bound to `uplink` can reach: those of the source address's family.
    /// None left is a failure in words ("has no IPv6 address"), like a name that did not resolve.
    static func reachable(_ addresses: [NameLookup.Address], host: String, from uplink: Uplink?) throws(Failure) -> [NameLookup.Address] {
        guard let family = uplink?.addressFamily else { return addresses }
        let kept = addresses.filter { $0.family == family }
        guard kept.isEmpty else { return kept }
        let version = family == AF_INET6 ? "IPv6" : "IPv4"
        throw .dns(message: "\(host) has no \(version) address to reach from \(uplink!)")
    }

    /// Binds `fd` (not connected) to `uplink` before the connect. `alreadyBound`: the socket has its
    /// local address already (a reconnect from an abandoned connection's port, which was bound the
    /// same way). An interface that is absent, or an address not (yet) on this machine, is
    /// `.uplinkUnavailable`: waited for, not a failure of the output.
    static func bind(_ fd: Int32, to uplink: Uplink?, alreadyBound: Bool) throws(Failure) {
        switch uplink {
        case nil:
            return
        case .interface(let name):
            let rc = name.withCString { setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, $0, socklen_t(name.utf8.count)) }
            guard rc == 0 else {
                let code = errno
                throw code == ENODEV ? .uplinkUnavailable(reason: "interface \(name) is absent") : .failed(errno: code)
            }
        case .sourceAddress(let text):
            guard !alreadyBound, let address = uplink?.sourceSocketAddress() else { return }
            let rc = address.withUnsafeBytes { Glibc.bind(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count)) }
            guard rc == 0 else {
                let code = errno
                throw code == EADDRNOTAVAIL ? .uplinkUnavailable(reason: "source address \(text) is not on this machine") : .failed(errno: code)
            }
        }
    }
}
