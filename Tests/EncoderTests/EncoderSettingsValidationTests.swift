import Encoder
import Media
import Testing

@Suite struct EncoderSettingsValidationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var setting: String
        var value: String
        var change: @Sendable (inout EncoderSettings) -> Void
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "odd width", setting: "encoder.size", value: "321x180") { $0.size.width = 321 },
        Case(name: "odd height", setting: "encoder.size", value: "320x181") { $0.size.height = 181 },
        Case(name: "zero width", setting: "encoder.size", value: "0x180") { $0.size.width = 0 },
        Case(name: "bitrate too low", setting: "encoder.bitrateKbps", value: "49") { $0.bitrateKbps = 49 },
        Case(name: "bitrate too high", setting: "encoder.bitrateKbps", value: "100001") { $0.bitrateKbps = 100_001 },
        Case(name: "baseline with B-frames", setting: "encoder.bFrames", value: "2") {
            $0.profile = .baseline
            $0.bFrames = 2
        },
        Case(name: "baseline with CABAC", setting: "encoder.entropy", value: "cabac") {
            $0.profile = .baseline
            $0.entropy = .cabac
        },
        Case(name: "unknown preset", setting: "encoder.preset", value: "warpspeed") { $0.preset = "warpspeed" },
        Case(name: "unknown level", setting: "encoder.level", value: "3.3") { $0.level = "3.3" },
        Case(name: "level garbage", setting: "encoder.level", value: "high") { $0.level = "high" },
        Case(name: "zero fps", setting: "encoder.frameRate", value: "0") { $0.frameRate = FrameRate(numerator: 0) },
        Case(name: "negative fps denominator", setting: "encoder.frameRate", value: "30/-1") {
            $0.frameRate = FrameRate(numerator: 30, denominator: -1)
        },
        Case(name: "zero keyframe seconds", setting: "encoder.keyframeIntervalSeconds", value: "0.0") {
            $0.keyframeIntervalSeconds = 0
        },
        Case(name: "zero keyframe frames", setting: "encoder.keyframeIntervalFrames", value: "0") {
            $0.keyframeIntervalFrames = 0
        },
        Case(name: "max rate below average", setting: "encoder.maxRateFactor", value: "0.5") { $0.maxRateFactor = 0.5 },
        Case(name: "zero rate window", setting: "encoder.rateWindowSeconds", value: "0.0") { $0.rateWindowSeconds = 0 },
        Case(name: "too many B-frames", setting: "encoder.bFrames", value: "17") { $0.bFrames = 17 },
        Case(name: "negative threads", setting: "encoder.threads", value: "-1") { $0.threads = -1 },
        Case(name: "huge frame delay", setting: "encoder.maxFrameDelay", value: "251") { $0.maxFrameDelay = 251 },
    ]

    static var valid: EncoderSettings {
        EncoderSettings(size: VideoSize(width: 320, height: 180), frameRate: FrameRate(numerator: 30), bitrateKbps: 800)
    }

    @Test func defaultsAreValid() {
        #expect(Self.valid.validate().isEmpty)
    }

    @Test(arguments: cases)
    func eachProblemNamesTheSettingAndValue(_ c: Case) throws {
        var settings = Self.valid
        c.change(&settings)
        let problems = settings.validate()
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(problem.setting == c.setting)
        #expect(problem.value == c.value)
        #expect(!problem.allowed.isEmpty)
        #expect(problem.description.hasPrefix("\(c.setting): \(c.value) is not allowed ("))
    }

    @Test func everyProblemIsReportedAtOnce() {
        var settings = Self.valid
        for c in Self.cases where ["odd width", "unknown preset", "baseline with CABAC", "zero fps"].contains(c.name) {
            c.change(&settings)
        }
        #expect(settings.validate().map(\.setting) == ["encoder.size", "encoder.frameRate", "encoder.preset", "encoder.entropy"])
    }

    @Test func prefixIsTheConfigKeyPath() {
        var settings = Self.valid
        settings.bitrateKbps = 1
        #expect(settings.validate(prefix: "streams.front.encoder").map(\.setting) == ["streams.front.encoder.bitrateKbps"])
    }

    @Test func presetProblemListsX264Presets() throws {
        var settings = Self.valid
        settings.preset = "fastest"
        let problem = try #require(settings.validate().first)
        #expect(problem.allowed.contains("ultrafast") && problem.allowed.contains("placebo"))
        #expect(EncoderSettings.presetNames.first == "ultrafast")
        #expect(EncoderSettings.presetNames.count == 10)
    }

    @Test(arguments: ["1b", "1", "1.0", "3.1", "4", "4.0", "5.2", "6.2"])
    func knownLevelsAreAccepted(_ level: String) {
        var settings = Self.valid
        settings.level = level
        #expect(settings.validate().isEmpty)
    }

    struct KeyintCase: Sendable {
        var fps: FrameRate
        var seconds: Double
        var frames: Int?
        var expected: Int
    }

    @Test(arguments: [
        KeyintCase(fps: FrameRate(numerator: 30), seconds: 2, frames: nil, expected: 60),
        KeyintCase(fps: FrameRate(numerator: 30000, denominator: 1001), seconds: 2, frames: nil, expected: 60),
        KeyintCase(fps: FrameRate(numerator: 30), seconds: 2, frames: 45, expected: 45),
        KeyintCase(fps: FrameRate(numerator: 25), seconds: 1, frames: 100, expected: 25),
        KeyintCase(fps: FrameRate(numerator: 5), seconds: 0.05, frames: nil, expected: 1),
    ])
    func keyframeIntervalTakesTheSmaller(_ c: KeyintCase) {
        var settings = Self.valid
        settings.frameRate = c.fps
        settings.keyframeIntervalSeconds = c.seconds
        settings.keyframeIntervalFrames = c.frames
        #expect(settings.keyframeIntervalInFrames == c.expected)
    }

    @Test func vbvFollowsFactorAndWindow() {
        var settings = Self.valid
        settings.maxRateFactor = 1.5
        settings.rateWindowSeconds = 2
        #expect(settings.maxBitrateKbps(forAverage: 2000) == 3000)
        // Drained at 2000 kbit/s, a 2000 kbit buffer lets a 2 s window carry at most 2000 + 2 × 2000
        // = 6000 kbit: 1.5 × the average over 2 s.
        #expect(settings.vbvBufferKbits(forAverage: 2000) == 2000)
    }

    /// For SRT outputs: a full buffer crosses a link at the average rate within the burst limit.
    @Test func aBurstLimitBoundsTheBufferAboveOneFrame() {
        var settings = Self.valid
        settings.frameRate = FrameRate(numerator: 30)
        #expect(settings.vbvBufferKbits(forAverage: 1200) == 600)  // 1.5 over 1 s: half a second
        settings.burstLimitSeconds = 0.125
        #expect(settings.vbvBufferKbits(forAverage: 1200) == 150)
        #expect(settings.vbvBufferKbits(forAverage: 420) == 53)  // 52.5, rounded up
        settings.burstLimitSeconds = 0.01
        #expect(settings.vbvBufferKbits(forAverage: 1200) == 40)  // one frame at 30 fps
    }

    @Test func vbvBufferNeverDropsBelowOneFrame() {
        var settings = Self.valid
        settings.frameRate = FrameRate(numerator: 25)
        settings.maxRateFactor = 1.0  // no burst allowed: x264 still needs one average frame of room
        #expect(settings.vbvBufferKbits(forAverage: 1000) == 40)
    }
}
