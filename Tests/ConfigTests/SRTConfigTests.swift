import Testing

@testable import Config
import RTMPAddress

/// `outputs[] url: srt://host:port` and its keys: every bad value names its key and says what is
/// allowed (camcast exits 78 on any of them: SRTOutputTests runs the binary on the ones that need
/// a file).
@Suite struct SRTConfigTests {
    static func parse(_ yaml: String) throws -> CamcastConfig {
        try CamcastConfig.parse(yaml: yaml, fileName: "f.yaml")
    }

    static func problem(_ output: String) throws -> ConfigProblem {
        let problems = try #require(throws: ConfigError.self) { try parse("outputs:\n  - url: \(output)\n") }.problems
        try #require(problems.count == 1, "\(problems)")
        return problems[0]
    }

    @Test func addressesAndKeysParse() throws {
        let config = try Self.parse(
            "outputs:\n  - url: srt://cam.example:9000\n    latency_ms: 2000\n    passphrase_file: /etc/camcast/srt.pass\n"
                + "    pbkeylen: 32\n    streamid: publish:cam1\n  - url: srt://[::1]:9001\n  - url: SRT://10.0.0.2:9002\n")
        guard case .srt(let first) = config.outputs[0], case .srt(let v6) = config.outputs[1], case .srt(let v4) = config.outputs[2] else {
            Issue.record("not SRT outputs: \(config.outputs)")
            return
        }
        #expect(first.url.host == "cam.example" && first.url.port == 9000)
        #expect(first.latencyMilliseconds == 2000 && first.keyLength == 32 && first.passphraseFile == "/etc/camcast/srt.pass")
        #expect(first.streamID == "publish:cam1")
        #expect(config.outputs[0].description == "srt://cam.example:9000 (streamid publish:****)")
        #expect(v6.url.host == "::1" && v6.url.description == "srt://[::1]:9001" && v6.latencyMilliseconds == 500 && v6.keyLength == 16)
        #expect(v4.url.host == "10.0.0.2")
    }

    @Test(arguments: [
        ("srt://h", "outputs[0].url", "has no port"),
        ("srt://h:0", "outputs[0].url", "has port `0`"),
        ("srt://h:70000", "outputs[0].url", "has port `70000`"),
        ("srt://[::1:9000", "outputs[0].url", "brackets that do not hold an IPv6 address"),
        ("srt://bad_host:9000", "outputs[0].url", "invalid host name"),
        ("srt://h:9000/live", "outputs[0].url", "has a path or query"),
        ("srt://u@h:9000", "outputs[0].url", "has user info"),
        ("srt://h:9000\n    latency_ms: 19", "outputs[0].latency_ms", "19 is out of range (20…8000)"),
        ("srt://h:9000\n    latency_ms: 8001", "outputs[0].latency_ms", "8001 is out of range (20…8000)"),
        ("srt://h:9000\n    latency_ms: soon", "outputs[0].latency_ms", "is not an integer"),
        ("srt://h:9000\n    latency_ms:", "outputs[0].latency_ms", "has no value"),
        ("srt://h:9000\n    passphrase_file: srt.pass", "outputs[0].passphrase_file", "is not an absolute path"),
        ("srt://h:9000\n    passphrase_file: /p\n    pbkeylen: 20", "outputs[0].pbkeylen", "is not an AES key length (allowed: 16, 24 or 32"),
        ("srt://h:9000\n    pbkeylen: 24", "outputs[0].pbkeylen", "only applies with passphrase_file or passphrase_env"),
        ("srt://h:9000\n    passphrase_env: 1PASS", "outputs[0].passphrase_env", "is not an environment variable's name"),
        ("srt://h:9000\n    passphrase_env: SRT-PASS", "outputs[0].passphrase_env", "is not an environment variable's name"),
        ("srt://h:9000\n    passphrase_file: /p\n    passphrase_env: SRT_PASS", "outputs[0].passphrase_env", "passphrase_file or passphrase_env, not both"),
        ("srt://h:9000\n    streamid: \"a\\tb\"", "outputs[0].streamid", "is not a stream id"),
        ("rtmp://h/live/k\n    streamid: publish:x", "outputs[0].streamid", "only applies to an srt:// output"),
        ("srt://h:9000\n    max_frames: 3", "outputs[0]", "an SRT output is an output of its own"),
    ])
    func badValuesNameTheirKey(output: String, keyPath: String, message: String) throws {
        let problem = try Self.problem(output)
        #expect(problem.keyPath == keyPath, "\(problem)")
        #expect(problem.message.contains(message), "\(problem)")
    }

    @Test func aPassphraseVariableIsNamedAndAGroupsLegsNameTheirs() throws {
        let config = try Self.parse(
            "outputs:\n  - url: srt://h:9000\n    passphrase_env: CAMCAST_SRT_PASSPHRASE\n    pbkeylen: 32\n"
                + "  - urls: [srt://a:9000, srt://b:9000]\n    mode: both\n    passphrase_env: LEG_PASS\n")
        guard case .srt(let first) = config.outputs[0] else {
            Issue.record("not an SRT output: \(config.outputs)")
            return
        }
        #expect(first.passphraseVariable == "CAMCAST_SRT_PASSPHRASE" && first.passphraseFile == nil && first.keyLength == 32)
        #expect(config.passphraseVariables == ["CAMCAST_SRT_PASSPHRASE", "LEG_PASS"])
    }

    @Test func aSecretWrittenIntoTheURLIsNotQuoted() throws {
        let problem = try Self.problem("\"srt://h:9000?passphrase=hunter2hunter2\"")
        #expect(!problem.description.contains("hunter2"), "\(problem)")
        #expect(problem.message.contains("has a path or query"), "\(problem)")
    }

    @Test func theStreamIDIsShownUpToItsFirstElement() {
        #expect(SRTURL.redactStreamID("publish:cam1") == "publish:****")
        #expect(SRTURL.redactStreamID("#!::r=live/cam,m=publish") == "#!:****")
        #expect(SRTURL.redactStreamID("cam1secret") == "****")
    }
}
