import Foundation
import Testing
@testable import Config

/// The work a config file can cause is bounded before the composer builds its tree. Defect: an alias of a
/// list used as a mapping key cost ten times more per alias level (Yams hashes each key in full to
/// find duplicates); a 432-byte file kept check-config busy for over a minute, and a SIGHUP with it
/// pinned a core for the whole run.
@Suite struct WorkBoundTests {
    static let output = "outputs:\n  - path: /tmp/a.flv\n"

    /// Eight levels of ten aliases each, the last used as a key: 10⁸ nodes once expanded.
    static let aliasBomb: String = {
        var lines = ["x0: &l0 [a, a, a, a, a, a, a, a, a, a]"]
        for level in 1...7 {
            lines.append("x\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        lines.append("source:\n  ? *l7\n  : 1")
        return lines.joined(separator: "\n") + "\n" + output
    }()

    @Test func anAliasBombIsRefusedAtItsFirstAnchorInWellUnderASecond() throws {
        #expect(Self.aliasBomb.utf8.count < 600)
        let clock = ContinuousClock()
        let start = clock.now
        let thrown = try #require(throws: ConfigError.self) { try CamcastConfig.parse(yaml: Self.aliasBomb, fileName: "bomb.yaml") }
        let took = clock.now - start
        #expect(took < .seconds(1), "took \(took)")
        let problem = try #require(thrown.problems.first)
        #expect(thrown.problems.count == 1)
        #expect(problem.line == 1)
        #expect(problem.column == 5)
        #expect(problem.message.contains("anchors on a list (`&name`) are not supported"), "\(problem)")
    }

    @Test(arguments: [
        ("a map", "base: &b {bitrate_kbps: 100}\nencoder: *b\n", 1, "anchors on a map"),
        ("a block map", "encoder: &e\n  bitrate_kbps: 100\n", 1, "anchors on a map"),
        ("a list", "o: &o\n  - path: /tmp/a.flv\n", 1, "anchors on a list"),
    ])
    func anAnchorOnAMapOrListIsRefusedWithItsLine(_ name: String, _ yaml: String, _ line: Int, _ says: String) throws {
        let error = try #require(throws: ConfigError.self) { try CamcastConfig.parse(yaml: yaml + Self.output, fileName: "a.yaml") }
        #expect(error.problems.count == 1)
        #expect(error.problems.first?.line == line, "\(error)")
        #expect(error.problems.first?.message.contains(says) == true, "\(error)")
    }

    /// `&` and `*` that are text, not YAML, are not mistaken for anchors: libyaml decides.
    @Test func ampersandsAndStarsInTextAreNotAnchors() throws {
        let yaml = """
            # a comment with &anchor and *alias in it
            source:
              type: file
              file: "/srv/&clip *1.y4m"
            outputs:
              - url: rtmp://example.com/live/k?a=1&b=2
              - path: '/tmp/&x *y.flv'
            """
        let config = try CamcastConfig.parse(yaml: yaml, fileName: "t.yaml")
        #expect(config.source.file == "/srv/&clip *1.y4m")
        #expect(config.outputs == [.rtmp(url: "rtmp://example.com/live/k?a=1&b=2"), .file(path: "/tmp/&x *y.flv", maxFrames: nil)])
    }

    @Test func aliasesRepeatingMoreThanTheFileLimitAreRefused() throws {
        let long = String(repeating: "x", count: 200_000)
        let yaml = "a: &a \(long)\n" + (1...6).map { "k\($0): *a" }.joined(separator: "\n") + "\n" + Self.output
        let error = try #require(throws: ConfigError.self) { try CamcastConfig.parse(yaml: yaml, fileName: "r.yaml") }
        #expect(error.problems.first?.message.contains("aliases repeat more than") == true, "\(error)")
        #expect(error.problems.first?.line == 7)
    }

    @Test func aFileOverOneMebibyteIsRefusedBeforeParsing() throws {
        let yaml = Self.output + "# " + String(repeating: "x", count: 1 << 20) + "\n"
        let error = try #require(throws: ConfigError.self) { try CamcastConfig.parse(yaml: yaml, fileName: "big.yaml") }
        #expect(error.problems.first?.message.contains("may hold at most 1048576") == true, "\(error)")

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-big-\(UUID().uuidString.prefix(8)).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try #require(throws: ConfigError.self) { try CamcastConfig.load(path: path) }
        #expect(loaded.problems.first?.message.contains("may hold at most 1048576") == true, "\(loaded)")
    }

    @Test func tooManyValuesOrTooDeepANestingIsRefused() throws {
        let many = "x: [" + Array(repeating: "1", count: 20_000).joined(separator: ",") + "]\n" + Self.output
        let crowded = try #require(throws: ConfigError.self) { try CamcastConfig.parse(yaml: many, fileName: "m.yaml") }
        #expect(crowded.problems.first?.message.contains("more than 10000 values") == true, "\(crowded)")

        let deep = "x: " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n" + Self.output
        let nested = try #require(throws: ConfigError.self) { try CamcastConfig.parse(yaml: deep, fileName: "d.yaml") }
        #expect(nested.problems.first?.message.contains("nested more than 32 deep") == true, "\(nested)")
    }

    @Test func anAnchoredValueStillWorks() throws {
        let config = try CamcastConfig.parse(
            yaml: "network:\n  connect_timeout_seconds: &t 7\n  send_timeout_seconds: *t\n" + Self.output, fileName: "a.yaml")
        #expect(config.network.sendTimeoutSeconds == 7)
    }
}
