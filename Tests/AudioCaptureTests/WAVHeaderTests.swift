@testable import AudioCapture
import Media
import Testing

/// RIFF/WAVE header parsing: golden bytes, every prefix of a good header, and each kind of bad file.
@Suite struct WAVHeaderTests {
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }

    /// A PCMWAVEFORMAT "fmt " chunk body.
    static func fmt(tag: Int = 1, channels: Int = 2, rate: Int = 44_100, bits: Int = 16, blockAlign: Int? = nil) -> [UInt8] {
        let align = blockAlign ?? channels * bits / 8
        return le16(tag) + le16(channels) + le32(rate) + le32(rate * align) + le16(align) + le16(bits)
    }

    static func chunk(_ id: String, _ body: [UInt8], declaredSize: Int? = nil) -> [UInt8] {
        Array(id.utf8) + le32(declaredSize ?? body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }

    static func riff(_ chunks: [UInt8]) -> [UInt8] { Array("RIFF".utf8) + le32(chunks.count + 4) + Array("WAVE".utf8) + chunks }

    /// A 16-bit stereo 44.1 kHz file assembled by hand from the RIFF layout, with a LIST chunk
    /// (odd-sized, so padded) before the data, where ffmpeg's writer puts its own.
    static let golden: [UInt8] = [
        0x52, 0x49, 0x46, 0x46, 0x32, 0x00, 0x00, 0x00, 0x57, 0x41, 0x56, 0x45,  // RIFF, 50, WAVE
        0x66, 0x6D, 0x74, 0x20, 0x10, 0x00, 0x00, 0x00,  // "fmt ", 16
        0x01, 0x00, 0x02, 0x00, 0x44, 0xAC, 0x00, 0x00,  // PCM, 2 channels, 44100 Hz
        0x10, 0xB1, 0x02, 0x00, 0x04, 0x00, 0x10, 0x00,  // 176400 B/s, block 4, 16 bits
        0x4C, 0x49, 0x53, 0x54, 0x03, 0x00, 0x00, 0x00, 0x61, 0x62, 0x63, 0x00,  // LIST, 3, "abc" + pad
        0x64, 0x61, 0x74, 0x61, 0x08, 0x00, 0x00, 0x00,  // data, 8
        0x01, 0x00, 0xFF, 0xFF, 0x00, 0x80, 0xFF, 0x7F,  // two stereo frames
    ]

    @Test func goldenBytes() throws {
        let header = try #require(try WAVHeader.parse(Self.golden, fileLength: Self.golden.count))
        #expect(header == WAVHeader(format: AudioFormat(sampleRate: 44_100, channels: 2), dataOffset: 56, dataLength: 8))
        #expect(header.frameCount == 2)
    }

    /// Fed one byte more at a time, the parser asks for more until the header is whole, never
    /// throws on a good prefix, and then gives the same answer as for the whole file.
    @Test func byteAtATime() throws {
        var answers: [WAVHeader] = []
        for length in 0...Self.golden.count {
            if let header = try WAVHeader.parse(Array(Self.golden[..<length]), fileLength: Self.golden.count) {
                answers.append(header)
            }
        }
        #expect(answers.count == 9)  // complete from the data chunk's header (byte 56) on
        #expect(Set(answers.map(\.dataOffset)) == [56])
    }

    @Test func extensiblePCMIsPCM() throws {
        let guidPCM: [UInt8] = [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        let body = Self.fmt(tag: 0xFFFE, channels: 1, rate: 48_000) + Self.le16(22) + Self.le16(16) + Self.le32(4) + guidPCM
        let file = Self.riff(Self.chunk("fmt ", body) + Self.chunk("data", [0, 0, 1, 0]))
        let header = try #require(try WAVHeader.parse(file, fileLength: file.count))
        #expect(header.format == AudioFormat(sampleRate: 48_000, channels: 1))
        #expect(header.frameCount == 2)
    }

    static func parseError(_ file: [UInt8]) -> WAVError? {
        #expect(throws: WAVError.self) { _ = try WAVHeader.parse(file, fileLength: file.count) }
    }

    /// Integer PCM of 8, 16, 24 and 32 bits and IEEE float of 32 and 64 bits (tag 3, or tag
    /// 0xFFFE with the float GUID): each sample format, its frame size and frame count.
    @Test(arguments: [
        (1, 8, WAVSampleFormat.unsigned8), (1, 16, .signed16), (1, 24, .signed24), (1, 32, .signed32),
        (3, 32, .float32), (3, 64, .float64),
    ])
    func everyPlayableSampleFormat(tag: Int, bits: Int, expected: WAVSampleFormat) throws {
        let frameBytes = 2 * bits / 8
        // Five whole stereo frames, and one byte that is not a frame.
        let data = Self.chunk("data", [UInt8](repeating: 0, count: 5 * frameBytes + 1))
        let file = Self.riff(Self.chunk("fmt ", Self.fmt(tag: tag, channels: 2, bits: bits)) + data)
        let header = try #require(try WAVHeader.parse(file, fileLength: file.count))
        #expect(header.sampleFormat == expected)
        #expect(header.bytesPerFrame == frameBytes)
        #expect(header.frameCount == 5)
    }

    @Test func badFiles() {
        let data = Self.chunk("data", [0, 0, 0, 0])
        #expect(Self.parseError(Array("RIFX....WAVE".utf8)) == .notRIFFWAVE)
        #expect(Self.parseError(Array("RIFF".utf8)) == .truncatedHeader(at: 4))
        #expect(Self.parseError(Self.riff(Self.chunk("fmt ", Self.fmt(tag: 6, bits: 8)) + data)) == .notPCM(formatTag: 6))
        #expect(Self.parseError(Self.riff(Self.chunk("fmt ", Self.fmt(bits: 12, blockAlign: 2)) + data)) == .unsupportedBitDepth(12))
        #expect(Self.parseError(Self.riff(Self.chunk("fmt ", Self.fmt(tag: 3, bits: 16)) + data)) == .unsupportedBitDepth(16))
        #expect(Self.parseError(Self.riff(Self.chunk("fmt ", Self.fmt()))) == .missingDataChunk)
        #expect(Self.parseError(Self.riff(data)) == .missingFormatChunk)
        #expect(Self.parseError(Self.riff(Self.chunk("fmt ", Array(Self.fmt().prefix(14))))) == .formatChunkTooShort(14))
        #expect(Self.parseError(Self.riff(Self.chunk("fmt ", Self.fmt(channels: 0)) + data)) != nil)
        #expect(Self.parseError(Self.riff(Self.chunk("fmt ", Self.fmt(channels: 2, blockAlign: 2)) + data)) != nil)
        // The data chunk says 400 bytes; 4 are there.
        #expect(
            Self.parseError(Self.riff(Self.chunk("fmt ", Self.fmt()) + Self.chunk("data", [0, 0, 0, 0], declaredSize: 400)))
                == .truncatedData(declared: 400, available: 4))
        #expect(Self.parseError(Self.riff(Self.chunk("fmt ", Self.fmt()) + Self.chunk("data", [0, 0]))) == .noSamples)
        // Cut inside the fmt chunk.
        let whole = Self.riff(Self.chunk("fmt ", Self.fmt()) + data)
        #expect(Self.parseError(Array(whole.prefix(30))) == .truncatedHeader(at: 30))
    }

    /// Streaming writers that cannot seek back leave the data size 0 or 0xFFFFFFFF: the samples
    /// run to the end of the file.
    @Test func unknownDataLengthRunsToTheEnd() throws {
        for size in [0, 0xFFFF_FFFF] {
            let file = Self.riff(Self.chunk("fmt ", Self.fmt(channels: 1)) + Self.chunk("data", [1, 0, 2, 0, 3, 0], declaredSize: size))
            let header = try #require(try WAVHeader.parse(file, fileLength: file.count))
            #expect(header.frameCount == 3)
        }
    }

    @Test func messagesSayWhatIsWrong() {
        #expect("\(WAVError.unsupportedBitDepth(12))".contains("12-bit"))
        #expect("\(WAVError.notPCM(formatTag: 6))".contains("A-law"))
        #expect("\(AudioCaptureError.badWAV(path: "/x/tone.wav", .missingDataChunk))" == "WAV file /x/tone.wav: no 'data' chunk")
    }
}
