import Glibc
import TestSupport
import Testing
@testable import FLV

@Suite struct FLVReaderTests {
    /// A small but complete stream: metadata, sequence header, frames (one past 0xFFFFFF ms), EOS.
    static func sampleTags() throws -> [FLVTag] {
        let muxer = FLVMuxer()
        let metadata = FLVMetadata(width: 640, height: 360, frameRate: 30, videoDataRate: 800, encoder: "camcast")
        let record = try AVCDecoderConfigurationRecord(sps: Fixtures.highSPS, pps: Fixtures.highPPS)
        return [
            try muxer.metadataTag(metadata),
            try muxer.sequenceHeaderTag(record, timestamp: 0),
            try muxer.videoTag(nalUnits: [[0x06, 0x05, 0x01], [0x65, 0x88, 0x80]], isKeyframe: true, dts: 0, pts: 0),
            try muxer.videoTag(nalUnits: [[0x41, 0x9A]], isKeyframe: false, dts: 33, pts: 66),
            try muxer.videoTag(nalUnits: [[0x41, 0x9B]], isKeyframe: false, dts: 0x0100_0005, pts: 0x0100_0005),
            muxer.endOfSequenceTag(timestamp: 0x0100_0005),
        ]
    }

    static func sampleFile() throws -> [UInt8] {
        FLVHeader().encoded() + [0, 0, 0, 0] + (try sampleTags()).flatMap { $0.encoded() }
    }

    @Test func readsAWholeFileAtOnce() throws {
        var reader = FLVReader()
        #expect(try reader.feed(Self.sampleFile()) == Self.sampleTags())
        #expect(reader.header == FLVHeader())
        try reader.finish()
    }

    @Test func dripFeedGivesIdenticalTags() throws {
        let file = try Self.sampleFile()
        var reader = FLVReader()
        var tags: [FLVTag] = []
        for byte in file {
            tags += try reader.feed(CollectionOfOne(byte))
        }
        try reader.finish()
        #expect(tags == (try Self.sampleTags()))
    }

    @Test(arguments: [2, 3, 7, 11, 15, 64, 4096])
    func anyChunkingGivesIdenticalTags(chunkSize: Int) throws {
        let file = try Self.sampleFile()
        var reader = FLVReader()
        var tags: [FLVTag] = []
        for start in stride(from: 0, to: file.count, by: chunkSize) {
            tags += try reader.feed(file[start..<min(start + chunkSize, file.count)])
        }
        try reader.finish()
        #expect(tags == (try Self.sampleTags()))
    }

    @Test func rejectsWrongSignatureAtTheFirstBadByte() throws {
        var reader = FLVReader()
        #expect(throws: FLVError.badSignature([0x47])) { try reader.feed([0x47]) }
        // The failure sticks: the stream position is lost.
        #expect(throws: FLVError.badSignature([0x47])) { try reader.feed([0x49, 0x46]) }
        #expect(throws: FLVError.badSignature([0x47])) { try reader.finish() }
    }

    @Test func reportsTruncatedHeaderAtFinish() throws {
        var reader = FLVReader()
        #expect(try reader.feed([0x46, 0x4C, 0x56, 0x01, 0x01]) == [])
        #expect(throws: FLVError.truncated(needed: 9, available: 5)) { try reader.finish() }
    }

