import Media
import Testing

@testable import Conversion

/// The stage before the overlay and the encoder: what leaves it is always the encoder's picture
/// (I420 or NV12 at the stream's size), made in place of nothing when the frame already is one.
@Suite struct ConversionStageTests {
    static let stream = VideoSize(width: 320, height: 180)

    /// A frame of `format` whose bytes count up (so planes and offsets can be told apart).
    static func frame(_ format: PixelFormat, width: Int = 320, height: Int = 180, fill: UInt8? = nil) -> VideoFrame {
        let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
        let planes: [VideoPlane]
        let count: Int
        switch format {
        case .i420, .yv12:
            planes = [.init(offset: 0, bytesPerRow: width), .init(offset: width * height, bytesPerRow: cw),
                      .init(offset: width * height + cw * ch, bytesPerRow: cw)]
            count = width * height + 2 * cw * ch
        case .nv12, .nv21:
            planes = [.init(offset: 0, bytesPerRow: width), .init(offset: width * height, bytesPerRow: 2 * cw)]
            count = width * height + 2 * cw * ch
        case .yuyv, .uyvy:
            (planes, count) = ([.init(offset: 0, bytesPerRow: 4 * cw)], 4 * cw * height)
        case .rgb24, .bgr24:
            (planes, count) = ([.init(offset: 0, bytesPerRow: 3 * width)], 3 * width * height)
        default:
            (planes, count) = ([.init(offset: 0, bytesPerRow: 4 * width)], 4 * width * height)
        }
        let bytes = (0..<count).map { fill ?? UInt8(truncatingIfNeeded: $0 % 251) }
        return VideoFrame(
            width: width, height: height, pixelFormat: format, planes: planes, bytes: bytes, timestamp: .now(), sequence: 7)
    }

    /// `frame`'s bytes lent the way a camera lends its mapped buffer, for one call of `body`.
    static func borrowed<R>(_ frame: VideoFrame, _ body: (VideoFrame) throws -> R) rethrows -> R {
        let bytes = frame.copiedBytes()
        return try bytes.withUnsafeBytes { raw in
            let loan = BorrowedPixels(raw, writable: true)
            defer { loan.endLoan() }
            return try body(VideoFrame(
                width: frame.width, height: frame.height, pixelFormat: frame.pixelFormat, planes: frame.planes,
                borrowing: loan, timestamp: frame.timestamp, sequence: frame.sequence))
        }
    }

    static func address(_ frame: VideoFrame) -> UnsafeRawPointer? { frame.withUnsafeBytes { $0.baseAddress } }

    @Test(arguments: [PixelFormat.i420, .nv12])
    func theEncodersPictureGoesOnUntouchedAndStillBorrowed(_ format: PixelFormat) throws {
        let stage = ConversionStage(size: Self.stream, scaling: .fit)
        try Self.borrowed(Self.frame(format)) { camera in
            try stage.convert(camera) { picture in
                #expect(picture.isBorrowed && Self.address(picture) == Self.address(camera), "no copy")
                #expect(picture.pixelFormat == format && picture.planes == camera.planes)
            }
        }
        #expect(stage.cost.frames == 1 && stage.cost.framesConverted == 0 && stage.cost.buffersMade == 0)
    }

    @Test func yv12IsRenamedI420WithoutACopy() throws {
        let stage = ConversionStage(size: Self.stream, scaling: .fit)
        let yv12 = Self.frame(.yv12)
        try stage.convert(yv12) { picture in
            #expect(picture.pixelFormat == .i420 && Self.address(picture) == Self.address(yv12))
            #expect(picture.planes == [yv12.planes[0], yv12.planes[2], yv12.planes[1]])
        }
        #expect(stage.cost.buffersMade == 0)
    }

    /// Packed 4:2:2 becomes NV12 in one pool buffer that every later frame reuses.
    @Test(arguments: [PixelFormat.yuyv, .uyvy, .nv21])
    func otherFormatsAtTheStreamsSizeBecomeNV12InAReusedBuffer(_ format: PixelFormat) throws {
        let stage = ConversionStage(size: Self.stream, scaling: .fit)
        let frame = Self.frame(format)
        let source = frame.copiedBytes()
        var addresses: Set<UnsafeRawPointer?> = []
        for _ in 0..<10 {
            try Self.borrowed(frame) { camera in
                try stage.convert(camera) { picture in
                    #expect(picture.pixelFormat == .nv12 && picture.width == 320 && picture.height == 180)
                    #expect(picture.timestamp == camera.timestamp && picture.sequence == 7)
                    addresses.insert(Self.address(picture))
                    let luma = picture.withUnsafeBytes { Array($0.prefix(8)) }
                    // YUYV's luma is every even byte, UYVY's every odd one; NV21's is its first plane.
                    let expected = format == .nv21 ? Array(source.prefix(8))
                        : (0..<8).map { source[2 * $0 + (format == .uyvy ? 1 : 0)] }
                    #expect(luma == expected)
                }
            }
        }
        #expect(addresses.count == 1 && stage.cost.buffersMade == 1 && stage.cost.framesConverted == 10)
        #expect(stage.cost.frames == 10 && stage.cost.cpuNanoseconds > 0)
    }

