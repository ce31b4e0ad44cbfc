#if canImport(Glibc)
import Glibc
#endif

/// The way out a network output is bound to (config `outputs[].interface` or `source_address`):
/// a primary that leaves by eth0 and a backup by wwan0, whatever the routing table prefers.
/// Shared by the config (which checks the text), RTMP's TCP socket and SRT's UDP socket.
public enum Uplink: Sendable, Hashable, CustomStringConvertible {
    /// SO_BINDTODEVICE: packets leave only by this interface (Linux ≥ 5.7 allows it without
    /// CAP_NET_RAW on a socket not bound to a device yet).
    case interface(String)
    /// bind() to this address literal, port 0, before connect: the server sees it as the source.
    case sourceAddress(String)

    public var description: String {
        switch self {
        case .interface(let name): "interface \(name)"
        case .sourceAddress(let address): "source address \(address)"
        }
    }

    /// Why `name` can never name a network interface, or nil: what the kernel refuses in
    /// `dev_valid_name` (empty, IFNAMSIZ − 1 = 15 bytes or more, '/', ':' or white space, "." and "..").
    public static func interfaceNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "has no value (expected a network interface name such as eth0 or wwan0)" }
        if name.utf8.count > Int(IFNAMSIZ) - 1 {
            return "\(quoted(name)) is not an interface name: longer than \(Int(IFNAMSIZ) - 1) bytes"
        }
        if name == "." || name == ".." { return "\(quoted(name)) is not an interface name" }
        if name.contains(where: { $0 == "/" || $0 == ":" || $0.isWhitespace }) {
            return "\(quoted(name)) is not an interface name: no '/', ':' or spaces allowed"
        }
        return nil
    }

    /// Why `text` is not an IPv4 or IPv6 address literal, or nil.
    public static func sourceAddressProblem(_ text: String) -> String? {
        Self.family(ofLiteral: text) == nil
            ? "\(quoted(text)) is not an IP address (expected an IPv4 or IPv6 literal of this machine, such as 192.0.2.10 or 2001:db8::10)"
            : nil
    }

    /// AF_INET or AF_INET6 for a source address (only addresses of that family can be reached from
    /// it); nil for an interface, which carries both.
    public var addressFamily: Int32? {
        guard case .sourceAddress(let text) = self else { return nil }
        return Self.family(ofLiteral: text)
    }

    /// The source address as a sockaddr with port 0, for bind(); nil for an interface.
    public func sourceSocketAddress() -> [UInt8]? {
        guard case .sourceAddress(let text) = self else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr = v4
            return withUnsafeBytes(of: &address) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = v6
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// Why the uplink cannot carry a connection now, in the user's words, or nil: an interface that
    /// is absent, down, or without a link. Waited for like a late camera, not a start failure.
    public func unavailability() -> String? {
        guard case .interface(let name) = self else { return nil }
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard probe >= 0 else { return nil }
        defer { close(probe) }
        var request = ifreq()
        withUnsafeMutableBytes(of: &request.ifr_ifrn.ifrn_name) { raw in
            for (index, byte) in name.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        guard ioctl(probe, UInt(SIOCGIFFLAGS), &request) == 0 else {
            return errno == ENODEV ? "interface \(name) is absent" : nil
        }
        let flags = Int32(request.ifr_ifru.ifru_flags)
        if flags & Int32(IFF_UP) == 0 { return "interface \(name) is down" }
        if flags & Int32(IFF_RUNNING) == 0 { return "interface \(name) has no link" }
        return nil
    }

    private static func family(ofLiteral text: String) -> Int32? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return AF_INET }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return AF_INET6 }
        return nil
    }

    private static func quoted(_ text: String) -> String { "'\(text)'" }
}
