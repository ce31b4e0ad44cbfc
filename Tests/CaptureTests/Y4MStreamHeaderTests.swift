import Capture
import Media
import Testing

@Suite struct Y4MStreamHeaderTests {
    /// What ffmpeg 5.1 writes for `-f lavfi -i testsrc2=size=640x360:rate=30 -pix_fmt yuv420p out.y4m`.
    static let ffmpegHeader: [UInt8] =
        Array("YUV4MPEG2".utf8)  // signature
        + Array(" W640".utf8)  // width
        + Array(" H360".utf8)  // height
        + Array(" F30:1".utf8)  // frame rate, numerator:denominator
        + Array(" Ip".utf8)  // interlacing: progressive
        + Array(" A1:1".utf8)  // pixel aspect ratio: square
        + Array(" C420jpeg".utf8)  // colour space: 4:2:0, JPEG chroma siting
        + Array(" XYSCSS=420JPEG".utf8)  // an extension, ffmpeg's own
        + [0x0A]  // end of header

    static let ffmpegValue = Y4MStreamHeader(
        width: 640, height: 360, frameRate: FrameRate(numerator: 30), interlacing: .progressive,
        pixelAspect: .init(numerator: 1, denominator: 1), colourSpace: .c420jpeg, extensions: ["YSCSS=420JPEG"])

    @Test func encodesFFmpegsHeaderByteForByte() {
        #expect(Self.ffmpegValue.encoded == Self.ffmpegHeader)
    }

    @Test func parsesFFmpegsHeader() throws {
        let header = try Y4MStreamHeader(line: Self.ffmpegHeader.dropLast())
        #expect(header == Self.ffmpegValue)
        #expect(header.frameByteCount == 640 * 360 * 3 / 2)
    }

    @Test(arguments: [
        Y4MStreamHeader(width: 16, height: 16, frameRate: FrameRate(numerator: 25)),
        Y4MStreamHeader(width: 1920, height: 1080, frameRate: FrameRate(numerator: 30000, denominator: 1001), interlacing: .topFieldFirst),
        Y4MStreamHeader(width: 720, height: 576, frameRate: FrameRate(numerator: 25), interlacing: .unknown,
                        pixelAspect: .init(numerator: 0, denominator: 0), colourSpace: .c420paldv, extensions: ["A", "B=1"]),
        Y4MStreamHeader(width: 8, height: 6, frameRate: FrameRate(numerator: 1), colourSpace: .mono),
    ])
    func roundTrips(header: Y4MStreamHeader) throws {
        let bytes = header.encoded
        #expect(bytes.last == 0x0A)
        #expect(try Y4MStreamHeader(line: bytes.dropLast()) == header)
    }

    @Test func colourSpaceDefaultsTo420jpegAndSizesFollowIt() throws {
        let bare = try Y4MStreamHeader(line: Array("YUV4MPEG2 W5 H3 F30:1".utf8))
        #expect(bare.colourSpace == nil)
        #expect(bare.effectiveColourSpace == .c420jpeg)
        // Odd sizes round chroma up: 5x3 luma + 2 × (3x2) chroma.
        #expect(bare.frameByteCount == 15 + 2 * 6)
        #expect(try Y4MStreamHeader(line: Array("YUV4MPEG2 W4 H2 F1:1 C422".utf8)).frameByteCount == 8 + 2 * 4)
        #expect(try Y4MStreamHeader(line: Array("YUV4MPEG2 W4 H2 F1:1 C444".utf8)).frameByteCount == 24)
    }

    @Test(arguments: [
        ("RIFF W64 H64 F30:1", Y4MError.notYUV4MPEG2),
        ("YUV4MPEG2 H64 F30:1", .missingParameter("W")),
        ("YUV4MPEG2 W64 F30:1", .missingParameter("H")),
        ("YUV4MPEG2 W64 H64", .missingParameter("F")),
        ("YUV4MPEG2 W64 H64 F30:0", .invalidParameter("F", value: "30:0")),
        ("YUV4MPEG2 W64 H64 F30", .invalidParameter("F", value: "30")),
        ("YUV4MPEG2 W-4 H64 F30:1", .invalidParameter("W", value: "-4")),
        ("YUV4MPEG2 W0 H64 F30:1", .invalidParameter("W", value: "0")),
        ("YUV4MPEG2 W64 H6x F30:1", .invalidParameter("H", value: "6x")),
        ("YUV4MPEG2 W64 H64 F30:1 Iz", .invalidParameter("I", value: "z")),
        ("YUV4MPEG2 W64 H64 F30:1 A1", .invalidParameter("A", value: "1")),
        ("YUV4MPEG2 W64 H64 F30:1 C420p10", .unsupportedColourSpace("420p10")),
        ("YUV4MPEG2 W64 H64 F30:1 Q7", .invalidParameter("Q", value: "7")),
    ])
    func rejectsMalformedHeaders(line: String, expected: Y4MError) {
        #expect(throws: expected) { try Y4MStreamHeader(line: Array(line.utf8)) }
    }
}
