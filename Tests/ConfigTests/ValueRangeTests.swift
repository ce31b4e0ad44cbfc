import Media
import Testing
@testable import Config

/// Values that parsed as numbers but broke later arithmetic: `9999999999999.999999` trapped in the
/// frame-rate parser (arithmetic overflow, SIGILL in check-config) and `"1/99999999999"` passed
/// and trapped when the frame interval was computed at run time. Each now is a problem with its
/// key path and line, and whatever passes is a rate every later computation survives.
@Suite struct ValueRangeTests {
    static let output = "outputs:\n  - path: /tmp/a.flv\n"

    static func problem(fps: String) throws -> ConfigProblem {
        let error = try #require(throws: ConfigError.self) {
            try CamcastConfig.parse(yaml: "source:\n  fps: \(fps)\n" + output, fileName: "f.yaml")
        }
        #expect(error.problems.count == 1)
        return try #require(error.problems.first)
    }

    @Test(arguments: [
        "9999999999999.999999", "\"1/99999999999\"", "\"99999999999/1\"", "99999999999999999999",
        "\"4294967296/4294967296\"", "0.001", "\"1/101\"", "0", "-30", "\"-1/2\"", "240.000001", "\"9223372036854775807/1\"",
    ])
    func aRateOutsideTheRangeIsAProblemWithKeyPathAndLine(_ fps: String) throws {
        let problem = try Self.problem(fps: fps)
        #expect(problem.keyPath == "source.fps")
        #expect(problem.line == 2)
        #expect(problem.message.contains("out of range"), "\(problem)")
    }

    @Test(arguments: [
        ("0.01", FrameRate(numerator: 1, denominator: 100)), ("0.05", FrameRate(numerator: 1, denominator: 20)),
        ("\"1/100\"", FrameRate(numerator: 1, denominator: 100)), ("240", FrameRate(numerator: 240)),
        ("\"30000/1001\"", FrameRate(numerator: 30000, denominator: 1001)),
        ("\"1000000000/1000000000\"", FrameRate(numerator: 1_000_000_000, denominator: 1_000_000_000)),
        ("239.999999", FrameRate(numerator: 239_999_999, denominator: 1_000_000)),
    ])
    func aRateInsideTheRangeIsKept(_ fps: String, _ expected: FrameRate) throws {
        let config = try CamcastConfig.parse(yaml: "source:\n  fps: \(fps)\n" + Self.output, fileName: "f.yaml")
        #expect(config.source.fps == expected)
        // The computations the pipeline makes on a rate, for the extremes of the range.
        #expect(config.source.fps.frameIntervalNanoseconds <= 100_000_000_000)
        #expect(UInt32(exactly: config.source.fps.numerator) != nil && UInt32(exactly: config.source.fps.denominator) != nil)
    }

    @Test func aFlagIsHeldToTheSameRange() throws {
        var config = CamcastConfig(outputs: [.file(path: "/tmp/a.flv", maxFrames: nil)])
        let error = try #require(throws: ConfigError.self) {
            try config.apply(overrides: ["source.fps": "1/99999999999"])
        }
        #expect(error.problems.map(\.keyPath) == ["source.fps"])
        #expect(error.problems.first?.origin == "command line")
    }

    @Test func theParserReportsOverflowInsteadOfTrapping() {
        #expect(FrameRate(parsing: "9999999999999.999999") == nil)
        #expect(FrameRate(parsing: "92233720368547.758070") == nil)
        #expect(FrameRate(parsing: "9223372036854.775807")?.rangeProblem != nil)
        #expect(FrameRate(parsing: "1.5") == FrameRate(numerator: 3, denominator: 2))
    }

    @Test func theRangeIsCheckedOnExactFractions() {
        #expect(FrameRate(numerator: 1, denominator: 100).rangeProblem == nil)
        #expect(FrameRate(numerator: 99, denominator: 10_000).rangeProblem?.contains("below the slowest rate") == true)
        #expect(FrameRate(numerator: 240_000_001, denominator: 1_000_000).rangeProblem?.contains("above the fastest rate") == true)
        #expect(FrameRate(numerator: 0).rangeProblem == "not above 0")
        // The terms as given count, not reduced: they go to V4L2 and x264 as they are.
        #expect(FrameRate(numerator: 2_000_000_000, denominator: 2_000_000_000).rangeProblem?.contains("above 1000000000") == true)
    }
}
