import Testing
import V4L2

/// Which queue a node's capability bits (`V4L2_CAP_*`, as vivid and mem2mem drivers report them in
/// `device_caps`) lead to; the queues themselves are driven against vivid in CaptureIntegrationTests.
@Suite struct V4L2CapabilitiesTests {
    static let videoCapture: UInt32 = 0x0000_0001
    static let videoOutput: UInt32 = 0x0000_0002
    static let videoCaptureMultiPlanar: UInt32 = 0x0000_1000
    static let videoOutputMultiPlanar: UInt32 = 0x0000_2000
    static let memoryToMemoryMultiPlanar: UInt32 = 0x0000_4000
    static let memoryToMemory: UInt32 = 0x0000_8000
    static let streaming: UInt32 = 0x0400_0000

    static func caps(_ bits: UInt32) -> V4L2Capabilities {
        V4L2Capabilities(driver: "test", card: "test", busInfo: "platform:test", bits: bits)
    }

    /// vivid's output node (0x05200002 = video output, read/write, streaming, …) and its
    /// multi-planar twin take frames; a camera does not, and says so by having no output type.
    @Test func aVideoOutputNodeTakesFramesAndACameraDoesNot() {
        let output = Self.caps(0x0520_0002)
        #expect(output.canOutput && !output.canCapture && !output.isMemoryToMemory)
        #expect(output.outputBufferType == .videoOutput)
        #expect(output.names.contains("video-output"))

        let multiPlanar = Self.caps(0x0520_2000)
        #expect(multiPlanar.outputBufferType == .videoOutputMultiPlanar)
        #expect(multiPlanar.names.contains("video-output-mplane") && !multiPlanar.names.contains("video-output"))

        let camera = Self.caps(0x0520_0005)
        #expect(!camera.canOutput && camera.outputBufferType == nil)
        #expect(camera.bufferType == .videoCapture)
    }

    /// A mem2mem encoder reports only the M2M bit: it takes frames (its output queue) but is not a
    /// camera, so `camcast devices` does not offer it as one.
    @Test func aMemoryToMemoryNodeTakesFramesButIsNoCamera() {
        let singlePlanar = Self.caps(Self.memoryToMemory | Self.streaming)
        #expect(singlePlanar.isMemoryToMemory && singlePlanar.canOutput && !singlePlanar.canCapture)
        #expect(singlePlanar.outputBufferType == .videoOutput)

        let multiPlanar = Self.caps(Self.memoryToMemoryMultiPlanar | Self.streaming)
        #expect(multiPlanar.isMemoryToMemory && multiPlanar.outputBufferType == .videoOutputMultiPlanar)
        #expect(multiPlanar.names == ["video-m2m-mplane", "streaming"])

        // Both APIs offered: single-planar, as on the capture side.
        #expect(Self.caps(Self.videoOutput | Self.videoOutputMultiPlanar).outputBufferType == .videoOutput)
    }

    @Test func bufferTypesKnowTheirDirectionAndPlanes() {
        #expect(V4L2BufferType.videoOutput.rawValue == 2 && V4L2BufferType.videoOutputMultiPlanar.rawValue == 10)
        #expect(V4L2BufferType.videoOutput.isOutput && V4L2BufferType.videoOutputMultiPlanar.isOutput)
        #expect(!V4L2BufferType.videoCapture.isOutput && !V4L2BufferType.videoCaptureMultiPlanar.isOutput)
        #expect(V4L2BufferType.videoOutputMultiPlanar.isMultiPlanar && !V4L2BufferType.videoOutput.isMultiPlanar)
    }

    /// Worded as Capture's "is not a video capture device".
    @Test func aMissingOutputQueueIsNamedWithWhatTheNodeIsInstead() {
        let error = V4L2QueueUnavailable(path: "/dev/video0", kind: "video output", reason: "capabilities are video-capture, streaming")
        #expect(error.description == "/dev/video0 is not a video output device: capabilities are video-capture, streaming")
    }
}
