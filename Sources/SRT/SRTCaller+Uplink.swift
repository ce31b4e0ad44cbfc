internal import CSRT
import Media

#if canImport(Glibc)
import Glibc
#endif

/// Binding the caller's socket to the output's uplink (`outputs[].interface` / `source_address`).
extension SRTCaller {
    /// Only the addresses a socket bound to `uplink` can reach: an interface binding (libsrt 1.5
    /// forwards it for IPv4 only) and a source address keep their own family.
    static func reachable(_ addresses: [[UInt8]], host: String, from uplink: Uplink?) throws(SRTError) -> [[UInt8]] {
        guard let uplink else { return addresses }
        let family = uplink.addressFamily ?? AF_INET
        let kept = addresses.filter { bytes in bytes.withUnsafeBytes { Int32($0.load(as: sa_family_t.self)) } == family }
        guard kept.isEmpty else { return kept }
        throw SRTError(.nameLookup, detail: "\(host) has no \(family == AF_INET6 ? "IPv6" : "IPv4") address to reach from \(uplink)")
    }

    /// SRTO_BINDTODEVICE or srt_bind before the connect. An address not (yet) on this machine, or an
    /// interface gone since `unavailability` looked, is `.uplinkUnavailable`: waited for, retried.
    func bind(_ id: Int32, to uplink: Uplink?) throws(SRTError) {
        switch uplink {
        case nil:
            return
        case .interface(let name):
            guard csrt_bind_to_device(id, name) == 0 else { throw SRTError(.setup, detail: "\(uplink!): \(Self.lastErrorText())") }
        case .sourceAddress(let text):
            guard let address = uplink?.sourceSocketAddress() else { return }
            let rc = address.withUnsafeBytes { srt_bind(id, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), Int32($0.count)) }
            guard rc == 0 else {
                var code: Int32 = 0
                _ = srt_getlasterror(&code)
                if code == EADDRNOTAVAIL { throw SRTError(.uplinkUnavailable, detail: "source address \(text) is not on this machine") }
                throw SRTError(.setup, detail: "\(uplink!): \(Self.lastErrorText())")
            }
        }
    }

    static func lastErrorText() -> String { String(cString: srt_getlasterror_str()) }
}
