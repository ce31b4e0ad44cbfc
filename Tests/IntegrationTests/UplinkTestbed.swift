import Foundation
import TestSupport

/// Two network namespaces of the test's own joined by two veth pairs, for outputs bound to an
/// uplink (issue 43). camcast runs in `client`, the servers in `server`:
///
///     client ua0 10.43.1.1/24 ── ua1 10.43.1.2/24 server
///     client ub0 10.43.2.1/24 ── ub1 10.43.2.2/24 server      server lo: 10.43.9.1 (the servers' address)
///     client ud0 ── ud1 client: up, with no address and no path anywhere
///
/// The client's routing table prefers path B to 10.43.9.1 (metric 10) over path A (metric 20), so
/// a connection that leaves by A (or from A's address) does so because it was bound, not routed.
/// Reverse-path filtering is off in both: a reply may come back by the other path.
final class UplinkTestbed {
    let client: NetworkNamespace
    let server: NetworkNamespace
    static let serverAddress = "10.43.9.1"
    static let addressA = "10.43.1.1"
    static let addressB = "10.43.2.1"

    init() throws {
        client = try NetworkNamespace()
        server = try NetworkNamespace()
        for namespace in [client, server] {
            try namespace.run(["sysctl", "-q", "-w", "net.ipv4.conf.all.rp_filter=0", "net.ipv4.conf.default.rp_filter=0"])
        }
        try server.run(["ip", "address", "add", "\(Self.serverAddress)/32", "dev", "lo"])
        try link("ua", subnet: "10.43.1")
        try link("ub", subnet: "10.43.2")
        try client.run(["ip", "route", "add", "\(Self.serverAddress)/32", "via", "10.43.2.2", "dev", "ub0", "metric", "10"])
        try client.run(["ip", "route", "add", "\(Self.serverAddress)/32", "via", "10.43.1.2", "dev", "ua0", "metric", "20"])
        // No dummy driver on every kernel: a veth pair with both ends in the client is a link too.
        try client.run(["ip", "link", "add", "ud0", "type", "veth", "peer", "name", "ud1"])
        for name in ["ud0", "ud1"] { try client.run(["ip", "link", "set", name, "up"]) }
    }

    /// A veth pair `<prefix>0` (client, `<subnet>.1`) and `<prefix>1` (server, `<subnet>.2`).
    /// `up: false` leaves the client's end down (the server's is up).
    func link(_ prefix: String, subnet: String, up: Bool = true) throws {
        try client.run(["ip", "link", "add", "\(prefix)0", "type", "veth", "peer", "name", "\(prefix)1", "netns", server.name])
        try client.run(["ip", "address", "add", "\(subnet).1/24", "dev", "\(prefix)0"])
        try server.run(["ip", "address", "add", "\(subnet).2/24", "dev", "\(prefix)1"])
        try server.run(["ip", "link", "set", "\(prefix)1", "up"])
        if up { try client.run(["ip", "link", "set", "\(prefix)0", "up"]) }
    }

    /// Counts, in the client, the bytes sent to `port` (TCP or UDP) by each of `interfaces`
    /// (nftables counters: the kernel's count, not camcast's).
    func countTraffic(to port: Int, on interfaces: [String]) throws {
        try client.run(["nft", "add", "table", "inet", "uplink"])
        try client.run(["nft", "add", "chain", "inet", "uplink", "out", "{ type filter hook output priority 0; }"])
        for name in interfaces {
            try client.run(["nft", "add", "rule", "inet", "uplink", "out", "oifname", "\"\(name)\"", "meta", "l4proto", "{ tcp, udp }",
                            "th", "dport", "\(port)", "counter"])
        }
    }

    /// Bytes counted so far per interface, by `countTraffic`.
    func sentBytes() throws -> [String: Int] {
        let listing = try client.run(["nft", "list", "table", "inet", "uplink"]).stdout
        var bytes: [String: Int] = [:]
        for line in listing.split(separator: "\n") {
            guard let name = line.firstMatch(of: /oifname "([^"]+)"/)?.1, let count = line.firstMatch(of: /bytes (\d+)/)?.1 else { continue }
            bytes[String(name)] = Int(count)
        }
        return bytes
    }

    /// The peer addresses of the TCP connections established to `port` in the server namespace (ss).
    func peers(ofPort port: Int) throws -> [String] {
        let listing = try server.run(["ss", "-Htn", "state", "established", "( sport = :\(port) )"]).stdout
        return listing.split(separator: "\n").compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).last.map { String($0.prefix { $0 != ":" }) }
        }
    }

    /// `camcast` inside the client namespace.
    func camcast(_ arguments: [String]) -> [String] {
        client.execPrefix + [Project.camcastBinary.path] + arguments
    }

    /// A config for one RTMP output to `url` with `binding` (`interface: ua0`) under it.
    static func config(in dir: URL, url: String, binding: String, http: Int? = nil) throws -> URL {
        let file = dir.appendingPathComponent("camcast-\(UUID().uuidString.prefix(6)).yaml")
        try """
            source:
              type: testpattern
              size: 320x180
            encoder:
              bitrate_kbps: 400
              keyframe_interval_seconds: 1
            outputs:
              - url: \(url)
            \(binding.isEmpty ? "" : "    " + binding)
            network:
              connect_timeout_seconds: 1
            reconnect:
              initial_delay_seconds: 0.5
            http:
              listen: "\(http.map { "127.0.0.1:\($0)" } ?? "")"
            """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
