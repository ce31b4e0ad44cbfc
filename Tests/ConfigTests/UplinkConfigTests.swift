import Testing

@testable import Config
import Media

/// `outputs[].interface` and `source_address` (issue 43): which keys bind a network output to an
/// uplink, and every text that can never be one names its key (camcast exits 78 on each:
/// UplinkBindingTests runs the binary on some).
@Suite struct UplinkConfigTests {
    static func parse(_ yaml: String) throws -> CamcastConfig {
        try CamcastConfig.parse(yaml: yaml, fileName: "f.yaml")
    }

    @Test func bindingsParse() throws {
        let config = try Self.parse(
            "outputs:\n  - url: rtmp://a.example/live/k\n    interface: eth0\n  - url: rtmps://b.example/live/k\n    source_address: 2001:db8::10\n"
                + "  - url: srt://c.example:9000\n    interface: wwan0\n  - url: rtmp://d.example/live/k\n    source_address: 192.0.2.10\n"
                + "  - url: rtmp://e.example/live/k\n")
        #expect(config.outputUplinks[config.outputs[0]] == .interface("eth0"))
        #expect(config.outputUplinks[config.outputs[1]] == .sourceAddress("2001:db8::10"))
        #expect(config.outputUplinks[config.outputs[2]] == .interface("wwan0"))
        #expect(config.outputUplinks[config.outputs[3]] == .sourceAddress("192.0.2.10"))
        #expect(config.outputUplinks[config.outputs[4]] == nil)
        #expect(Uplink.sourceAddress("2001:db8::10").addressFamily != Uplink.sourceAddress("192.0.2.10").addressFamily)
    }

    @Test(arguments: [
        ("rtmp://h/live/k\n    interface: \"\"", "outputs[0].interface", "has no value"),
        ("rtmp://h/live/k\n    interface:", "outputs[0].interface", "has no value"),
        ("rtmp://h/live/k\n    interface: abcdefghijklmnop", "outputs[0].interface", "longer than 15 bytes"),
        ("rtmp://h/live/k\n    interface: eth0/1", "outputs[0].interface", "no '/', ':' or spaces"),
        ("rtmp://h/live/k\n    interface: \"eth 0\"", "outputs[0].interface", "no '/', ':' or spaces"),
        ("rtmp://h/live/k\n    interface: ..", "outputs[0].interface", "is not an interface name"),
        ("srt://h:9000\n    interface: \".\"", "outputs[0].interface", "is not an interface name"),
        ("rtmp://h/live/k\n    source_address: eth0", "outputs[0].source_address", "is not an IP address"),
        ("srt://h:9000\n    source_address: 192.0.2.300", "outputs[0].source_address", "is not an IP address"),
        ("rtmp://h/live/k\n    source_address:", "outputs[0].source_address", "has no value"),
        ("rtmp://h/live/k\n    interface: eth0\n    source_address: 192.0.2.1", "outputs[0]", "has both `interface` and `source_address`"),
    ])
    func badValuesNameTheirKey(output: String, keyPath: String, message: String) throws {
        let problems = try #require(throws: ConfigError.self) { try Self.parse("outputs:\n  - url: \(output)\n") }.problems
        try #require(problems.count == 1, "\(problems)")
        #expect(problems[0].keyPath == keyPath, "\(problems[0])")
        #expect(problems[0].message.contains(message), "\(problems[0])")
    }

    @Test func fileOutputsTakeNoUplink() throws {
        let problems = try #require(throws: ConfigError.self) { try Self.parse("outputs:\n  - path: /tmp/a.flv\n    interface: eth0\n") }.problems
        #expect(problems.map(\.keyPath) == ["outputs[0].interface"])
        #expect(problems.first?.message.contains("only applies to a network output") == true)
    }
}
