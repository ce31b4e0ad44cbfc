import Testing
@testable import FLV

@Suite struct FLVTagTests {
    @Test func encodesGoldenTagHeaderWithExtendedTimestamp() throws {
        let header = FLVTagHeader(type: .video, dataSize: 0x000102, timestamp: 0x0102_0304)
        let bytes: [UInt8] = [
            0x09,              // Reserved 0, Filter 0, TagType 9 (video)
            0x00, 0x01, 0x02,  // DataSize 258
            0x02, 0x03, 0x04,  // Timestamp, low 24 bits of 0x01020304 ms
            0x01,              // TimestampExtended: the high 8 bits
            0x00, 0x00, 0x00,  // StreamID 0
        ]
        #expect(header.encoded() == bytes)
        #expect(try FLVTagHeader(parsing: bytes) == header)
    }

    @Test(arguments: [UInt32(0), 1, 0xFF_FFFF, 0x100_0000, 0x7FFF_FFFF, UInt32.max])
    func timestampRoundTrips(timestamp: UInt32) throws {
        let header = FLVTagHeader(type: .audio, dataSize: 7, timestamp: timestamp)
        let bytes = header.encoded()
        #expect(bytes[7] == UInt8(timestamp >> 24))  // only the extended byte holds bits 24…31
        #expect(try FLVTagHeader(parsing: bytes) == header)
    }

    @Test func encodesGoldenWholeTagWithTrailer() throws {
        let tag = try FLVTag(type: .scriptData, timestamp: 5, body: [0xAA, 0xBB])
        let bytes: [UInt8] = [
            0x12,                    // TagType 18 (script data)
            0x00, 0x00, 0x02,        // DataSize 2
            0x00, 0x00, 0x05,        // Timestamp 5 ms
            0x00,                    // TimestampExtended 0
            0x00, 0x00, 0x00,        // StreamID 0
            0xAA, 0xBB,              // body
            0x00, 0x00, 0x00, 0x0D,  // PreviousTagSize: 11 + 2
        ]
        #expect(tag.encoded() == bytes)
        #expect(try FLVTag(parsing: bytes) == tag)
    }

    @Test func everyPrefixOfATagIsTruncated() throws {
        let bytes = try FLVTag(type: .video, timestamp: 40, body: [1, 2, 3]).encoded()
        for prefix in Fixtures.prefixes(of: bytes) {
            let error = #expect(throws: FLVError.self) { try FLVTag(parsing: prefix) }
            guard case .truncated = error else {
                Issue.record("prefix of \(prefix.count) bytes gave \(String(describing: error))")
                continue
            }
        }
    }

    @Test func rejectsWrongPreviousTagSize() throws {
        var bytes = try FLVTag(type: .video, timestamp: 0, body: [1, 2]).encoded()
        bytes[bytes.count - 1] = 14
        #expect(throws: FLVError.previousTagSizeMismatch(expected: 13, found: 14)) { try FLVTag(parsing: bytes) }
    }

    @Test func rejectsUnknownEncryptedAndStreamTags() {
        #expect(throws: FLVError.unknownTagType(7)) {
            try FLVTagHeader(parsing: [0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: FLVError.encryptedTag) {
            try FLVTagHeader(parsing: [0x29, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: FLVError.nonZeroStreamID(1)) {
            try FLVTagHeader(parsing: [0x09, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
        }
    }

    @Test func ignoresReservedBits() throws {
        let header = try FLVTagHeader(parsing: [0xC9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(header.type == .video)
    }

    @Test func refusesABodyTooLargeForDataSize() throws {
        let largest = try FLVTag(type: .video, timestamp: 0, body: [UInt8](repeating: 0, count: 0xFF_FFFF))
        #expect(largest.encoded()[1...3] == [0xFF, 0xFF, 0xFF])
        #expect(throws: FLVError.tagTooLarge(0x100_0000)) {
            try FLVTag(type: .video, timestamp: 0, body: [UInt8](repeating: 0, count: 0x100_0000))
        }
    }
}
