import Foundation
import Media
import TestSupport
import Testing
@testable import Config

/// Generated config files, values and overrides: each parses or is reported as a `ConfigError`,
/// never a trap (a trap ends this test process, which is how a failure shows). What parses is a
/// config every later computation survives. Seeded, so a failure replays; the seed is in the test.
@Suite struct ConfigFuzzTests {
    /// Values that have broken parsers elsewhere: boundaries, overflows, non-numbers, YAML's own
    /// special spellings, and text that looks like YAML syntax.
    static let edgeValues = [
        "0", "-0", "1", "-1", "2", "16", "240", "241", "0.01", "0.009999", "1e3", "1E-400", "1e308", "1e309",
        "-1e308", ".5", "5.", "+7", "0x10", "0o7", "1_000", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "99999999999999999999", "9999999999999.999999", "18446744073709551615",
        "4294967295", "4294967296", "nan", ".nan", "NaN", "inf", ".inf", "-.inf", "infinity", "~", "null", "",
        "true", "false", "yes", "no", "on", "1/0", "0/1", "-1/2", "1/-2", "1/99999999999", "99999999999/1",
        "30000/1001", "1/100", "1/101", " 30 / 1 ", "1//2", "1280x720", "0x0", "7680x4320", "7682x4320",
        "999999x999999", "16x16", "x", "auto", "MJPG", "baseline", "veryfast", "rtmp://h/a/k", "/dev/video0",
        "/dev/", "-", "a.y4m", ".y4m", "/tmp/a.flv", "/tmp/a.h264", "é", "💥", "\\u0000", "[1, 2]", "{a: 1}",
        "&a 1", "*a", "!!str 3", "!!int 3", "!!float .inf", "|", ">", "'quoted'", "\"dq\"", "#c", "%", "@", "`",
    ]

    static func randomText(_ generator: inout SplitMix64) -> String {
        let alphabet = Array("0123456789.-+eExX/:_ abcz&*!|>'\"#%@`[]{},?~\\é")
        let length = Int.random(in: 0...24, using: &generator)
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }

