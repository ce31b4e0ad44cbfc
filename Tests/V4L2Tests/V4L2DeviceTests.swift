import Glibc
import Media
import Testing
import V4L2

/// What the device layer makes of nodes that are not cameras, answered by the kernel itself;
/// streaming from a real driver is tested against vivid in CaptureIntegrationTests.
@Suite struct V4L2DeviceTests {
    @Test func aMissingNodeFailsToOpenAndMeansTheDeviceIsGone() {
        let error = #expect(throws: SystemCallError.self) { try V4L2Device(path: "/dev/video-camcast-none") }
        #expect(error?.call == "open")
        #expect(error?.errno == ENOENT)
        #expect(error?.meansDeviceGone == true)
    }

    /// /dev/null opens but answers no V4L2 ioctl: the capability query names itself and ENOTTY,
    /// and the node is there (not gone), so a capture source refuses it instead of waiting.
    @Test func aNodeThatIsNotV4L2FailsItsCapabilityQuery() {
        let error = #expect(throws: SystemCallError.self) { try V4L2Device(path: "/dev/null") }
        #expect(error?.call == "VIDIOC_QUERYCAP")
        #expect(error?.errno == ENOTTY)
        #expect(error?.meansDeviceGone == false)
    }

    @Test func fourCCsReadAsV4L2CtlWritesThem() {
        #expect(V4L2Device.fourCCString(PixelFormat.yuyv.fourCC) == "YUYV")
        // Bit 31 marks the big-endian variant of a format.
        #expect(V4L2Device.fourCCString(0x2036_3159 | 0x8000_0000) == "Y16 -BE")
        // "JPEG" is Motion JPEG as well as "MJPG".
        #expect(V4L2Device.pixelFormat(fourCC: V4L2Device.jpegFourCC) == .mjpeg)
        #expect(V4L2Device.pixelFormat(fourCC: PixelFormat.mjpeg.fourCC) == .mjpeg)
        #expect(V4L2Device.pixelFormat(fourCC: 0x3436_3248) == nil)  // "H264": not a format Camcast captures
    }
}
