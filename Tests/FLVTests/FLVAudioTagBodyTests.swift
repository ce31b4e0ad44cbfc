import Testing
@testable import FLV

@Suite struct FLVAudioTagBodyTests {
    @Test func encodesGoldenSequenceHeader() throws {
        let body = FLVAudioTagBody(aacPacketType: .sequenceHeader, data: [0x11, 0x88])
        let bytes: [UInt8] = [
            0xAF,        // SoundFormat 10 (AAC) << 4 | SoundRate 3 (44 kHz) << 2 | SoundSize 1 (16-bit) << 1 | SoundType 1 (stereo)
            0x00,        // AACPacketType 0: sequence header
            0x11, 0x88,  // AudioSpecificConfig: AAC LC, 48 kHz, mono
        ]
        #expect(body.encoded() == bytes)
        #expect(try FLVAudioTagBody(parsing: bytes) == body)
    }

    @Test func encodesGoldenRawFrame() throws {
        let body = FLVAudioTagBody(aacPacketType: .raw, data: [0x21, 0x10, 0x04])
        let bytes: [UInt8] = [
            0xAF,              // AAC, 44 kHz, 16-bit, stereo (fixed for AAC)
            0x01,              // AACPacketType 1: raw frame
            0x21, 0x10, 0x04,  // the frame, as is
        ]
        #expect(body.encoded() == bytes)
        #expect(try FLVAudioTagBody(parsing: bytes) == body)
    }

    /// Some writers put the real mono/rate bits in with AAC; a reader keeps them and round-trips.
    @Test(arguments: [UInt8(0xA0), 0xA1, 0xA6, 0xAE, 0xAF])
    func acceptsAnyRateSizeAndTypeBitsWithAAC(flags: UInt8) throws {
        let body = try FLVAudioTagBody(parsing: [flags, 0x01, 0x42])
        #expect(body.flags == flags)
        #expect(body.encoded() == [flags, 0x01, 0x42])
    }

    @Test func rejectsOtherFormatsAndPacketTypes() {
        #expect(throws: FLVError.unsupportedSoundFormat(2)) { try FLVAudioTagBody(parsing: [0x2F, 0x01]) }
        #expect(throws: FLVError.unknownAACPacketType(2)) { try FLVAudioTagBody(parsing: [0xAF, 0x02]) }
    }

    @Test func everyPrefixOfTheHeaderIsTruncated() {
        for prefix in Fixtures.prefixes(of: [0xAF, 0x01]) {
            #expect(throws: FLVError.truncated(needed: 1, available: 0)) { try FLVAudioTagBody(parsing: prefix) }
        }
    }

    @Test func muxerMakesAudioTags() throws {
        let muxer = FLVMuxer()
        let config = try AudioSpecificConfig(sampleRate: 48000, channels: 1)
        let header = try muxer.audioSequenceHeaderTag(config, timestamp: 40)
        #expect(header.type == .audio)
        #expect(header.timestamp == 40)
        #expect(header.body == [0xAF, 0x00, 0x11, 0x88])
        let frame = try muxer.audioTag(aacFrame: [1, 2, 3], timestamp: 61)
        #expect(frame.encoded() == [
            0x08,                    // TagType 8: audio
            0x00, 0x00, 0x05,        // DataSize 5
            0x00, 0x00, 0x3D, 0x00,  // Timestamp 61, TimestampExtended 0
            0x00, 0x00, 0x00,        // StreamID 0
            0xAF, 0x01, 1, 2, 3,     // AUDIODATA: AAC raw frame
            0x00, 0x00, 0x00, 0x10,  // PreviousTagSize 16
        ])
        #expect(throws: FLVError.malformedAudioSpecificConfig("reserved samplingFrequencyIndex 13")) {
            try muxer.audioSequenceHeaderTag(configuration: [0x16, 0x88], timestamp: 0)
        }
    }
}
