import Foundation
import Testing
import V4L2

@Suite struct V4L2DeviceListerTests {
    static let camera = V4L2DeviceInfo(
        path: "/dev/video0", stablePaths: ["/dev/v4l/by-id/usb-Acme_Cam-video-index0"], driver: "uvcvideo",
        card: "Acme Cam", busInfo: "usb-0000:00:14.0-1", capabilities: ["video-capture", "streaming"], canCapture: true,
        formats: [
            V4L2FormatInfo(fourCC: "YUYV", description: "YUYV 4:2:2", compressed: false, supported: true, sizes: [
                V4L2FrameSizeInfo(kind: .discrete, width: 640, height: 480, frameIntervals: [
                    V4L2FrameIntervalInfo(kind: .discrete, numerator: 1, denominator: 30),
                    V4L2FrameIntervalInfo(kind: .discrete, numerator: 1001, denominator: 30000),
                    V4L2FrameIntervalInfo(kind: .discrete, numerator: 2, denominator: 15),
                ]),
            ]),
            V4L2FormatInfo(fourCC: "H264", description: "H.264", compressed: true, supported: false, sizes: [
                V4L2FrameSizeInfo(kind: .stepwise, width: 16, height: 16, maxWidth: 1920, maxHeight: 1080, stepWidth: 16, stepHeight: 16, frameIntervals: [
                    V4L2FrameIntervalInfo(kind: .continuous, numerator: 1, denominator: 60, longestNumerator: 1, longestDenominator: 1),
                ]),
            ]),
        ])

    @Test func describesEachDeviceFormatAndSizeOnItsOwnLine() {
        let busy = V4L2DeviceInfo(
            path: "/dev/video2", stablePaths: [], driver: "", card: "", busInfo: "", capabilities: [], canCapture: false,
            formats: [], error: "open failed: Device or resource busy (errno 16)")
        #expect(V4L2DeviceLister.describe([Self.camera, busy]) == """
            /dev/video0: Acme Cam (driver uvcvideo, bus usb-0000:00:14.0-1)
              stable path: /dev/v4l/by-id/usb-Acme_Cam-video-index0
              capabilities: video-capture, streaming
              YUYV  YUYV 4:2:2
                  640x480  @ 30, 29.97, 7.5 fps
              H264  H.264 [compressed, not supported by Camcast]
                  16x16 to 1920x1080 step 16x16  @ 1-60 fps

            /dev/video2: open failed: Device or resource busy (errno 16)


            """)
        #expect(V4L2DeviceLister.describe([]) == "no V4L2 devices found\n")
    }

    @Test func jsonRoundTripsAndNamesEveryField() throws {
        let text = try V4L2DeviceLister.json([Self.camera])
        let decoded = try JSONDecoder().decode([V4L2DeviceInfo].self, from: Data(text.utf8))
        #expect(decoded == [Self.camera])
        for key in ["\"path\" : \"/dev/video0\"", "\"stablePaths\"", "\"busInfo\"", "\"fourCC\" : \"YUYV\"", "\"frameIntervals\"", "\"kind\" : \"stepwise\""] {
            #expect(text.contains(key), "missing \(key)")
        }
    }

    @Test func listsVideoNodesInNumericOrderAndReportsOnesThatAreNotV4L2() throws {
        // A fake /dev: plain files named like video nodes, and names that are not video nodes.
        let dev = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-dev-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dev, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dev) }
        for name in ["video10", "video2", "videoX", "media0", "vbi0"] {
            _ = FileManager.default.createFile(atPath: dev.appendingPathComponent(name).path, contents: Data())
        }
        let devices = V4L2DeviceLister.list(devDirectory: dev.path)
        #expect(devices.map(\.path) == [dev.path + "/video2", dev.path + "/video10"])
        #expect(devices.allSatisfy { $0.error == "VIDIOC_QUERYCAP failed: Inappropriate ioctl for device (errno 25)" && !$0.canCapture })
    }
}
