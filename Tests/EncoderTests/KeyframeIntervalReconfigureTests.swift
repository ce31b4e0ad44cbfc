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
