import Capture
import Testing

@Suite struct MJPEGStreamReaderTests {
    static func readAll<Input: Y4MByteInput>(_ reader: inout MJPEGStreamReader<Input>) throws -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var frame: [UInt8] = []
        while try reader.readFrame(into: &frame) { frames.append(frame) }
        return frames
    }

    /// Whole reads, 4 KiB chunks and one byte at a time all give back ffmpeg's images exactly.
    @Test(arguments: [1 << 20, 4096, 1])
    func splitsFFmpegsStreamIntoItsImages(chunk: Int) throws {
        let stream = try MJPEGClip.stream(frames: chunk == 1 ? 2 : 5)
        let expected = MJPEGClip.images(stream)
        try #require(expected.count == (chunk == 1 ? 2 : 5))
        var reader = MJPEGStreamReader(input: ChunkedInput(stream, chunk: chunk))
        #expect(try Self.readAll(&reader) == expected)
        #expect(reader.skippedBytes == 0)
    }

    /// Golden bytes: a minimal marker walk. An APP1 segment whose payload holds FF D9 and FF D8
    /// (an embedded thumbnail does) and scan data with stuffed FF 00 and an RST marker do not end
    /// the image; bytes between images that are not a JPEG are skipped and counted.
    @Test func walksSegmentsAndScanDataNotJustMarkersInTheBytes() throws {
        let first: [UInt8] = [
            0xFF, 0xD8,  // SOI
            0xFF, 0xE1, 0x00, 0x06, 0xFF, 0xD9, 0xFF, 0xD8,  // APP1, length 6, payload looks like EOI, SOI
            0xFF, 0xDA, 0x00, 0x02,  // SOS, length 2 (no header fields: the walker does not need them)
            0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56,  // scan data: stuffed FF 00, RST3
            0xFF, 0xD9,  // EOI
        ]
        let second: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x01, 0xFF, 0xD9]
        let garbage: [UInt8] = [0x00, 0x11, 0xFF]
        var reader = MJPEGStreamReader(input: ChunkedInput(first + garbage + second, chunk: 1))
        #expect(try Self.readAll(&reader) == [first, second])
        #expect(reader.skippedBytes == 3)
    }

    /// A frame cut short ends where the next SOI starts (a camera's truncated frame), and a stream
    /// that ends inside a frame hands out what it has: the decoder rejects both.
    @Test func truncatedFramesEndAtTheNextImageOrTheEndOfTheStream() throws {
        let images = MJPEGClip.images(try MJPEGClip.stream(frames: 3))
        let cut = Array(images[1].prefix(images[1].count / 2))
        let tail = Array(images[2].prefix(100))
        var reader = MJPEGStreamReader(input: ChunkedInput(images[0] + cut + images[2] + tail, chunk: 4096))
        #expect(try Self.readAll(&reader) == [images[0], cut, images[2], tail])
    }

    @Test func rewindStartsOverAndAPipeCannot() throws {
        let stream = try MJPEGClip.stream(frames: 2)
        var reader = MJPEGStreamReader(input: ChunkedInput(stream, chunk: 4096))
        let once = try Self.readAll(&reader)
        #expect(try reader.rewind())
        #expect(try Self.readAll(&reader) == once)
        var pipe = MJPEGStreamReader(input: ChunkedInput(stream, chunk: 4096, seekable: false))
        _ = try Self.readAll(&pipe)
        #expect(try !pipe.rewind())
    }
}
