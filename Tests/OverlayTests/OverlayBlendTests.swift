import Media
import Testing

@testable import Overlay

/// Blending, per pixel format: the text's box changes, nothing outside it does, and the frame's
/// bytes are as they were once the delivery is over.
@Suite struct OverlayBlendTests {
    static let rawFormats = PixelFormat.allCases.filter { $0 != .mjpeg }
    static let item = OverlayItem(
        text: "Cam 12:34", position: .topLeft, margin: 16, height: 32, colour: .white, contrast: .box(.black, alpha: 1))

    /// A frame of `format` filled with a repeating pattern, its planes tightly packed.
    static func frame(_ format: PixelFormat, width: Int = 320, height: Int = 240) -> VideoFrame {
        let (planes, count): ([VideoPlane], Int)
        switch format {
        case .i420, .yv12:
            (planes, count) = VideoFrame.i420Planes(width: width, height: height)
        case .nv12, .nv21:
            planes = [VideoPlane(offset: 0, bytesPerRow: width), VideoPlane(offset: width * height, bytesPerRow: width)]
            count = width * height * 3 / 2
        case .yuyv, .uyvy:
            (planes, count) = ([VideoPlane(offset: 0, bytesPerRow: width * 2)], width * height * 2)
        case .rgb24, .bgr24:
            (planes, count) = ([VideoPlane(offset: 0, bytesPerRow: width * 3)], width * height * 3)
        default:
            (planes, count) = ([VideoPlane(offset: 0, bytesPerRow: width * 4)], width * height * 4)
        }
        let bytes = (0..<count).map { UInt8(100 + $0 % 57) }
        return VideoFrame(
            width: width, height: height, pixelFormat: format, planes: planes, bytes: bytes,
            timestamp: .now(), sequence: 0)
    }

    /// A copy of the bytes as the encoder sees them (an owned frame's `copiedBytes` would share
    /// the array whose bytes the stage puts back afterwards).
    static func snapshot(_ frame: VideoFrame) -> [UInt8] { frame.withUnsafeBytes { Array($0) } }

    @Test(arguments: rawFormats)
    func changesOnlyTheTextBoxAndRestores(format: PixelFormat) throws {
        let stage = try OverlayStage(settings: OverlaySettings(items: [Self.item]))
        let frame = Self.frame(format)
        let before = Self.snapshot(frame)
        let seen = stage.filter(frame, then: Self.snapshot)
        let restored = Self.snapshot(frame) == before
        #expect(restored, "the frame's bytes are put back after the delivery")

        let renderer = try OverlayRenderer(settings: OverlaySettings(items: [Self.item]))
        let placed = try #require(
            PlacedText(
                text: "Cam 12:34", item: Self.item,
                font: FontFace(path: OverlayDefaults.fontPath, height: 32), format: format, frameWidth: 320, frameHeight: 240))
        _ = renderer
        let inside = Set(try #require(placed.touchedRanges(planes: frame.planes, byteCount: before.count)).flatMap { $0 })
        let changed = before.indices.filter { before[$0] != seen[$0] }
        #expect(changed.count > inside.count / 3, "most of an opaque box's bytes change")
        #expect(changed.allSatisfy { inside.contains($0) }, "no byte outside the text's box changes")
        #expect(placed.x == 16 && placed.y == 16)
        #expect(placed.width > 100 && placed.width < 220, "9 characters 32 pixels high")
    }

    @Test(arguments: [PixelFormat.i420, .nv12, .yuyv, .uyvy, .bgra32])
    func boxAndTextGetTheirColours(format: PixelFormat) throws {
        let stage = try OverlayStage(settings: OverlaySettings(items: [Self.item]))
        let frame = Self.frame(format)
        let seen = stage.filter(frame, then: Self.snapshot)
        // The box's top-left corner (inside the padding, no glyph there) is black: luma 16 or RGB 0.
        let corner = format == .bgra32 ? (17 * 320 + 17) * 4 + 1 : format == .yuyv ? (17 * 640 + 34) : format == .uyvy ? (17 * 640 + 35) : 17 * 320 + 17
        #expect(seen[corner] == (format == .bgra32 ? 0 : 16))
        // Somewhere in the text, white: luma 235 or RGB 255.
        let rowStart = format == .bgra32 ? 4 * 320 : format == .yuyv || format == .uyvy ? 640 : 320
        let white = seen[(32 * rowStart)..<(33 * rowStart)].contains(format == .bgra32 ? 255 : 235)
        #expect(white)
    }

    @Test func bottomRightKeepsItsMargin() throws {
        let item = OverlayItem(text: "XYZ", position: .bottomRight, margin: 10, height: 24)
        let placed = try #require(
            PlacedText(
                text: "XYZ", item: item,
                font: FontFace(path: OverlayDefaults.fontPath, height: 24), format: .i420, frameWidth: 320, frameHeight: 240))
        #expect((320 - 11...320 - 9).contains(placed.x + placed.width))
        #expect((240 - 11...240 - 9).contains(placed.y + placed.height))
    }

    @Test func passesFramesThroughWithoutItems() throws {
        let stage = try OverlayStage(settings: nil)
        let frame = Self.frame(.i420)
        let untouched = stage.filter(frame, then: Self.snapshot) == Self.snapshot(frame)
        #expect(untouched)
    }

    @Test func reloadTakesEffectOnTheNextFrame() throws {
        let stage = try OverlayStage(settings: nil)
        let frame = Self.frame(.nv12)
        try stage.replace(with: OverlaySettings(items: [Self.item]))
        #expect(stage.filter(frame, then: Self.snapshot) != frame.copiedBytes())
        try stage.replace(with: nil)
        let untouched = stage.filter(frame, then: Self.snapshot) == Self.snapshot(frame)
        #expect(untouched)
    }
}

/// The planar row blend (16 samples at a time) against the one-sample formula it stands for.
@Suite struct OverlayRowBlendTests {
    @Test(arguments: [1, 15, 16, 17, 33, 200])
    func vectorsAgreeWithTheFormula(count: Int) {
        var generator = SystemRandomNumberGenerator()
        let under = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let over = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Every alpha, 0 and 255 among them.
        let alpha = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 37 + ($0 % 3 == 0 ? 0 : 255)) }
        var line = under
        line.withUnsafeMutableBufferPointer { line in
            ComponentLayer.blendRow(line.baseAddress!, over, alpha, count: count)
        }
        let expected = (0..<count).map { ComponentLayer.mix(under[$0], over[$0], alpha[$0]) }
        #expect(line == expected)
        #expect((0..<count).filter { alpha[$0] == 0 }.allSatisfy { line[$0] == under[$0] })
    }
}
