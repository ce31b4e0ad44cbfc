import Conversion
import Media
import Testing

@testable import Overlay

/// A frame of another size than the stream's (a camera that could not give it): the conversion
/// stage scales it first and the overlay draws on the scaled picture, so an item's height, margin
/// and corner, given in the stream's pixels, land exactly where they land on a frame that came at
/// the stream's size, in every scaling mode.
@Suite struct OverlayScaledStreamTests {
    /// An opaque red box: its luma (about 91) is neither the source's (100...156) nor the bars' (16),
    /// so every pixel it covers changes, on the picture and on `fit`'s bars alike.
    static let box = OverlayContrast.box(OverlayColour(red: 200, green: 40, blue: 40), alpha: 1)
    static let item = OverlayItem(text: "CAM 12", position: .topLeft, margin: 10, height: 24, colour: .white, contrast: box)
    static let stream = VideoSize(width: 320, height: 180)

    struct Box: Equatable, CustomStringConvertible {
        var x: ClosedRange<Int>
        var y: ClosedRange<Int>
        var description: String { "x \(x) y \(y)" }
    }

    /// The rows and columns of the stream's luma plane the overlay changed, for a `frameWidth`×
    /// `frameHeight` I420 source taken through conversion then the overlay, as the pipeline does.
    static func drawnBox(
        frameWidth: Int, frameHeight: Int, scaling: ScalingMode = .fit, item: OverlayItem = item
    ) throws -> Box {
        let frame = OverlayBlendTests.frame(.i420, width: frameWidth, height: frameHeight)
        let conversion = ConversionStage(size: stream, scaling: scaling)
        let overlay = try OverlayStage(settings: OverlaySettings(items: [item]))
        let (before, seen, size) = try conversion.convert(frame) { picture in
            (OverlayBlendTests.snapshot(picture), overlay.filter(picture, then: OverlayBlendTests.snapshot), (picture.width, picture.height))
        }
        #expect(size == (stream.width, stream.height), "the overlay draws on the stream's picture")
        let luma = stream.width * stream.height
        let changed = (0..<luma).filter { before[$0] != seen[$0] }
        let xs = changed.map { $0 % stream.width }
        let ys = changed.map { $0 / stream.width }
        return Box(x: try #require(xs.min())...(try #require(xs.max())), y: try #require(ys.min())...(try #require(ys.max())))
    }

    @Test(arguments: [ScalingMode.fit, .fill, .stretch])
    func aFrameTwiceTheStreamsSizeGetsTextAtTheStreamsSize(_ scaling: ScalingMode) throws {
        let reference = try Self.drawnBox(frameWidth: 320, frameHeight: 180)
        #expect(reference.x.lowerBound == 10 && reference.y.lowerBound == 10, "\(reference)")
        #expect(try Self.drawnBox(frameWidth: 640, frameHeight: 360, scaling: scaling) == reference)
    }

    @Test func aSmallerFrameGetsTheSameTextInTheOppositeCorner() throws {
        let item = OverlayItem(text: "CAM 12", position: .bottomRight, margin: 20, height: 40, contrast: Self.box)
        let reference = try Self.drawnBox(frameWidth: 320, frameHeight: 180, item: item)
        #expect(320 - reference.x.upperBound <= 22 && 180 - reference.y.upperBound <= 22, "\(reference)")
        #expect(try Self.drawnBox(frameWidth: 160, frameHeight: 90, item: item) == reference)
    }

    /// A 4:3 frame in a 16:9 stream: `fill` crops rows, `fit` leaves bars at the sides; either way
    /// the margin counts from the stream's own corner, bars included.
    @Test(arguments: [ScalingMode.fit, .fill])
    func theMarginCountsFromTheStreamsCorner(_ scaling: ScalingMode) throws {
        let reference = try Self.drawnBox(frameWidth: 320, frameHeight: 180)
        #expect(try Self.drawnBox(frameWidth: 640, frameHeight: 480, scaling: scaling) == reference)
    }
}
