import Foundation
import TestSupport
import Testing

/// A network namespace of the test's own (`ip netns add`), with only a loopback interface: nginx
/// and camcast both run inside it, so its nftables rules and traffic shaping touch nothing else.
/// Deleted (with its rules and qdiscs) in `deinit`.
final class NetworkNamespace {
    let name: String

    init() throws {
        name = "camcast-\(UUID().uuidString.prefix(8).lowercased())"
        try Self.ip(["netns", "add", name])
        try run(["ip", "link", "set", "lo", "up"])
    }

    deinit {
        _ = try? Self.ip(["netns", "delete", name])
        try? FileManager.default.removeItem(atPath: "/etc/netns/\(name)")
    }

    /// Host names that resolve to 127.0.0.1 inside the namespace: `ip netns exec` bind-mounts
    /// /etc/netns/NAME/hosts over /etc/hosts for each command it runs (removed in `deinit`).
    func resolve(_ names: [String]) throws {
        try FileManager.default.createDirectory(atPath: "/etc/netns/\(name)", withIntermediateDirectories: true)
        let hosts = "127.0.0.1 localhost \(names.joined(separator: " "))\n::1 localhost\n"
        try hosts.write(toFile: "/etc/netns/\(name)/hosts", atomically: true, encoding: .utf8)
    }

    /// Put in front of a command line to run it inside the namespace.
    var execPrefix: [String] { ["/usr/sbin/ip", "netns", "exec", name] }

