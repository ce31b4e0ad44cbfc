import Media
import Testing
import V4L2

@Suite struct V4L2FrameLayoutTests {
    @Test func packedYUYVIsOnePlaneOfTwoBytesPerPixel() throws {
        let layout = try #require(V4L2FrameLayout(pixelFormat: .yuyv, width: 320, height: 180, bytesPerLine: 640, sizeImage: 115_200))
        #expect(layout.planes == [VideoPlane(offset: 0, bytesPerRow: 640)])
        #expect(layout.byteCount == 115_200)
    }

    @Test func nv12ChromaFollowsLumaWithTheSameStride() throws {
        // A padded stride (352 for 320 pixels) as hardware with 64-byte row alignment gives.
        let layout = try #require(V4L2FrameLayout(pixelFormat: .nv12, width: 320, height: 180, bytesPerLine: 352, sizeImage: 95_040))
        #expect(layout.planes == [
            VideoPlane(offset: 0, bytesPerRow: 352),  // Y: 180 rows of 352
            VideoPlane(offset: 63_360, bytesPerRow: 352),  // CbCr interleaved: 90 rows of 352
        ])
        #expect(layout.byteCount == 95_040)
    }

    @Test func yu12ChromaPlanesHaveHalfTheStride() throws {
        let layout = try #require(V4L2FrameLayout(pixelFormat: .i420, width: 320, height: 180, bytesPerLine: 320, sizeImage: 86_400))
        #expect(layout.planes == VideoFrame.i420Planes(width: 320, height: 180).planes)
        #expect(layout.byteCount == VideoFrame.i420Planes(width: 320, height: 180).byteCount)
    }

    @Test func missingStrideMeansTightlyPacked() throws {
        let layout = try #require(V4L2FrameLayout(pixelFormat: .bgr24, width: 10, height: 4, bytesPerLine: 0, sizeImage: 0))
        #expect(layout.planes == [VideoPlane(offset: 0, bytesPerRow: 30)])
        #expect(layout.byteCount == 120)
    }

    @Test func rejectsLayoutsNoFrameFits() {
        #expect(V4L2FrameLayout(pixelFormat: .yuyv, width: 320, height: 180, bytesPerLine: 320, sizeImage: 0) == nil)
        #expect(V4L2FrameLayout(pixelFormat: .nv12, width: 321, height: 180, bytesPerLine: 321, sizeImage: 0) == nil)
        #expect(V4L2FrameLayout(pixelFormat: .i420, width: 0, height: 180, bytesPerLine: 0, sizeImage: 0) == nil)
    }

    @Test func mjpegHasNoPlanesAndTheDriversMaximumSize() throws {
        let layout = try #require(V4L2FrameLayout(pixelFormat: .mjpeg, width: 640, height: 480, bytesPerLine: 0, sizeImage: 614_400))
        #expect(layout.planes.isEmpty)
        #expect(layout.byteCount == 614_400)
    }
}
