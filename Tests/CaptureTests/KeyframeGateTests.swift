import Media
import Testing

/// Media's `KeyframeGate`, the one "skip until a keyframe" every output and the recorder use.
@Suite struct KeyframeGateTests {
    static let video = DecoderConfiguration(parameterSets: [[0x67, 0x42, 0xC0, 0x1E, 0xD9], [0x68, 0xCE, 0x3C, 0x80]])
    static let audio = DecoderConfiguration(parameterSets: [[0x12, 0x10]])

    /// Picture `number` of a stream with a keyframe every 10, 33 ms apart.
    static func frame(_ number: Int, configuration: DecoderConfiguration = video) -> MediaPacket {
        let time = Int64(number) * 33
        return MediaPacket(
            codec: .h264, decoderConfiguration: configuration, isKeyframe: number % 10 == 0, dts: time, pts: time,
            captureTime: time, units: [[number % 10 == 0 ? 0x65 : 0x41, UInt8(truncatingIfNeeded: number)]])
    }

    /// An AAC packet (every one is flagged a keyframe; only video starts a run).
    static func sound(at time: Int64, configuration: DecoderConfiguration = audio) -> MediaPacket {
        MediaPacket(
            codec: .aac, decoderConfiguration: configuration, isKeyframe: true, dts: time, pts: time, captureTime: time,
            units: [[0x21, 0x00]])
    }

    @Test("nothing before a keyframe, then pass, a changed configuration announced once")
    func gate() {
        var gate = KeyframeGate()
        #expect(gate.admit(Self.frame(1)) == .skip)
        #expect(!gate.isStreaming)
        #expect(gate.admit(Self.frame(10)) == .start)
        #expect(gate.isStreaming)
        #expect(gate.admit(Self.frame(11)) == .pass)
        let other = DecoderConfiguration(parameterSets: [[0x67, 0x64], [0x68, 0xEE]])
        #expect(gate.admit(Self.frame(12, configuration: other)) == .configurationChanged)
        #expect(gate.admit(Self.frame(13, configuration: other)) == .pass)
        gate.restart()
        #expect(gate.admit(Self.frame(14, configuration: other)) == .skip)
        #expect(gate.admit(Self.frame(20, configuration: other)) == .start)
    }

    @Test("sound waits for the video's keyframe, its first packet of each run announces its configuration")
    func soundFollowsItsVideo() {
        var gate = KeyframeGate()
        #expect(gate.admit(Self.sound(at: 0)) == .skip, "an AAC 'keyframe' does not start a run")
        #expect(gate.admit(Self.frame(10)) == .start)
        #expect(!gate.hasAudioConfiguration)
        #expect(gate.admit(Self.sound(at: 340)) == .configurationChanged)
        #expect(gate.hasAudioConfiguration)
        #expect(gate.admit(Self.sound(at: 361)) == .pass)
        let stereo = DecoderConfiguration(parameterSets: [[0x11, 0x90]])
        #expect(gate.admit(Self.sound(at: 382, configuration: stereo)) == .configurationChanged)

        gate.restart()  // a dropped run: sound resumes with the next video keyframe
        #expect(gate.admit(Self.sound(at: 403, configuration: stereo)) == .skip)
        #expect(gate.admit(Self.frame(19)) == .skip)
        #expect(gate.admit(Self.frame(20)) == .start)
        #expect(gate.admit(Self.sound(at: 680, configuration: stereo)) == .configurationChanged)
    }

    @Test("an audio configuration sent with the video's at the start just passes")
    func audioConfigurationSentAtTheStart() {
        var gate = KeyframeGate()
        #expect(gate.admit(Self.frame(0)) == .start)
        gate.audioConfigurationSent(Self.audio)
        #expect(gate.admit(Self.sound(at: 10)) == .pass)
    }
}
