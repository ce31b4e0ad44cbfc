import Testing
@testable import FLV

@Suite struct FLVMetadataTests {
    static let metadata = FLVMetadata(width: 640, height: 360, frameRate: 30, videoDataRate: 1000, encoder: "camcast")

    @Test func encodesGoldenOnMetaData() throws {
        let expected: [UInt8] = [
            0x02, 0x00, 0x0A,                                      // string, length 10
            0x6F, 0x6E, 0x4D, 0x65, 0x74, 0x61, 0x44, 0x61, 0x74, 0x61,  // "onMetaData"
            0x08, 0x00, 0x00, 0x00, 0x07,                          // ECMA array, count 7
            0x00, 0x08, 0x64, 0x75, 0x72, 0x61, 0x74, 0x69, 0x6F, 0x6E,  // key "duration"
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // number 0
            0x00, 0x05, 0x77, 0x69, 0x64, 0x74, 0x68,              // key "width"
            0x00, 0x40, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // number 640
            0x00, 0x06, 0x68, 0x65, 0x69, 0x67, 0x68, 0x74,        // key "height"
            0x00, 0x40, 0x76, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,  // number 360
            0x00, 0x0D, 0x76, 0x69, 0x64, 0x65, 0x6F, 0x64, 0x61, 0x74, 0x61, 0x72, 0x61, 0x74, 0x65,  // "videodatarate"
            0x00, 0x40, 0x8F, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00,  // number 1000 (kbit/s)
            0x00, 0x09, 0x66, 0x72, 0x61, 0x6D, 0x65, 0x72, 0x61, 0x74, 0x65,  // key "framerate"
            0x00, 0x40, 0x3E, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // number 30
            0x00, 0x0C, 0x76, 0x69, 0x64, 0x65, 0x6F, 0x63, 0x6F, 0x64, 0x65, 0x63, 0x69, 0x64,  // "videocodecid"
            0x00, 0x40, 0x1C, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // number 7 (AVC)
            0x00, 0x07, 0x65, 0x6E, 0x63, 0x6F, 0x64, 0x65, 0x72,  // key "encoder"
            0x02, 0x00, 0x07, 0x63, 0x61, 0x6D, 0x63, 0x61, 0x73, 0x74,  // string "camcast"
            0x00, 0x00, 0x09,                                      // object end
        ]
        #expect(try Self.metadata.scriptDataBody() == expected)
    }

    @Test func doesNotAddSetDataFrame() throws {
        // librtmp's RTMP_Write adds "@setDataFrame" itself; the body must start with onMetaData.
        let body = try Self.metadata.scriptDataBody()
        #expect(try AMF0Value.decode(from: body) == .string("onMetaData"))
    }

    @Test func roundTripsWithFileSizeAndExtraFields() throws {
        var metadata = Self.metadata
        metadata.duration = 12.5
        metadata.fileSize = 123_456
        metadata.extraFields = [
            AMF0Property("stereo", .boolean(false)),
            AMF0Property("camera", .object([AMF0Property("device", .string("/dev/video0"))])),
        ]
        #expect(try FLVMetadata(scriptDataBody: metadata.scriptDataBody()) == metadata)
    }

    @Test func everyPrefixIsRejected() throws {
        for prefix in Fixtures.prefixes(of: try Self.metadata.scriptDataBody()) {
            let error = #expect(throws: FLVError.self) { try FLVMetadata(scriptDataBody: prefix) }
            guard case .truncated = error else {
                Issue.record("prefix of \(prefix.count) bytes gave \(String(describing: error))")
                continue
            }
        }
    }

    @Test func rejectsOtherScriptData() throws {
        let body = try AMF0Value.string("onTextData").encoded() + AMF0Value.ecmaArray([]).encoded()
        #expect(throws: FLVError.notOnMetaData) { try FLVMetadata(scriptDataBody: body) }
        let notArray = try AMF0Value.string("onMetaData").encoded() + AMF0Value.number(1).encoded()
        #expect(throws: FLVError.notOnMetaData) { try FLVMetadata(scriptDataBody: notArray) }
    }

    @Test func rejectsMissingOrFractionalWidth() throws {
        let withoutWidth = Self.metadata.properties.filter { $0.key != "width" }
        let body1 = try AMF0Value.string("onMetaData").encoded() + AMF0Value.ecmaArray(withoutWidth).encoded()
        #expect(throws: FLVError.badMetadataField("width")) { try FLVMetadata(scriptDataBody: body1) }

        let fractional = Self.metadata.properties.map {
            $0.key == "width" ? AMF0Property("width", .number(640.5)) : $0
        }
        let body2 = try AMF0Value.string("onMetaData").encoded() + AMF0Value.ecmaArray(fractional).encoded()
        #expect(throws: FLVError.badMetadataField("width")) { try FLVMetadata(scriptDataBody: body2) }
    }

    @Test func refusesAnOverlongEncoderString() {
        var metadata = Self.metadata
        metadata.encoder = String(repeating: "e", count: 70_000)
        #expect(throws: FLVError.stringTooLong(70_000)) { try metadata.scriptDataBody() }
    }

    @Test func locatesNumberFieldsForPatching() throws {
        let body = try Self.metadata.scriptDataBody()
        let offsets = try FLVMetadata.numberFieldOffsets(inScriptDataBody: body)
        // "onMetaData" (13) + array marker and count (5) + key "duration" (10) + number marker (1)
        #expect(offsets["duration"] == 29)
        // then the double (8) and key "width" (7) and its marker (1)
        #expect(offsets["width"] == 45)
        #expect(Array(body[45..<53]) == [0x40, 0x84, 0, 0, 0, 0, 0, 0])  // the 640 of width
        #expect(offsets["encoder"] == nil)  // a string, not a number
    }

    /// E-RTMP v1 "Enhancing onMetaData": for a FourCC codec, videocodecid is the FourCC as a
    /// number — the same double FFmpeg 8 writes for 'hvc1' (41 DA 1D 98 CC 40 00 00).
    @Test func hevcVideoCodecIDIsTheFourCCAsANumber() throws {
        var metadata = Self.metadata
        metadata.videoCodec = .fourCC(.hevc)
        let body = try metadata.scriptDataBody()
        let key: [UInt8] = [0x00, 0x0C] + Array("videocodecid".utf8)
        let at = try #require(body.indices.first { body[$0...].starts(with: key) })
        #expect(Array(body[(at + key.count)...].prefix(9)) == [
            0x00,                                            // number
            0x41, 0xDA, 0x1D, 0x98, 0xCC, 0x40, 0x00, 0x00,  // 1752589105.0 = 0x68766331 'hvc1'
        ])
        #expect(try FLVMetadata(scriptDataBody: body) == metadata)
        #expect(FLVVideoFourCC.hevc.metadataValue == 1_752_589_105)
    }

    @Test(arguments: [0.0, 1, 8, 255, 256, 1_752_589_104, 7.5, -7, Double(UInt32.max) + 1, .nan])
    func rejectsVideoCodecIDsThatNameNoCodec(value: Double) throws {
        #expect(FLVMetadataVideoCodec(metadataValue: value) == nil)
    }

    @Test func readsEveryKnownVideoCodecID() {
        for id in FLVVideoCodecID.allCases {
            #expect(FLVMetadataVideoCodec(metadataValue: Double(id.rawValue)) == .codecID(id))
        }
        for fourCC in FLVVideoFourCC.allCases {
            #expect(FLVMetadataVideoCodec(metadataValue: fourCC.metadataValue) == .fourCC(fourCC))
            #expect(fourCC.text.count == 4)
        }
    }
}