    /// Runs `command` inside the namespace; throws unless it exits 0.
    @discardableResult
    func run(_ command: [String]) throws -> ProcessResult {
        let result = try ProcessRunner.run("/usr/bin/env", execPrefix + command, timeout: 20)
        guard result.status == 0 else {
            throw HarnessError("in netns \(name): \(command.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result
    }

    /// Drops every packet to `port` (client → server direction): a black hole for the connection
    /// (`transport` "udp" for SRT's).
    func blackHole(port: Int, transport: String = "tcp") throws {
        try addInputChain(table: "blackhole")
        try run(["nft", "add", "rule", "inet", "blackhole", "in", transport, "dport", "\(port)", "drop"])
    }

    /// nftables table `table` (inet) with a chain `in` on the input hook, for the rules above and
    /// below (adding an existing one is no error: `loseRandomly` is called once per port).
    func addInputChain(table: String) throws {
        try run(["nft", "add", "table", "inet", table])
        try run(["nft", "add", "chain", "inet", table, "in", "{ type filter hook input priority 0; }"])
    }

    func removeBlackHole() throws {
        try run(["nft", "delete", "table", "inet", "blackhole"])
    }

    /// Drops `percent` % of the packets to and from `port` at random, each packet on its own
    /// (nftables `numgen random`: this kernel has no netem), both ways: the data and what the peer
    /// sends back (acknowledgements, SRT's loss reports). Each rule counts the packets it saw and
    /// those it dropped, for `randomLoss(port:)`. Packets `sparing` matches (an nftables
    /// expression, e.g. `srtHandshake`) go through untouched.
    func loseRandomly(percent: Int, port: Int, transport: String, sparing: [String] = []) throws {
        try addInputChain(table: "loss")
        for direction in ["dport", "sport"] {
            if !sparing.isEmpty {
                try run(["nft", "add", "rule", "inet", "loss", "in", transport, direction, "\(port)"] + sparing + ["counter", "accept"])
            }
            try run(["nft", "add", "rule", "inet", "loss", "in", transport, direction, "\(port)", "counter",
                     "numgen", "random", "mod", "100", "<", "\(percent)", "counter", "drop"])
        }
    }

    /// An SRT handshake packet (the UDP payload's first 16 bits: the control flag and control type
    /// 0, RFC draft-sharabayko-srt §3.2), as an nftables match for `loseRandomly(sparing:)`.
    static let srtHandshake = ["@th,64,16", "0x8000"]

    /// Drops the SRT listener's conclusion responses from `port` (handshake packets whose
    /// handshake type is URQ_CONCLUSION, -1: the word 20 bytes into the handshake's control
    /// information, after SRT's 16-byte header), counted, until `keepSRTConclusionResponses`.
    func dropSRTConclusionResponses(from port: Int) throws {
        try addInputChain(table: "handshake")
        try run(["nft", "add", "rule", "inet", "handshake", "in", "udp", "sport", "\(port)"] + Self.srtHandshake
            + ["@th,352,32", "0xffffffff", "counter", "drop"])
    }

    /// How many conclusion responses `dropSRTConclusionResponses` has dropped so far.
    func droppedSRTConclusionResponses() throws -> Int {
        let listing = try run(["nft", "list", "table", "inet", "handshake"]).stdout
        return listing.firstMatch(of: /counter packets (\d+)/).flatMap { Int($0.1) } ?? 0
    }

    func keepSRTConclusionResponses() throws {
        try run(["nft", "delete", "table", "inet", "handshake"])
    }

    /// What `loseRandomly` did to `port`'s packets so far, by the kernel's counters: packets seen
    /// and dropped, to the port (`to`) and from it (`from`).
    func randomLoss(port: Int) throws -> (to: (seen: Int, dropped: Int), from: (seen: Int, dropped: Int)) {
        let listing = try run(["nft", "list", "table", "inet", "loss"]).stdout.split(separator: "\n")
        func counts(_ direction: String) -> (seen: Int, dropped: Int) {
            guard let line = listing.first(where: { $0.contains("\(direction) \(port) ") && $0.contains("numgen") }) else { return (0, 0) }
            let packets = line.matches(of: /counter packets (\d+)/).compactMap { Int($0.1) }
            return packets.count == 2 ? (packets[0], packets[1]) : (0, 0)
        }
        return (counts("dport"), counts("sport"))
    }

    /// Throttles the namespace's loopback with a token bucket (tc-tbf). The loopback's MTU goes
    /// down to Ethernet's 1500 first: tbf drops every packet larger than its bucket, and TCP
    /// over a 64 KiB loopback MTU sends segments far larger than a 32 kbit (4 KB) burst.
    func throttle(rate: String, burst: String, latency: String) throws {
        try run(["ip", "link", "set", "lo", "mtu", "1500"])
        try run(["tc", "qdisc", "add", "dev", "lo", "root", "tbf", "rate", rate, "burst", burst, "latency", latency])
    }

    /// Throttles only the traffic to `port` (client → server) with the same token bucket as
    /// `throttle`: an htb root (this kernel has no prio qdisc) with two unlimited classes, the
    /// second one chosen by a u32 filter on the destination port and shaped by a tbf leaf;
    /// everything else (other servers, the ACKs back) goes through the first one unshaped.
    func throttle(port: Int, rate: String, burst: String, latency: String) throws {
        try run(["ip", "link", "set", "lo", "mtu", "1500"])
        try run(["tc", "qdisc", "add", "dev", "lo", "root", "handle", "1:", "htb", "default", "10"])
        for minor in ["10", "20"] {
            try run(["tc", "class", "add", "dev", "lo", "parent", "1:", "classid", "1:\(minor)", "htb", "rate", "10gbit"])
        }
        try run(["tc", "qdisc", "add", "dev", "lo", "parent", "1:20", "handle", "20:", "tbf", "rate", rate, "burst", burst,
                 "latency", latency])
        try run(["tc", "filter", "add", "dev", "lo", "parent", "1:", "protocol", "ip", "prio", "1", "u32", "match", "ip",
                 "dport", "\(port)", "0xffff", "flowid", "1:20"])
    }

    /// Lifts `throttle`: the link is free again.
    func removeThrottle() throws {
        try run(["tc", "qdisc", "del", "dev", "lo", "root"])
    }

    private static func ip(_ arguments: [String]) throws {
        let result = try ProcessRunner.run("/usr/sbin/ip", arguments, timeout: 20)
        guard result.status == 0 else { throw HarnessError("ip \(arguments.joined(separator: " ")) failed: \(result.stderr)") }
    }
}

extension Environment {
    /// Network fault tests make a namespace, nftables rules and a tc qdisc: root, iproute2,
    /// nftables and curl (scripts/install-deps), on top of the RTMP server parts.
    static var hasNetworkFaultParts: Bool {
        getuid() == 0 && hasRTMPServerParts
            && ["ip", "nft", "tc", "curl"].allSatisfy { name in
                ["/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + name) }
            }
    }

    static var networkFaultsEnabled: Bool { requireIntegration || hasNetworkFaultParts }
    static let networkFaultsSkipReason: Comment =
        "needs root, iproute2, nftables and curl besides nginx-rtmp (scripts/install-deps); set CAMCAST_TEST_REQUIRE_INTEGRATION=1 to fail instead of skipping"
    static let networkFaultsMissing =
        "network fault tests need root, iproute2 (ip, tc), nftables (nft) and curl: run scripts/install-deps as root"
}