    /// The encoder stage waits for room for a placeholder rather than drop it
    /// (`EncoderStage.whenFull`): a converted placeholder must still say it is one, and a
    /// converted camera frame must not.
    @Test(arguments: [PixelFormat.yuyv, .rgb24])
    func aConvertedPictureIsAPlaceholderIfItsFrameWas(_ format: PixelFormat) throws {
        let stage = ConversionStage(size: Self.stream, scaling: .fit)
        var placeholder = Self.frame(format)
        placeholder.isPlaceholder = true
        let converted = try [placeholder, Self.frame(format)].map { frame in
            try stage.convert(frame) { picture in
                #expect(picture.pixelFormat == .nv12 || picture.pixelFormat == .i420)
                return picture.isPlaceholder
            }
        }
        #expect(converted == [true, false])
        #expect(stage.cost.framesConverted == 2)
    }

    /// x265 reads I420 only: for it, NV12 and the formats that would become NV12 become I420 here,
    /// outside the encoder's lock (its backend would split NV12 under the lock otherwise).
    @Test(arguments: [PixelFormat.nv12, .nv21, .yuyv, .uyvy])
    func aPlanarEncoderGetsI420(_ format: PixelFormat) throws {
        let stage = ConversionStage(size: Self.stream, scaling: .fit)
        let frame = Self.frame(format)
        let source = frame.copiedBytes()
        try stage.convert(frame, planar: true) { picture in
            #expect(picture.pixelFormat == .i420 && picture.width == 320 && picture.height == 180)
            let luma = picture.withUnsafeBytes { Array($0.prefix(8)) }
            let expected = format == .nv12 || format == .nv21 ? Array(source.prefix(8))
                : (0..<8).map { source[2 * $0 + (format == .uyvy ? 1 : 0)] }
            #expect(luma == expected)
        }
        #expect(stage.cost.framesConverted == 1)
        // I420 itself still goes on untouched.
        let i420 = Self.frame(.i420)
        try stage.convert(i420, planar: true) { #expect(Self.address($0) == Self.address(i420)) }
    }

    @Test func rgbBecomesStudioRangeI420() throws {
        let stage = ConversionStage(size: Self.stream, scaling: .fit)
        try stage.convert(Self.frame(.rgb24, fill: 255)) { picture in
            #expect(picture.pixelFormat == .i420)
            let bytes = picture.withUnsafeBytes { Array($0) }
            #expect(bytes[0..<(320 * 180)].allSatisfy { abs(Int($0) - 235) <= 1 }, "white is luma 235")
            #expect(bytes[(320 * 180)...].allSatisfy { abs(Int($0) - 128) <= 1 }, "and neutral chroma")
        }
    }

    /// A frame of another size reaches the next stage already at the stream's size (what the
    /// encoder session now insists on), scaled from a converted picture; two buffers in all.
    @Test(arguments: [PixelFormat.nv12, .yuyv, .i420, .bgra32])
    func aLargerFrameArrivesAtTheStreamsSize(_ format: PixelFormat) throws {
        let stage = ConversionStage(size: Self.stream, scaling: .fit)
        for _ in 0..<5 {
            try Self.borrowed(Self.frame(format, width: 640, height: 360)) { camera in
                try stage.convert(camera) { picture in
                    #expect(picture.pixelFormat == .i420 && picture.width == 320 && picture.height == 180)
                    #expect(picture.layoutProblem == nil && picture.byteCount == 320 * 180 * 3 / 2)
                }
            }
        }
        #expect(stage.cost.buffersMade == (format == .i420 ? 1 : 2))
    }

    /// `fit`: a 4:3 frame in a 16:9 stream sits between black bars (Y 16), 40 pixels each side.
    @Test func fitPaintsBlackBars() throws {
        let stage = ConversionStage(size: Self.stream, scaling: .fit)
        for _ in 0..<2 {
            try stage.convert(Self.frame(.i420, width: 320, height: 240, fill: 200)) { picture in
                let luma = picture.withUnsafeBytes { Array($0.prefix(320 * 180)) }
                for row in stride(from: 0, to: 180, by: 17) {
                    #expect(luma[row * 320..<row * 320 + 40].allSatisfy { $0 == 16 })
                    #expect(luma[row * 320 + 40..<row * 320 + 280].allSatisfy { $0 == 200 })
                    #expect(luma[row * 320 + 280..<row * 320 + 320].allSatisfy { $0 == 16 })
                }
            }
        }
    }

    @Test func framesItCannotReadAreRefused() throws {
        let stage = ConversionStage(size: Self.stream, scaling: .fit)
        let mjpeg = VideoFrame(
            width: 320, height: 180, pixelFormat: .mjpeg, planes: [], bytes: [0xFF, 0xD8], timestamp: .now(), sequence: 0)
        #expect(throws: ConversionError.unsupportedPixelFormat(.mjpeg)) { try stage.convert(mjpeg) { _ in } }
        let whole = Self.frame(.yuyv)
        let short = VideoFrame(
            width: 320, height: 180, pixelFormat: .yuyv, planes: whole.planes, bytes: Array(whole.copiedBytes().dropLast()),
            timestamp: .now(), sequence: 0)
        #expect(throws: ConversionError.invalidFrame("plane 0 ends at byte 115200, buffer has 115199")) {
            try stage.convert(short) { _ in }
        }
    }

    /// What the next stage throws comes out as it is, and the buffer still goes back to the pool.
    @Test func aFailureDownstreamGivesTheBufferBack() throws {
        struct Downstream: Error, Equatable {}
        let stage = ConversionStage(size: Self.stream, scaling: .fit)
        #expect(throws: Downstream()) { try stage.convert(Self.frame(.yuyv)) { _ in throw Downstream() } }
        try stage.convert(Self.frame(.yuyv)) { _ in }
        #expect(stage.cost.buffersMade == 1)
    }
}
