import Media
#if canImport(Glibc)
import Glibc
#endif

/// Whether an RTMP server answers, without publishing to it: a failover output asks this of an
/// earlier leg's server before it goes back to it (issue 43). A TCP connection is opened and closed
/// at once, before any RTMP byte, so the server records no stream and no publish is displaced.
package enum ServerProbe {
    /// `uplink`: the interface or source address the leg itself leaves by, so the probe takes its path.
    package static func acceptsConnections(host: String, port: UInt16, timeoutSeconds: Double, uplink: Uplink? = nil) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(max(0, timeoutSeconds) * 1000))
        do {
            let connection = try TCPConnector.connect(host: host, port: port, deadline: deadline, lookup: NameLookup(), uplink: uplink)
            _ = Glibc.close(connection.socket)
            return true
        } catch {
            return false
        }
    }
}
