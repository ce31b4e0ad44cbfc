import Testing
@testable import FLV

@Suite struct FLVMetadataAudioTests {
    static let metadata = FLVMetadata(
        width: 640, height: 360, frameRate: 30, videoDataRate: 1000, encoder: "camcast",
        audio: FLVMetadata.Audio(dataRate: 128, sampleRate: 48000, isStereo: false))

    /// The audio fields sit between videocodecid and encoder, in ffmpeg flvenc's order and types.
    @Test func encodesGoldenAudioFields() throws {
        let body = try Self.metadata.scriptDataBody()
        let keys = try #require(try Self.properties(body)).map(\.key)
        #expect(keys == [
            "duration", "width", "height", "videodatarate", "framerate", "videocodecid",
            "audiodatarate", "audiosamplerate", "audiosamplesize", "stereo", "audiocodecid", "encoder",
        ])
        let audio: [UInt8] = [
            0x00, 0x0D] + Array("audiodatarate".utf8) + [
            0x00, 0x40, 0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // number 128 (kbit/s)
            0x00, 0x0F] + Array("audiosamplerate".utf8) + [
            0x00, 0x40, 0xE7, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00,  // number 48000
            0x00, 0x0F] + Array("audiosamplesize".utf8) + [
            0x00, 0x40, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // number 16
            0x00, 0x06] + Array("stereo".utf8) + [
            0x01, 0x00,                                            // boolean false (mono)
            0x00, 0x0C] + Array("audiocodecid".utf8) + [
            0x00, 0x40, 0x24, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // number 10 (AAC)
        ]
        #expect(body.firstRange(of: audio) != nil)
        #expect(body[13..<18] == [0x08, 0x00, 0x00, 0x00, 0x0C])  // ECMA array of 12 fields
    }

    @Test func roundTrips() throws {
        #expect(try FLVMetadata(scriptDataBody: Self.metadata.scriptDataBody()) == Self.metadata)
        var stereo = Self.metadata
        stereo.audio?.isStereo = true
        stereo.fileSize = 10
        #expect(try FLVMetadata(scriptDataBody: stereo.scriptDataBody()) == stereo)
    }

    @Test func everyPrefixIsTruncated() throws {
        for prefix in Fixtures.prefixes(of: try Self.metadata.scriptDataBody()) {
            let error = #expect(throws: FLVError.self) { try FLVMetadata(scriptDataBody: prefix) }
            guard case .truncated = error else {
                Issue.record("prefix of \(prefix.count) bytes gave \(String(describing: error))")
                continue
            }
        }
    }

    @Test func rejectsAnAudioCodecWithoutItsFields() throws {
        let properties = Self.metadata.properties.filter { $0.key != "audiosamplerate" }
        let body = try AMF0Value.string("onMetaData").encoded() + AMF0Value.ecmaArray(properties).encoded()
        #expect(throws: FLVError.badMetadataField("audiosamplerate")) { try FLVMetadata(scriptDataBody: body) }
        let numberStereo = Self.metadata.properties.map { $0.key == "stereo" ? AMF0Property("stereo", .number(1)) : $0 }
        let body2 = try AMF0Value.string("onMetaData").encoded() + AMF0Value.ecmaArray(numberStereo).encoded()
        #expect(throws: FLVError.badMetadataField("stereo")) { try FLVMetadata(scriptDataBody: body2) }
    }

    /// The ECMA array's properties after the "onMetaData" name.
    static func properties(_ body: [UInt8]) throws -> [AMF0Property]? {
        var decoder = AMF0Decoder(body)
        _ = try decoder.decode()
        if case .ecmaArray(let properties) = try decoder.decode() { return properties }
        return nil
    }
}
