import Testing

@testable import Config

/// `http:` (the operator's endpoint) and `outputs[].name`.
@Suite struct HTTPConfigTests {
    static func parse(_ yaml: String) throws -> CamcastConfig {
        try CamcastConfig.parse(yaml: yaml, fileName: "f.yaml")
    }

    static func problems(_ yaml: String) throws -> [ConfigProblem] {
        try #require(throws: ConfigError.self) { try parse(yaml) }.problems
    }

    @Test func listenDefaultsToLoopbackAndEmptyTurnsItOff() throws {
        let plain = try Self.parse("outputs:\n  - path: /tmp/a.flv\n")
        #expect(plain.http.listen == "127.0.0.1:9935")
        #expect(plain.http.address?.host == "127.0.0.1" && plain.http.address?.port == 9935)
        let off = try Self.parse("outputs:\n  - path: /tmp/a.flv\nhttp:\n  listen: \"\"\n")
        #expect(off.http.address == nil)
        let v6 = try Self.parse("outputs:\n  - path: /tmp/a.flv\nhttp:\n  listen: \"[::1]:9936\"\n")
        #expect(v6.http.address?.host == "::1" && v6.http.address?.port == 9936)
    }

    @Test func badListenAndRelativeCredentialsNameTheirKeys() throws {
        let problems = try Self.problems("outputs:\n  - path: /tmp/a.flv\nhttp:\n  listen: nine\n  credentials_file: users\n")
        #expect(problems.map(\.keyPath).sorted() == ["http.credentials_file", "http.listen"], "\(problems)")
    }

    @Test func outputsMayBeNamedOnceEach() throws {
        let named = try Self.parse("outputs:\n  - url: rtmp://a/live/k1\n    name: main\n  - path: /tmp/a.flv\n")
        #expect(named.outputNames[.rtmp(url: "rtmp://a/live/k1")] == "main")
        #expect(named.outputNames[.file(path: "/tmp/a.flv", maxFrames: nil)] == nil)
        let twice = try Self.problems("outputs:\n  - url: rtmp://a/live/k1\n    name: main\n  - path: /tmp/a.flv\n    name: main\n")
        #expect(twice.map(\.keyPath) == ["outputs[1].name"], "\(twice)")
        let bad = try Self.problems("outputs:\n  - path: /tmp/a.flv\n    name: \"Main Cam\"\n")
        #expect(bad.map(\.keyPath) == ["outputs[0].name"], "\(bad)")
    }
}
