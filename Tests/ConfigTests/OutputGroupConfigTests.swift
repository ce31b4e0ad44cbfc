import Testing

@testable import Config
import Media

/// `outputs[] urls: [primary, backup]` with `mode` (issue 43): legs parse as single URLs do, and every
/// bad group names its key and says what is allowed (camcast exits 78 on each, as on any problem).
@Suite struct OutputGroupConfigTests {
    static func parse(_ yaml: String) throws -> CamcastConfig {
        try CamcastConfig.parse(yaml: yaml, fileName: "f.yaml")
    }

    static func problem(_ item: String) throws -> ConfigProblem {
        let problems = try #require(throws: ConfigError.self) { try parse("outputs:\n  - \(item)\n") }.problems
        try #require(problems.count == 1, "\(problems)")
        return problems[0]
    }

    @Test func aFailoverListAndADualIngestPairParse() throws {
        let config = try Self.parse(
            "outputs:\n  - urls: [rtmp://a/live/k1, \"rtmps://b:443/live/k2\", srt://c:9000]\n    mode: failover\n"
                + "    failover_after_seconds: 8\n    return_after_seconds: 120\n    latency_ms: 900\n"
                + "  - urls:\n      - rtmp://a.example/live2/k\n      - rtmp://b.example/live2/k\n    mode: both\n")
        guard case .group(let failover) = config.outputs[0], case .group(let both) = config.outputs[1] else {
            Issue.record("not groups: \(config.outputs)")
            return
        }
        #expect(failover.mode == .failover && failover.failoverAfterSeconds == 8 && failover.returnAfterSeconds == 120)
        #expect(failover.legs == [.rtmp(url: "rtmp://a/live/k1"), .rtmp(url: "rtmps://b:443/live/k2"), failover.legs[2]])
        if case .srt(let srt) = failover.legs[2] { #expect(srt.latencyMilliseconds == 900) } else { Issue.record("\(failover.legs[2])") }
        #expect(both.mode == .both && both.failoverAfterSeconds == 5 && both.returnAfterSeconds == 30 && both.legs.count == 2)
        // The keys never reach a description.
        #expect(!config.outputs.map(\.description).joined().contains("k1") && !both.description.contains("/k"))
    }

    @Test(arguments: [
        ("urls: [rtmp://a/l/k, rtmp://b/l/k]", "outputs[0]", "has `urls` but no `mode`"),
        ("urls: [rtmp://a/l/k, rtmp://b/l/k]\n    mode: round-robin", "outputs[0].mode", "`round-robin` is not a mode"),
        ("urls: [rtmp://a/l/k]\n    mode: both", "outputs[0].urls", "has 1 URL; a group needs 2 to 8"),
        ("urls: rtmp://a/l/k\n    mode: both", "outputs[0].urls", "expected a list of URLs"),
        ("urls: [rtmp://a/l/k, http://b/l/k]\n    mode: both", "outputs[0].urls[1]", "http://b/l/"),
        ("urls: [rtmp://a/l/k, rtmp://a/l/k]\n    mode: both", "outputs[0].urls[1]", "is the same leg as urls[0]"),
        ("urls: [rtmp://a/l/k, srt://b]\n    mode: both", "outputs[0].urls[1]", "has no port"),
        ("urls: [rtmp://a/l/k, rtmp://b/l/k]\n    mode: both\n    latency_ms: 900", "outputs[0].latency_ms", "and `urls` has none"),
        ("urls: [rtmp://a/l/k, rtmp://b/l/k]\n    mode: both\n    failover_after_seconds: 3", "outputs[0].failover_after_seconds", "only applies with `mode: failover`"),
        ("urls: [rtmp://a/l/k, rtmp://b/l/k]\n    mode: failover\n    failover_after_seconds: 0", "outputs[0].failover_after_seconds", "0 is out of range"),
        ("urls: [rtmp://a/l/k, rtmp://b/l/k]\n    mode: failover\n    return_after_seconds: soon", "outputs[0].return_after_seconds", "is not an integer"),
        ("url: rtmp://a/l/k\n    mode: failover", "outputs[0].mode", "only applies to an output with `urls:`"),
        ("urls: [rtmp://a/l/k, rtmp://b/l/k]\n    url: rtmp://c/l/k\n    mode: both", "outputs[0]", "a group of legs is an output of its own"),
    ])
    func badGroupsNameTheirKey(item: String, keyPath: String, message: String) throws {
        let problem = try Self.problem(item)
        #expect(problem.keyPath == keyPath, "\(problem)")
        #expect(problem.message.contains(message), "\(problem)")
        #expect(!problem.description.contains("/l/k"), "a stream key in \(problem)")
    }
}

extension OutputGroupConfigTests {
    /// A leg may leave by an uplink of its own (`{url: …, interface: …}`), checked as an output's is.
    @Test func legsTakeUplinksOfTheirOwn() throws {
        let config = try Self.parse(
            "outputs:\n  - urls:\n      - {url: rtmp://a/live/k, interface: eth0}\n      - url: rtmp://b/live/k\n        source_address: 192.0.2.7\n"
                + "      - rtmp://c/live/k\n    mode: failover\n")
        #expect(config.outputUplinks[.rtmp(url: "rtmp://a/live/k")] == .interface("eth0"))
        #expect(config.outputUplinks[.rtmp(url: "rtmp://b/live/k")] == .sourceAddress("192.0.2.7"))
        #expect(config.outputUplinks[.rtmp(url: "rtmp://c/live/k")] == nil)
    }

    @Test(arguments: [
        ("urls: [{url: rtmp://a/l/k, interface: \"eth/0\"}, rtmp://b/l/k]\n    mode: both", "outputs[0].urls[0].interface"),
        ("urls: [{interface: eth0}, rtmp://b/l/k]\n    mode: both", "outputs[0].urls[0]"),
        ("urls: [{url: rtmp://a/l/k, port: 2}, rtmp://b/l/k]\n    mode: both", "outputs[0].urls[0].port"),
        ("urls: [rtmp://a/l/k, {url: rtmp://b/l/k, source_address: nowhere}]\n    mode: both", "outputs[0].urls[1].source_address"),
    ])
    func badLegUplinksNameTheirLeg(item: String, keyPath: String) throws {
        let problems = try #require(throws: ConfigError.self) { try Self.parse("outputs:\n  - \(item)\n") }.problems
        #expect(problems.map(\.keyPath) == [keyPath], "\(problems)")
    }
}
