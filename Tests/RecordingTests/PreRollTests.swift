import Media
import Testing

@testable import Recording

@Suite struct PreRollTests {
    /// 30 fps video with a keyframe every 30 frames, `seconds` long, 1000 bytes a picture.
    static func pictures(seconds: Int) -> [MediaPacket] {
        (0..<(seconds * 30)).map { (frame: Int) -> MediaPacket in
            let time: Int64 = Int64(frame) * 1000 / 30
            return MediaPacket(
                codec: .h264, decoderConfiguration: DecoderConfiguration(parameterSets: [[0x67], [0x68]]), isKeyframe: frame % 30 == 0,
                dts: time, pts: time, captureTime: 0, units: [[UInt8](repeating: 1, count: 996)])
        }
    }

    @Test func keepsWholeKeyframeIntervalsReachingBackAtLeastItsSeconds() {
        var preRoll = PreRoll(seconds: 3, maxBytes: 1 << 30)
        for packet in Self.pictures(seconds: 10) { preRoll.append(packet) }
        let kept = preRoll.take()
        #expect(kept.first?.isKeyframe == true)
        let span = (kept.last?.dts ?? 0) - (kept.first?.dts ?? 0)
        #expect(span >= 3000 && span < 4000, "\(span) ms")
        #expect(preRoll.packets.isEmpty && preRoll.bytes == 0)
    }

    @Test func neverHoldsMoreThanItsBytesBeyondTheIntervalInProgress() {
        var preRoll = PreRoll(seconds: 30, maxBytes: 45_000)
        for packet in Self.pictures(seconds: 10) { preRoll.append(packet) }
        #expect(preRoll.packets.first?.isKeyframe == true)
        #expect(preRoll.bytes <= 45_000, "\(preRoll.bytes)")
    }
}
