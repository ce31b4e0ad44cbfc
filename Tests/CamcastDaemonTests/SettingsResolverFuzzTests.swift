import Config
import Encoder
import Media
import Testing

@testable import CamcastDaemon
import TestSupport

/// Generated `camcast run` flags through the resolver, as the binary resolves them: each set
/// resolves or is a `ConfigError`, never a trap; what resolves survives the arithmetic the daemon
/// does on it. Defect: `--duration 1e10` passed and trapped in the pipeline's `Int64(seconds × 10⁹)`.
@Suite struct SettingsResolverFuzzTests {
    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.001, 0.5, 2, 59.9, 60, 61, 120, 121, 86_400, 31_536_000, 31_536_001, 1e10, 1e18, 9.3e18,
        1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, -.infinity, .nan,
    ]
    static let integers: [Int] = [0, -1, 1, 49, 50, 2500, 100_000, 100_001, 1_000_000, Int(Int32.max), .max, .min]
    static let texts = [
        "30", "0.05", "0.01", "1/101", "1/99999999999", "9999999999999.999999", "240", "241", "30000/1001", "abc", "",
        "1280x720", "7682x4320", "0x0", "999999x999999", "veryfast", "placebo", "nope", "baseline", "high",
    ]

    /// One flag: absent, a usable value, or (with the set's `noise` share) a generated one.
    struct Flags {
        var generator: SplitMix64
        let noise: Double

        mutating func value<T>(usable: T, generated: (inout SplitMix64) -> T) -> T? {
            if Int.random(in: 0..<3, using: &generator) == 0 { return nil }
            return Double.random(in: 0..<1, using: &generator) < noise ? generated(&generator) : usable
        }

        mutating func text(usable: String) -> String? {
            value(usable: usable) { $0.next() % 2 == 0 ? texts.randomElement(using: &$0)! : String(Double(bitPattern: $0.next())) }
        }

        mutating func double(usable: Double) -> Double? {
            value(usable: usable) { $0.next() % 2 == 0 ? doubles.randomElement(using: &$0)! : Double(bitPattern: $0.next()) }
        }

        mutating func int(usable: Int) -> Int? {
            value(usable: usable) { $0.next() % 2 == 0 ? integers.randomElement(using: &$0)! : Int(truncatingIfNeeded: $0.next()) }
        }
    }

    @Test func generatedFlagsResolveOrAreConfigErrors() {
        var generator = SplitMix64(seed: 0xF1A6_0000_0000_0004)
        var resolved = 0
        for _ in 0..<3000 {
            var f = Flags(generator: SplitMix64(seed: generator.next()), noise: Double.random(in: 0...0.5, using: &generator))
            var flags = CommandLineSettings(
                source: f.text(usable: "testpattern"), size: f.text(usable: "640x360"), fps: f.text(usable: "30"),
                bitrateKbps: f.int(usable: 2500), keyframeIntervalSeconds: f.double(usable: 2), preset: f.text(usable: "veryfast"),
                profile: f.text(usable: "high"), outputs: ["/tmp/camcast-fuzz.flv"], durationSeconds: f.double(usable: 10),
                logLevel: f.text(usable: "debug"))
            flags.reconnectAttempts = f.int(usable: 0)
            flags.reconnectHealthyAfterSeconds = f.double(usable: 30)
            flags.connectTimeoutSeconds = f.double(usable: 10)
            flags.sendTimeoutSeconds = f.int(usable: 10)
            do throws(ConfigError) {
                let run = try SettingsResolver.resolve(flags, environment: [:])
                Self.checkArithmetic(run.settings)
                resolved += 1
            } catch {
                #expect(!error.problems.isEmpty)
                #expect(error.problems.allSatisfy { !$0.keyPath.isEmpty }, "\(error)")
            }
        }
        #expect(resolved > 50, "only \(resolved) of 3000 generated flag sets resolved")
    }

    /// The computations Pipeline, the encoder and the outputs make on resolved settings, each
    /// checked to fit before it is made.
    static func checkArithmetic(_ settings: RunSettings) {
        let interval = settings.encoder.frameRate.frameIntervalNanoseconds
        #expect(interval > 0 && interval <= 100_000_000_000)
        if let duration = settings.durationSeconds {
            // Pipeline: Int64(duration × 10⁹) − half a frame interval.
            #expect(duration > 0 && Int64(exactly: (duration * 1e9).rounded()) != nil, "\(duration)")
        }
        #expect(UInt32(exactly: settings.encoder.frameRate.numerator) != nil)
        #expect(UInt32(exactly: settings.encoder.frameRate.denominator) != nil)
        #expect(settings.encoder.keyframeIntervalInFrames >= 1)
        #expect(settings.sendQueueMilliseconds > 0)
        #expect((1...120).contains(settings.rtmp.connectTimeoutSeconds) && (1...120).contains(settings.rtmp.sendTimeoutSeconds))
        #expect(settings.statusIntervalSeconds.isFinite)
    }

    @Test(arguments: [1e10, 31_536_001, 0, -1, Double.nan, Double.infinity])
    func aDurationOutOfRangeIsAProblemNamingTheFlag(_ seconds: Double) throws {
        let flags = CommandLineSettings(outputs: ["/tmp/camcast-fuzz.flv"], durationSeconds: seconds)
        let error = try #require(throws: ConfigError.self) { try SettingsResolver.resolve(flags, environment: [:]) }
        #expect(error.problems.map(\.keyPath) == ["--duration"])
        #expect(error.problems.first?.message.contains("out of range") == true, "\(error)")
    }

    @Test func aDurationOfAYearIsAccepted() throws {
        let flags = CommandLineSettings(outputs: ["/tmp/camcast-fuzz.flv"], durationSeconds: 31_536_000)
        #expect(try SettingsResolver.resolve(flags, environment: [:]).settings.durationSeconds == 31_536_000)
    }
}
