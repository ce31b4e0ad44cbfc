import Encoder
import Testing

/// A reload changes the keyframe interval of a running session (x264_encoder_reconfig ignores
/// i_keyint_max, so the session forces the IDRs itself).
@Suite struct KeyframeIntervalReconfigureTests {
    @Test func aShorterIntervalTakesEffectAtOnce() throws {
        // Opened with 2 s at 30 fps (keyframes at 0, 60, …); from frame 70 on, 0.5 s = 15 frames.
        let pictures = try Harness.encode(Harness.settings(), count: 130) { index, session in
            if index == 70 { try? session.reconfigure(keyframeIntervalSeconds: 0.5, frames: nil) }
        }
        let keyframes = pictures.enumerated().filter { $0.element.isKeyframe }.map(\.offset)
        #expect(keyframes == [0, 60, 75, 90, 105, 120])
    }

    @Test func backToTheOpenedIntervalHandsOverToX264() throws {
        let pictures = try Harness.encode(Harness.settings(), count: 200) { index, session in
            if index == 10 { try? session.reconfigure(keyframeIntervalSeconds: 0.5, frames: nil) }
            if index == 40 { try? session.reconfigure(keyframeIntervalSeconds: 2, frames: nil) }
        }
        let keyframes = pictures.enumerated().filter { $0.element.isKeyframe }.map(\.offset)
        // 15 and 30 forced; then x264's own 60-frame interval counts from the last IDR (30).
        #expect(keyframes == [0, 15, 30, 90, 150])
    }

    @Test func aLongerIntervalThanOpenedIsRejected() throws {
        let session = try X264EncoderSession(settings: Harness.settings(), logger: Harness.quietLogger) { _ in }
        let error = #expect(throws: EncoderError.self) {
            try session.reconfigure(keyframeIntervalSeconds: 4, frames: nil)
        }
        guard case .invalidSettings(let problems) = error else {
            Issue.record("expected invalidSettings, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.setting) == ["encoder.keyframeIntervalSeconds"])
        #expect(problems.first?.value == "120 frames")
    }
}

/// A reload's new average bitrate: x264_encoder_reconfig cannot raise an ABR target, so the
/// session re-opens x264 (one extra IDR, same parameter sets).
@Suite struct BitrateRestartTests {
    @Test func aHigherBitrateHoldsAfterTheRestart() throws {
        let settings = Harness.settings(width: 640, height: 360, kbps: 200) {
            $0.keyframeIntervalSeconds = 10
        }
        let pictures = try Harness.encode(settings, count: 180, format: .i420) { index, session in
            if index == 60 { try? session.restart(bitrateKbps: 800) }
        }
        func bytes(_ range: Range<Int>) -> Int {
            pictures[range].reduce(0) { $0 + $1.nalUnits.reduce(0) { $0 + $1.bytes.count } }
        }
        #expect(bytes(120..<180) > 2 * bytes(0..<60), "\(bytes(0..<60)) bytes before, \(bytes(120..<180)) after")
        let keyframes = pictures.enumerated().filter { $0.element.isKeyframe }.map(\.offset)
        #expect(keyframes == [0, 60], "the restart starts with an IDR")
        #expect(!pictures[60].parameterSetsChanged, "same SPS/PPS: no new sequence header")
        #expect(zip(pictures, pictures.dropFirst()).allSatisfy { $1.dts > $0.dts }, "timestamps go on")
    }

    @Test func reconfigureAloneDoesNotRaiseAnABRTarget() throws {
        // Pins the x264 limit that restart(bitrateKbps:) exists for.
        let settings = Harness.settings(width: 640, height: 360, kbps: 200) {
            $0.keyframeIntervalSeconds = 10
        }
        let pictures = try Harness.encode(settings, count: 180) { index, session in
            if index == 60 { try? session.reconfigure(bitrateKbps: 800) }
        }
        func bytes(_ range: Range<Int>) -> Int {
            pictures[range].reduce(0) { $0 + $1.nalUnits.reduce(0) { $0 + $1.bytes.count } }
        }
        #expect(bytes(120..<180) < 2 * bytes(30..<60) * 2, "\(bytes(30..<60)) per 30 before, \(bytes(120..<180)) per 60 after")
    }
}
