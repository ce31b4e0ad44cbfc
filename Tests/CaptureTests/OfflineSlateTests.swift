@testable import Capture
import Media
import Testing
import V4L2

@Suite struct OfflineSlateTests {
    @Test func yuyvRepeatsLumaCbLumaCr() throws {
        let layout = try #require(V4L2FrameLayout(pixelFormat: .yuyv, width: 4, height: 2, bytesPerLine: 8, sizeImage: 0))
        let (y, u, v) = OfflineSlate.yuv
        #expect(OfflineSlate.bytes(for: layout) == [y, u, y, v, y, u, y, v, y, u, y, v, y, u, y, v])
    }

    @Test func uyvyStartsWithChroma() throws {
        let layout = try #require(V4L2FrameLayout(pixelFormat: .uyvy, width: 2, height: 1, bytesPerLine: 4, sizeImage: 0))
        let (y, u, v) = OfflineSlate.yuv
        #expect(OfflineSlate.bytes(for: layout) == [u, y, v, y])
    }

    @Test func nv12HasLumaThenInterleavedCbCrAndLeavesPaddingAlone() throws {
        // 2x2 pixels in rows of 4 bytes: the 2 padding bytes per row stay luma-coloured filler.
        let layout = try #require(V4L2FrameLayout(pixelFormat: .nv12, width: 2, height: 2, bytesPerLine: 4, sizeImage: 0))
        let (y, u, v) = OfflineSlate.yuv
        #expect(OfflineSlate.bytes(for: layout) == [y, y, y, y, y, y, y, y, u, v, y, y])
    }

    @Test func i420AndYV12SwapTheChromaPlanes() throws {
        let i420 = try #require(V4L2FrameLayout(pixelFormat: .i420, width: 2, height: 2, bytesPerLine: 2, sizeImage: 0))
        let yv12 = try #require(V4L2FrameLayout(pixelFormat: .yv12, width: 2, height: 2, bytesPerLine: 2, sizeImage: 0))
        let (y, u, v) = OfflineSlate.yuv
        #expect(OfflineSlate.bytes(for: i420) == [y, y, y, y, u, v])
        #expect(OfflineSlate.bytes(for: yv12) == [y, y, y, y, v, u])
    }

    @Test(arguments: [PixelFormat.rgb24, .bgr24, .bgra32, .yuyv, .nv21, .i420])
    func fillsExactlyTheLayoutsByteCount(format: PixelFormat) throws {
        let layout = try #require(V4L2FrameLayout(pixelFormat: format, width: 320, height: 180, bytesPerLine: 0, sizeImage: 0))
        #expect(OfflineSlate.bytes(for: layout).count == layout.byteCount)
    }
}
