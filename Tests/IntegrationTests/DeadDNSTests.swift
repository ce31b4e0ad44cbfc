import Foundation
import TestSupport
import Testing

/// Issue 26 defect 4: the name lookup used to run before the connect deadline started and could
/// not be cancelled, so a DNS server that never answers held an attempt for glibc's own retries
/// (5 s × 2 attempts here) past `--connect-timeout`, and a stop had to leave the publisher
/// thread behind inside it.
///
/// camcast runs in a namespace of the test's own whose resolv.conf names a server at a port
/// where nftables drops every query: no answer, no ICMP error, as with a dead DNS server.
@Suite(.serialized, .enabled(if: Environment.networkFaultsEnabled, Environment.networkFaultsSkipReason))
struct DeadDNSTests {
    static let streamKey = "dEaD-dNs-kEy-4711"
    static let url = "rtmp://ingest.camcast-test.example/live/\(streamKey)"
    static let video = ["--source", "testpattern", "--size", "320x180", "--fps", "15"]

    static func deadDNSNamespace() throws -> NetworkNamespace {
        let namespace = try NetworkNamespace()
        try namespace.dropDNS()
        return namespace
    }

    @Test(.timeLimit(.minutes(1)))
    func theLookupCountsAgainstTheConnectTimeout() throws {
        let namespace = try Self.deadDNSNamespace()
        let command = namespace.execPrefix + [Project.camcastBinary.path, "run"] + Self.video
            + ["--no-reconnect", "--connect-timeout", "2", "--output", Self.url]
        let result = try ProcessRunner.run(command[0], Array(command.dropFirst()), timeout: 40)
        #expect(result.status != 0 && result.status != 143, "must fail by itself: status \(result.status), \(result.stderr)")
        // 2 s, and not glibc's 10 s of retries: nearer the one than the other (midway, 6 s), whatever
        // the process's own start and stop cost on this machine.
        #expect(result.seconds >= 1.9 && result.seconds < 6, "exited after \(result.seconds) s: \(result.stderr)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("camcast: error:") }
        let error = errors.first.map(String.init) ?? ""
        #expect(error.contains("rtmp://ingest.camcast-test.example:1935/live/****") && error.contains("timed out"), "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey) && !result.stdout.contains(Self.streamKey), "the stream key leaked")
    }

    @Test(.timeLimit(.minutes(1)))
    func aStopDoesNotWaitForTheLookup() throws {
        let namespace = try Self.deadDNSNamespace()
        // A long connect timeout: only the stop can end this attempt early.
        let command = namespace.execPrefix + [Project.camcastBinary.path, "run"] + Self.video
            + ["--connect-timeout", "30", "--output", Self.url]
        let process = try ProcessRunner.start(command[0], Array(command.dropFirst()))
        try #require(process.waitForLog("ready", timeout: 20), "\(process.stderrSoFar)")
        // The first attempt is now inside the lookup, which glibc would hold for 10 s.
        let stopped = Date()
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 30)
        let seconds = Date().timeIntervalSince(stopped)
        #expect(result.status == 0, "\(result.stderr)")
        // A stop that waited for the lookup would end with glibc's 10 s hold, nearly all of it still
        // to come (the signal follows `ready` at once): under 6 s is nearer an immediate stop than
        // that, leaving the stop's own work (the flush, the outputs' ends) room on a slow machine.
        #expect(seconds < 6, "the stop took \(seconds) s: \(result.stderr)")
        // The stop cancelled the lookup and the publisher thread ended, rather than being left
        // behind inside it.
        #expect(!result.stderr.contains("leaving it to close by itself"), "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey))
    }
}

extension NetworkNamespace {
    /// The namespace's resolver asks 127.0.0.1:53, where every query is dropped: no answer ever
    /// comes. `ip netns exec` bind-mounts /etc/netns/NAME/resolv.conf over /etc/resolv.conf
    /// (removed in `deinit` with the directory).
    func dropDNS() throws {
        try FileManager.default.createDirectory(atPath: "/etc/netns/\(name)", withIntermediateDirectories: true)
        try "nameserver 127.0.0.1\noptions timeout:5 attempts:2\n".write(toFile: "/etc/netns/\(name)/resolv.conf", atomically: true, encoding: .utf8)
        try addInputChain(table: "deaddns")
        try run(["nft", "add", "rule", "inet", "deaddns", "in", "udp", "dport", "53", "drop"])
        try run(["nft", "add", "rule", "inet", "deaddns", "in", "tcp", "dport", "53", "drop"])
    }
}
