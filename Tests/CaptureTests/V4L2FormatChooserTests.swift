@testable import Capture
import Media
import Testing
import V4L2

@Suite struct V4L2FormatChooserTests {
    static let size = VideoSize(width: 320, height: 180)

    static func format(_ fourCC: String, sizes: [(Int, Int)]) -> V4L2FormatInfo {
        V4L2FormatInfo(
            fourCC: fourCC, description: fourCC, compressed: fourCC == "MJPG",
            supported: PixelFormat(rawValue: fourCC) != nil,
            sizes: sizes.map { V4L2FrameSizeInfo(kind: .discrete, width: $0.0, height: $0.1, frameIntervals: []) })
    }

    @Test func autoPrefersWhatTheEncoderTakesAsIs() {
        let offered = [
            Self.format("MJPG", sizes: [(320, 180)]), Self.format("YUYV", sizes: [(320, 180)]),
            Self.format("NV12", sizes: [(320, 180)]),
        ]
        #expect(V4L2FormatChooser.choose(requested: nil, size: Self.size, offered: offered) == .success(.nv12))
    }

    @Test func autoSkipsAPreferredFormatThatLacksTheSize() {
        // NV12 only at 640x480, YUYV at the asked size: YUYV avoids a rescale by the driver.
        let offered = [Self.format("NV12", sizes: [(640, 480)]), Self.format("YUYV", sizes: [(320, 180)])]
        #expect(V4L2FormatChooser.choose(requested: nil, size: Self.size, offered: offered) == .success(.yuyv))
    }

    @Test func autoTakesThePreferredFormatWhenNoneHasTheSize() {
        let offered = [Self.format("YUYV", sizes: [(640, 480)]), Self.format("MJPG", sizes: [(1280, 720)])]
        #expect(V4L2FormatChooser.choose(requested: nil, size: Self.size, offered: offered) == .success(.yuyv))
    }

    @Test func autoFallsBackToOtherUsableFormatsInDriverOrder() {
        let offered = [Self.format("GREY", sizes: [(320, 180)]), Self.format("RGB3", sizes: [(320, 180)]), Self.format("NV21", sizes: [(320, 180)])]
        #expect(V4L2FormatChooser.choose(requested: nil, size: Self.size, offered: offered) == .success(.rgb24))
    }

    @Test func autoFailsWhenNothingIsUsable() {
        let offered = [Self.format("GREY", sizes: [(320, 180)]), Self.format("Y16 ", sizes: [])]
        #expect(V4L2FormatChooser.choose(requested: nil, size: Self.size, offered: offered) == .failure(.nothingUsable(offered: ["GREY", "Y16 "])))
    }

    @Test func aRequestedFormatMustBeOffered() {
        let offered = [Self.format("YUYV", sizes: [(320, 180)]), Self.format("MJPG", sizes: [(320, 180)])]
        #expect(V4L2FormatChooser.choose(requested: .mjpeg, size: Self.size, offered: offered) == .success(.mjpeg))
        #expect(V4L2FormatChooser.choose(requested: .nv12, size: Self.size, offered: offered)
            == .failure(.notOffered(requested: .nv12, offered: ["YUYV", "MJPG"])))
    }

    @Test func jpegFourCCCountsAsMotionJPEG() {
        let offered = [Self.format("JPEG", sizes: [(320, 180)])]
        #expect(V4L2FormatChooser.choose(requested: nil, size: Self.size, offered: offered) == .success(.mjpeg))
    }

    @Test func stepwiseRangesContainOnlySizesOnTheirGrid() {
        let range = V4L2FrameSizeInfo(kind: .stepwise, width: 16, height: 16, maxWidth: 1920, maxHeight: 1080, stepWidth: 16, stepHeight: 4, frameIntervals: [])
        #expect(range.contains(VideoSize(width: 320, height: 180)))
        #expect(!range.contains(VideoSize(width: 328, height: 180)))  // 312 is not a multiple of 16
        #expect(!range.contains(VideoSize(width: 1936, height: 180)))
        #expect(!range.contains(VideoSize(width: 320, height: 8)))
    }
}
