import Testing
@testable import FLV

@Suite struct AudioSpecificConfigTests {
    @Test func encodesGoldenLC48kMono() throws {
        let config = try AudioSpecificConfig(sampleRate: 48000, channels: 1)
        // 00010 (object type 2, AAC LC) 0011 (index 3, 48 kHz) 0001 (mono) 0 0 0 (GASpecificConfig)
        #expect(config.encoded() == [0b0001_0001, 0b1000_1000])
        #expect(try AudioSpecificConfig(parsing: [0x11, 0x88]) == config)
        #expect(config.sampleRate == 48000)
        #expect(config.samplesPerFrame == 1024)
    }

    /// What ffmpeg's native AAC encoder writes for 44.1 kHz stereo (its extradata).
    @Test func parsesFFmpegsLC44kStereo() throws {
        let config = try AudioSpecificConfig(parsing: [0x12, 0x10, 0x56, 0xE5, 0x00])
        #expect(config.audioObjectType == 2)
        #expect(config.sampleRate == 44100)
        #expect(config.channelConfiguration == 2)
        #expect(config.encoded() == [0x12, 0x10])
    }

    @Test func encodesAnExplicitRate() throws {
        let config = try AudioSpecificConfig(sampleRate: 44000, channels: 2)
        #expect(config.samplingFrequencyIndex == 15)
        // 00010 1111 then 44000 in 24 bits (0x00ABE0), 0010 stereo, 000
        #expect(config.encoded() == [0b0001_0111, 0b1000_0000, 0b0101_0101, 0b1111_0000, 0b0001_0000])
        #expect(try AudioSpecificConfig(parsing: config.encoded()) == config)
    }

    @Test func encodesAnEscapedObjectType() throws {
        var config = try AudioSpecificConfig(sampleRate: 48000, channels: 1)
        config.audioObjectType = 42  // USAC: 31 then 42 − 32 = 10 in six bits
        let bytes = config.encoded()
        #expect(bytes[0] >> 3 == 31)
        #expect(try AudioSpecificConfig(parsing: bytes).audioObjectType == 42)
    }

    @Test(arguments: [8000, 16000, 22050, 32000, 44100, 48000, 96000], [1, 2, 6])
    func roundTrips(rate: Int, channels: Int) throws {
        let config = try AudioSpecificConfig(sampleRate: rate, channels: channels)
        let parsed = try AudioSpecificConfig(parsing: config.encoded())
        #expect(parsed == config)
        #expect(parsed.sampleRate == rate)
        #expect(Int(parsed.channelConfiguration) == channels)
    }

    @Test func everyPrefixIsRejected() throws {
        let bytes = try AudioSpecificConfig(sampleRate: 44000, channels: 2).encoded()
        for prefix in Fixtures.prefixes(of: bytes) {
            #expect(throws: FLVError.self) { try AudioSpecificConfig(parsing: prefix) }
        }
    }

    @Test func rejectsReservedAndNullValues() {
        #expect(throws: FLVError.malformedAudioSpecificConfig("audioObjectType 0 (null)")) {
            try AudioSpecificConfig(parsing: [0x01, 0x88])
        }
        #expect(throws: FLVError.malformedAudioSpecificConfig("reserved samplingFrequencyIndex 14")) {
            try AudioSpecificConfig(parsing: [0x17, 0x08])
        }
        #expect(throws: FLVError.malformedAudioSpecificConfig("7 channels (1…6 supported)")) {
            try AudioSpecificConfig(sampleRate: 48000, channels: 7)
        }
    }
}