    @Test func rejectsNonZeroPreviousTagSizeZero() {
        var reader = FLVReader()
        #expect(throws: FLVError.previousTagSizeMismatch(expected: 0, found: 1)) {
            try reader.feed(FLVHeader().encoded() + [0, 0, 0, 1])
        }
    }

    @Test func rejectsWrongPreviousTagSize() throws {
        let tags = try Self.sampleTags()
        var file = try Self.sampleFile()
        let firstTagEnd = 13 + tags[0].encoded().count
        file[firstTagEnd - 1] ^= 0x01
        var reader = FLVReader()
        let expected = tags[0].sizeWithoutTrailer
        #expect(throws: FLVError.previousTagSizeMismatch(expected: expected, found: expected ^ 1)) {
            try reader.feed(file)
        }
    }

    @Test func reportsTruncatedTrailingTagAtFinish() throws {
        let tags = try Self.sampleTags()
        let file = try Self.sampleFile()
        var reader = FLVReader()
        // Everything but the last three bytes: all tags except the last come out.
        #expect(try reader.feed(file.dropLast(3)) == Array(tags.dropLast()))
        let last = tags[tags.count - 1].encoded().count
        #expect(throws: FLVError.truncated(needed: last, available: last - 3)) { try reader.finish() }
    }

    /// The header claims a 16 MiB body; the reader refuses the bad type without waiting for it.
    @Test func rejectsGarbageTagHeaderBeforeItsBodyArrives() throws {
        var reader = FLVReader()
        #expect(throws: FLVError.unknownTagType(0x1F)) {
            try reader.feed(FLVHeader().encoded() + [0, 0, 0, 0] + [0x1F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0])
        }
    }

    @Test func skipsALargerHeader() throws {
        let header: [UInt8] = [0x46, 0x4C, 0x56, 0x01, 0x01, 0x00, 0x00, 0x00, 0x0C, 0xEE, 0xEE, 0xEE]
        let tag = try FLVTag(type: .video, timestamp: 1, body: [0x17, 0x02, 0, 0, 0])
        var reader = FLVReader()
        var tags: [FLVTag] = []
        for byte in header + [0, 0, 0, 0] + tag.encoded() {
            tags += try reader.feed([byte])
        }
        try reader.finish()
        #expect(tags == [tag])
        #expect(reader.header?.dataOffset == 12)
    }

    @Test func readFileReportsAMissingFileWithErrnoAndPath() {
        let path = "/nonexistent-flv-dir/missing.flv"
        #expect(throws: FLVError.io(operation: "open", path: path, errno: ENOENT)) {
            try FLVReader.readFile(atPath: path)
        }
    }

    /// An H.265 stream as Enhanced RTMP tags: read back one byte at a time, every video tag body
    /// parses as E-RTMP and the record comes back whole.
    @Test func dripFeedReadsEnhancedRTMPTags() throws {
        let muxer = FLVMuxer()
        var metadata = FLVMetadata(width: 640, height: 360, frameRate: 30, videoDataRate: 800, encoder: "camcast")
        metadata.videoCodec = .fourCC(.hevc)
        let record = try HEVCDecoderConfigurationRecord(parameterSets: HEVCFixtures.main.parameterSets)
        let tags = [
            try muxer.metadataTag(metadata),
            try muxer.sequenceStartTag(record, timestamp: 0),
            try muxer.hevcVideoTag(nalUnits: [[0x26, 0x01, 0xAF]], isKeyframe: true, dts: 0, compositionTime: 0),
            try muxer.hevcVideoTag(nalUnits: [[0x02, 0x01, 0xD0]], isKeyframe: false, dts: 33, compositionTime: 33),
            muxer.sequenceEndTag(timestamp: 33),
        ]
        let file = FLVHeader().encoded() + [0, 0, 0, 0] + tags.flatMap { $0.encoded() }
        var reader = FLVReader()
        var read: [FLVTag] = []
        for byte in file { read += try reader.feed(CollectionOfOne(byte)) }
        try reader.finish()
        #expect(read == tags)
        #expect(try FLVMetadata(scriptDataBody: read[0].body).videoCodec == .fourCC(.hevc))
        let bodies = try read.dropFirst().map { tag throws(FLVError) in try tag.videoData() }
        #expect(throws: FLVError.unknownTagType(18)) { try read[0].videoData() }
        guard case .enhanced(let start) = bodies[0] else { Issue.record("not E-RTMP: \(bodies[0])"); return }
        #expect(try HEVCDecoderConfigurationRecord(parsing: start.data) == record)
        #expect(bodies.map(\.isKeyframe) == [true, true, false, true])
        #expect(bodies.map(\.compositionTime) == [0, 0, 33, 0])
        #expect(try FLVVideoTagBody.nalUnits(fromAVCC: bodies[2].data) == [[0x02, 0x01, 0xD0]])
        #expect(bodies[3].isEndOfSequence)
    }
}
