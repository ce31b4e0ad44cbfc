import AudioEncoder
import Media
import Testing

/// The AudioSpecificConfig libavcodec writes (ISO 14496-3 1.6.2.1: 5 bits object type 2 = AAC-LC,
/// 4 bits sampling-frequency index, 4 bits channel configuration, 3 zero bits), byte for byte.
@Suite struct AudioSpecificConfigTests {
    @Test func mono48kHz() throws {
        let session = try AACEncoderSession(settings: AACEncoderSettings(format: AudioFormat(sampleRate: 48_000, channels: 1))) { _ in }
        defer { session.close() }
        #expect(session.audioSpecificConfig == [0x11, 0x88])
    }

    @Test func stereo44100Hz() throws {
        let session = try AACEncoderSession(settings: AACEncoderSettings(format: AudioFormat(sampleRate: 44_100, channels: 2))) { _ in }
        defer { session.close() }
        #expect(session.audioSpecificConfig == [0x12, 0x10])
    }

    @Test func everyPacketCarriesIt() throws {
        let packets = PacketCollector()
        let format = AudioFormat(sampleRate: 48_000, channels: 1)
        let session = try AACEncoderSession(settings: AACEncoderSettings(format: format)) { packets.append($0) }
        try session.encode(AudioFrame(format: format, samples: [Int16](repeating: 0, count: 4096), timestamp: MonotonicTime(nanoseconds: 1_000_000_000)))
        try session.flush()
        let all = packets.all
        #expect(!all.isEmpty)
        for packet in all {
            #expect(packet.codec == .aac)
            #expect(packet.isKeyframe)
            #expect(packet.decoderConfiguration.parameterSets == [[0x11, 0x88]])
            #expect(packet.units.count == 1)
        }
    }
}