    static func randomValue(_ generator: inout SplitMix64) -> String {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return randomText(&generator)
        case 1: return String(Int.random(in: Int.min...Int.max, using: &generator))
        case 2: return String(Double(bitPattern: generator.next()))
        case 3: return "\(Int.random(in: -5...1_000_000_000_000, using: &generator))/\(Int.random(in: -5...1_000_000_000_000, using: &generator))"
        default: return edgeValues.randomElement(using: &generator)!
        }
    }

    /// A value as it may stand in a file: plain, quoted, in a list or map.
    static func yamlValue(_ generator: inout SplitMix64) -> String {
        let value = randomValue(&generator)
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case 1: return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case 2: return "[\(value)]"
        default: return value
        }
    }

    /// A document of the schema's sections with generated values for generated keys (most of them
    /// real, some misspelt or foreign), and usually an outputs list.
    /// Each document has its own share of generated values (0 to 50 %); the rest are the keys'
    /// defaults, so documents range from clean to thoroughly broken and both sides are exercised.
    static func document(_ generator: inout SplitMix64) -> String {
        var lines: [String] = []
        let noise = Double.random(in: 0...0.5, using: &generator)
        func noisy() -> Bool { Double.random(in: 0..<1, using: &generator) < noise }
        for (section, fields) in CamcastConfig.schema.shuffled(using: &generator).prefix(Int.random(in: 0...8, using: &generator)) {
            lines.append(noisy() ? "\(section): \(yamlValue(&generator))" : "\(section):")
            for field in fields.shuffled(using: &generator).prefix(Int.random(in: 0...fields.count, using: &generator)) {
                let key = noisy() && Bool.random(using: &generator) ? randomText(&generator) : field.key
                let value = noisy() || field.defaultText == "none" ? yamlValue(&generator) : field.defaultText
                lines.append("  \(key): \(value)")
            }
        }
        if !noisy() || Bool.random(using: &generator) {
            lines.append("outputs:")
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let key = noisy() ? ["url", "path", "max_frames", "uri"].randomElement(using: &generator)! : "path"
                let value = noisy()
                    ? yamlValue(&generator)
                    : ["rtmp://example.com/live/k", "/tmp/a.flv", "/tmp/b.h264"].randomElement(using: &generator)!
                lines.append("  - \(key): \(value)")
                if noisy() { lines.append("    max_frames: \(yamlValue(&generator))") }
            }
        }
        return lines.joined(separator: "\n") + (Bool.random(using: &generator) ? "\n" : "")
    }

    /// What the daemon computes from a config, checked to fit instead of trapping.
    static func checkDerived(_ config: CamcastConfig) {
        let fps = config.source.fps
        #expect(fps.isSupported, "\(fps)")
        #expect(fps.frameIntervalNanoseconds > 0 && fps.frameIntervalNanoseconds <= 100_000_000_000)
        #expect(UInt32(exactly: fps.numerator) != nil && UInt32(exactly: fps.denominator) != nil)
        #expect(Int64(exactly: (config.queue.maxSeconds * 1000).rounded()) != nil)
        #expect(config.source.size.width * config.source.size.height <= 7680 * 4320)
        let interval = fps.framesPerSecond * config.encoder.keyframeIntervalSeconds
        #expect(interval.isFinite && interval < Double(Int32.max))
    }

    @Test func generatedDocumentsParseOrReportProblemsWithKeyPaths() {
        var generator = SplitMix64(seed: 0xCA3C_A570_0000_0004)
        var parsed = 0
        for _ in 0..<3000 {
            let yaml = Self.document(&generator)
            do throws(ConfigError) {
                let config = try CamcastConfig.parse(yaml: yaml, fileName: "fuzz.yaml")
                Self.checkDerived(config)
                parsed += 1
            } catch {
                #expect(!error.problems.isEmpty, "\(yaml)")
                // Every problem names the file and either a key path or a line to look at.
                #expect(error.problems.allSatisfy { $0.origin == "fuzz.yaml" && (!$0.keyPath.isEmpty || $0.line != nil) },
                        "\(error)\n---\n\(yaml)")
            }
        }
        // The generator must reach the accepting side too, or it tests only rejection.
        #expect(parsed > 50, "only \(parsed) of 3000 generated files parsed")
    }

    /// Byte-level damage to the documented example file: deletions, insertions and replacements.
    @Test func mutationsOfTheExampleFileParseOrReportProblems() throws {
        let example = try String(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Config/camcast.yaml"), encoding: .utf8)
        var generator = SplitMix64(seed: 0xCA3C_A570_0000_0013)
        let pieces = Array("&*:-[]{}#'\"|>!%@`?,\n\t 0123456789.x/e".unicodeScalars)
        for _ in 0..<600 {
            var scalars = Array(example.unicodeScalars)
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let at = Int.random(in: 0..<scalars.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: scalars.remove(at: at)
                case 1: scalars.insert(pieces.randomElement(using: &generator)!, at: at)
                default: scalars[at] = pieces.randomElement(using: &generator)!
                }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            do throws(ConfigError) {
                Self.checkDerived(try CamcastConfig.parse(yaml: text, fileName: "camcast.yaml"))
            } catch {
                #expect(!error.problems.isEmpty)
            }
        }
    }

    /// Every overridable key (a flag or `CAMCAST_*` variable) with generated values.
    @Test func generatedOverridesApplyOrReportProblems() {
        var generator = SplitMix64(seed: 0xCA3C_A570_0000_0F1A)
        let keys = CamcastConfig.overridableKeyPaths
        for round in 0..<4000 {
            var config = CamcastConfig(outputs: [.file(path: "/tmp/a.flv", maxFrames: nil)])
            let key = keys[round % keys.count]
            var overrides = [key: Self.randomValue(&generator)]
            if Bool.random(using: &generator) { overrides[keys.randomElement(using: &generator)!] = Self.randomValue(&generator) }
            do throws(ConfigError) {
                try config.apply(overrides: overrides)
                Self.checkDerived(config)
            } catch {
                #expect(error.problems.allSatisfy { !$0.keyPath.isEmpty && $0.origin == "command line" }, "\(error)")
            }
            var environment = CamcastConfig(outputs: [.file(path: "/tmp/a.flv", maxFrames: nil)])
            do throws(ConfigError) {
                try environment.apply(environment: [CamcastConfig.environmentVariable(for: key): Self.randomValue(&generator)])
                Self.checkDerived(environment)
            } catch {
                #expect(!error.problems.isEmpty)
            }
        }
    }

    @Test func generatedFrameRateTextParsesToASupportedRateOrIsRefused() {
        var generator = SplitMix64(seed: 0xCA3C_A570_0000_00F5)
        for _ in 0..<20_000 {
            let text = Self.randomValue(&generator)
            guard let rate = FrameRate(parsing: text), rate.isSupported else { continue }
            #expect(rate.frameIntervalNanoseconds <= 100_000_000_000, "\(text)")
            #expect(UInt32(exactly: rate.numerator) != nil && UInt32(exactly: rate.denominator) != nil, "\(text)")
        }
    }
}
