import Capture
import Media
import Testing

@Suite struct Y4MReaderTests {
    /// Reads every frame; each frame's bytes are all one value, which this returns per frame.
    static func frameValues<Input: Y4MByteInput>(_ reader: inout Y4MReader<Input>) throws -> [UInt8] {
        var values: [UInt8] = []
        var buffer: [UInt8] = []
        while try reader.readFrame(into: &buffer) {
            #expect(buffer.count == reader.header.frameByteCount)
            #expect(Set(buffer).count == 1)
            values.append(buffer[0])
        }
        return values
    }

    // 1 is the drip-feed: every byte arrives in its own read.
    @Test(arguments: [1, 2, 5, 6, 7, 383, 384, 1 << 20])
    func readsEveryFrameWhateverTheChunking(chunk: Int) throws {
        var reader = try Y4MReader(input: ChunkedInput(Y4MClip.bytes(frames: 3), chunk: chunk))
        #expect(reader.header.width == 16 && reader.header.height == 16)
        #expect(reader.header.frameRate == FrameRate(numerator: 30))
        #expect(reader.headerByteCount == "YUV4MPEG2 W16 H16 F30:1 Ip A1:1 C420jpeg\n".utf8.count)
        #expect(try Self.frameValues(&reader) == [1, 2, 3])
        #expect(reader.framesRead == 3)
    }

    @Test(arguments: [1, 4096])
    func skipsFrameParameters(chunk: Int) throws {
        var reader = try Y4MReader(input: ChunkedInput(Y4MClip.bytes(frames: 2, frameLine: "FRAME Ip XTAG=1\n"), chunk: chunk))
        #expect(try Self.frameValues(&reader) == [1, 2])
    }

    @Test func reusesTheCallersBufferStorage() throws {
        var reader = try Y4MReader(input: ChunkedInput(Y4MClip.bytes(frames: 2), chunk: 1 << 20))
        var buffer = [UInt8](repeating: 0, count: 384)
        let before = buffer.withUnsafeBytes { $0.baseAddress }
        #expect(try reader.readFrame(into: &buffer))
        #expect(try reader.readFrame(into: &buffer))
        #expect(buffer.withUnsafeBytes { $0.baseAddress } == before)
        #expect(buffer[0] == 2)
    }

    @Test func rewindsToTheFirstFrameWhenTheInputCanSeek() throws {
        var reader = try Y4MReader(input: ChunkedInput(Y4MClip.bytes(frames: 3), chunk: 7))
        var buffer: [UInt8] = []
        #expect(try reader.readFrame(into: &buffer) && reader.readFrame(into: &buffer))
        #expect(try reader.rewind())
        #expect(reader.framesRead == 0)
        #expect(try Self.frameValues(&reader) == [1, 2, 3])
    }

    @Test func cannotRewindAPipe() throws {
        var reader = try Y4MReader(input: ChunkedInput(Y4MClip.bytes(frames: 1), chunk: 7, seekable: false))
        #expect(try Self.frameValues(&reader) == [1])
        #expect(try reader.rewind() == false)
    }

    @Test(arguments: [1, 1 << 20])
    func reportsATruncatedFrame(chunk: Int) throws {
        let bytes = Y4MClip.bytes(frames: 2).dropLast(100)
        var reader = try Y4MReader(input: ChunkedInput(Array(bytes), chunk: chunk))
        var buffer: [UInt8] = []
        #expect(try reader.readFrame(into: &buffer))
        #expect(throws: Y4MError.truncatedFrame(frame: 1, received: 284, expected: 384)) { try reader.readFrame(into: &buffer) }
    }

    @Test func reportsAStreamThatEndsInsideTheFrameLine() throws {
        let bytes = Y4MClip.bytes(frames: 1) + Array("FRA".utf8)
        var reader = try Y4MReader(input: ChunkedInput(bytes, chunk: 1))
        var buffer: [UInt8] = []
        #expect(try reader.readFrame(into: &buffer))
        #expect(throws: Y4MError.truncatedFrame(frame: 1, received: 0, expected: 384)) { try reader.readFrame(into: &buffer) }
    }

    @Test(arguments: ["FRAMX\n", "FRAMEX", "frame\n"])
    func rejectsAMissingFrameMarker(line: String) throws {
        var reader = try Y4MReader(input: ChunkedInput(Y4MClip.bytes(frames: 1, frameLine: line), chunk: 1))
        var buffer: [UInt8] = []
        #expect(throws: Y4MError.missingFrameMarker(frame: 0)) { try reader.readFrame(into: &buffer) }
    }

    @Test func rejectsWhatIsNotY4MAtTheSignature() {
        // A long file without newlines must fail on its first bytes, not read on to the line limit.
        let notY4M = [UInt8](repeating: 0x52, count: 100_000)
        #expect(throws: Y4MError.notYUV4MPEG2) { try Y4MReader(input: ChunkedInput(notY4M, chunk: 1)) }
        #expect(throws: Y4MError.notYUV4MPEG2) { try Y4MReader(input: ChunkedInput([], chunk: 1)) }
    }

    @Test func rejectsATruncatedOrOverlongHeader() {
        #expect(throws: Y4MError.truncatedHeader) { try Y4MReader(input: ChunkedInput(Array("YUV4MPEG2 W16 H16".utf8), chunk: 1)) }
        #expect(throws: Y4MError.truncatedHeader) { try Y4MReader(input: ChunkedInput(Array("YUV4MP".utf8), chunk: 1)) }
        let long = Array("YUV4MPEG2 W16 H16 F30:1 X".utf8) + [UInt8](repeating: 0x41, count: 5000) + [0x0A]
        #expect(throws: Y4MError.lineTooLong(limit: 4096)) { try Y4MReader(input: ChunkedInput(long, chunk: 64)) }
    }
}
