import Testing
@testable import FLV

@Suite struct FLVHeaderTests {
    @Test func encodesGoldenVideoOnlyHeader() {
        #expect(FLVHeader(hasAudio: false, hasVideo: true).encoded() == [
            0x46, 0x4C, 0x56,        // Signature "FLV"
            0x01,                    // Version 1
            0x01,                    // TypeFlags: reserved 0, audio (bit 2) 0, reserved 0, video (bit 0) 1
            0x00, 0x00, 0x00, 0x09,  // DataOffset: 9, the header's own length
        ])
    }

    @Test(arguments: [(false, false, UInt8(0x00)), (true, false, 0x04), (false, true, 0x01), (true, true, 0x05)])
    func flagsRoundTrip(hasAudio: Bool, hasVideo: Bool, flags: UInt8) throws {
        let header = FLVHeader(hasAudio: hasAudio, hasVideo: hasVideo)
        let bytes = header.encoded()
        #expect(bytes[4] == flags)
        #expect(try FLVHeader(parsing: bytes) == header)
    }

    @Test func everyShortPrefixIsTruncated() {
        let bytes = FLVHeader().encoded()
        for prefix in Fixtures.prefixes(of: bytes) {
            #expect(throws: FLVError.truncated(needed: 9, available: prefix.count)) {
                try FLVHeader(parsing: prefix)
            }
        }
    }

    @Test func rejectsWrongSignature() {
        #expect(throws: FLVError.badSignature([0x46, 0x4C, 0x58])) {
            try FLVHeader(parsing: [0x46, 0x4C, 0x58, 0x01, 0x01, 0x00, 0x00, 0x00, 0x09])
        }
        // A short non-FLV input is reported as the wrong format, not as merely short.
        #expect(throws: FLVError.badSignature([0x47])) { try FLVHeader(parsing: [0x47]) }
    }

    @Test func rejectsOtherVersions() {
        #expect(throws: FLVError.unsupportedVersion(2)) {
            try FLVHeader(parsing: [0x46, 0x4C, 0x56, 0x02, 0x01, 0x00, 0x00, 0x00, 0x09])
        }
    }

    @Test func rejectsDataOffsetBelowNine() {
        #expect(throws: FLVError.badHeaderSize(8)) {
            try FLVHeader(parsing: [0x46, 0x4C, 0x56, 0x01, 0x01, 0x00, 0x00, 0x00, 0x08])
        }
    }

    @Test func acceptsLargerDataOffset() throws {
        let header = try FLVHeader(parsing: [0x46, 0x4C, 0x56, 0x01, 0x05, 0x00, 0x00, 0x00, 0x0D])
        #expect(header.dataOffset == 13)
        #expect(header.hasAudio && header.hasVideo)
    }
}
