import Media
import Testing

@testable import Overlay

/// A frame the encoder will scale (a camera that could not give the stream's size): the overlay is
/// drawn before the scaler, so an item's height and margin, given in the stream's pixels, must be
/// drawn at the frame's scale, against the part of the frame the stream shows.
@Suite struct OverlayScaledStreamTests {
    static let item = OverlayItem(
        text: "CAM 12", position: .topLeft, margin: 10, height: 24, colour: .white, contrast: .box(.black, alpha: 1))

    struct Box: CustomStringConvertible {
        var x: ClosedRange<Int>
        var y: ClosedRange<Int>
        var width: Int { x.count }
        var height: Int { y.count }
        var description: String { "x \(x) y \(y)" }
    }

    /// The rows and columns of the luma plane (I420) the overlay changed.
    static func drawnBox(
        frameWidth: Int, frameHeight: Int, stream: VideoSize?, scaling: ScalingMode = .fit, item: OverlayItem = item
    ) throws -> Box {
        let frame = OverlayBlendTests.frame(.i420, width: frameWidth, height: frameHeight)
        let before = OverlayBlendTests.snapshot(frame)
        let stage = try OverlayStage(settings: OverlaySettings(items: [item]), stream: stream, scaling: scaling)
        let seen = stage.filter(frame, then: OverlayBlendTests.snapshot)
        let changed = (0..<(frameWidth * frameHeight)).filter { before[$0] != seen[$0] }
        let xs = changed.map { $0 % frameWidth }
        let ys = changed.map { $0 / frameWidth }
        return Box(x: try #require(xs.min())...(try #require(xs.max())), y: try #require(ys.min())...(try #require(ys.max())))
    }

    /// The same text drawn on a frame already at the stream's size: what the scaled one must become.
    static func atStreamSize(_ item: OverlayItem = item) throws -> Box {
        try drawnBox(frameWidth: 320, frameHeight: 180, stream: VideoSize(width: 320, height: 180), item: item)
    }

    @Test(arguments: [ScalingMode.fit, .fill, .stretch])
    func aFrameTwiceTheStreamsSizeGetsTextTwiceAsLarge(_ scaling: ScalingMode) throws {
        let reference = try Self.atStreamSize()
        let scaled = try Self.drawnBox(frameWidth: 640, frameHeight: 360, stream: VideoSize(width: 320, height: 180), scaling: scaling)
        // Halved by the encoder's scaler, the box is the reference's size within a few pixels, at
        // the same margin. Not exactly: FreeType's em is a whole number of pixels and each glyph's
        // advance is hinted to whole pixels, at 24 and at 48 pixels alike (seen: 160x64 against
        // twice 72x30). Drawn at the frame's own scale instead, it would be half as large.
        #expect(abs(scaled.height - 2 * reference.height) <= 2 * reference.height / 10, "scaled \(scaled), reference \(reference)")
        #expect(abs(scaled.width - 2 * reference.width) <= 2 * reference.width * 15 / 100, "scaled \(scaled), reference \(reference)")
        #expect(abs(scaled.x.lowerBound - 2 * reference.x.lowerBound) <= 2 && abs(scaled.y.lowerBound - 2 * reference.y.lowerBound) <= 2)
    }

    @Test func aSmallerFrameGetsSmallerTextInTheOppositeCorner() throws {
        let item = OverlayItem(text: "CAM 12", position: .bottomRight, margin: 20, height: 40, contrast: .box(.black, alpha: 1))
        let reference = try Self.atStreamSize(item)
        let scaled = try Self.drawnBox(frameWidth: 160, frameHeight: 90, stream: VideoSize(width: 320, height: 180), item: item)
        #expect(abs(2 * scaled.height - reference.height) <= reference.height / 5, "scaled \(scaled), reference \(reference)")
        #expect(abs(2 * (160 - scaled.x.upperBound) - (320 - reference.x.upperBound)) <= 4, "scaled \(scaled), reference \(reference)")
        #expect(abs(2 * (90 - scaled.y.upperBound) - (180 - reference.y.upperBound)) <= 4, "scaled \(scaled), reference \(reference)")
    }

    /// `fill` with a 4:3 frame in a 16:9 stream: the encoder cuts rows off the top and bottom, so the
    /// margin counts from the first row it keeps.
    @Test func fillCountsTheMarginFromTheRowsTheStreamKeeps() throws {
        let scaled = try Self.drawnBox(frameWidth: 640, frameHeight: 480, stream: VideoSize(width: 320, height: 180), scaling: .fill)
        let reference = try Self.atStreamSize()
        let kept = ScaleGeometry(sourceWidth: 640, sourceHeight: 480, width: 320, height: 180, mode: .fill).source
        #expect(kept.y == 60 && kept.height == 360)
        #expect(abs(scaled.y.lowerBound - (kept.y + 2 * reference.y.lowerBound)) <= 2, "scaled \(scaled), reference \(reference)")
        #expect(abs(scaled.height - 2 * reference.height) <= 2 * reference.height / 10, "scaled \(scaled), reference \(reference)")
    }

    @Test func framingIsTheWholeFrameAtTheStreamsSize() {
        let framing = StreamFraming(frameWidth: 640, frameHeight: 360, stream: VideoSize(width: 640, height: 360), scaling: .fill)
        #expect(framing.isIdentity && framing.width == 640 && framing.height == 360)
    }
}
