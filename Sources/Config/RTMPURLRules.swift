/// What `outputs[].url` must look like for librtmp to publish to it:
/// `rtmp://host[:port]/app[/instance]/key` (librtmp 2.4's `RTMP_ParseURL` splits it this way; the
/// last element becomes the play path, i.e. the stream key).
///
/// Every message shows the URL redacted, never as written.
enum RTMPURLRules {
    /// librtmp knows these publishing schemes; `rtmps` is RTMP over TLS (GnuTLS in Debian's build).
    static let schemes = ["rtmp", "rtmps"]
    static let expectedForm = "rtmp://host[:port]/app/key"

    /// Every reason `url` cannot be published to; empty when it is fine.
    static func problems(in url: String) -> [String] {
        let shown = "`\(StreamKeyRedaction.redact(url))`"
        if url.isEmpty { return ["is empty (expected \(expectedForm))"] }
        if url.contains(where: \.isWhitespace) {
            return ["\(shown) contains spaces; write a plain \(expectedForm) URL (librtmp options are not supported)"]
        }
        guard let separator = url.range(of: "://") else {
            return ["\(shown) is not an RTMP URL (expected \(expectedForm))"]
        }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard schemes.contains(scheme) else {
            return ["\(shown) has scheme `\(scheme)`; only rtmp:// and rtmps:// can be published to"]
        }

        var reasons: [String] = []
        var rest = url[separator.upperBound...]
        if let mark = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<mark] }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let path = rest[slash...].split(separator: "/")

        if authority.hasPrefix("[") {
            reasons.append("\(shown) uses an IPv6 address; librtmp 2.4 connects over IPv4 only")
        } else {
            let hostAndPort = authority.split(separator: ":", omittingEmptySubsequences: false)
            let host = hostAndPort[0]
            if host.isEmpty {
                reasons.append("\(shown) has no host (expected \(expectedForm))")
            } else if !host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) {
                reasons.append("\(shown) has an invalid host name")
            }
            if hostAndPort.count > 2 {
                reasons.append("\(shown) has an invalid port")
            } else if hostAndPort.count == 2 {
                let port = Int(hostAndPort[1])
                if port == nil || !(1...65535).contains(port!) {
                    reasons.append("\(shown) has port `\(hostAndPort[1])`; a port is 1…65535")
                }
            }
        }
        switch path.count {
        case 0:
            reasons.append("\(shown) has no application and no stream key (expected \(expectedForm))")
        case 1:
            reasons.append("\(shown) has only one path element; expected an application and a stream key (\(expectedForm))")
        default:
            break
        }
        return reasons
    }
}
