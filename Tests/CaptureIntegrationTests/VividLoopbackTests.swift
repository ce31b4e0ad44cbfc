import Foundation
import Media
import Testing
import V4L2

/// The V4L2 module's output side against a real driver: vivid loops the frames its video output
/// node is given into its capture node ("Loop Video", set on the capture node) when both sides
/// agree on size, pixel format and field and the input and output are both HDMI (vivid's
/// `vivid_vid_can_loop`); otherwise the capture shows noise. Runs only inside the vivid VM loaded
/// with `VividVM.loopbackOptions` (`VividLoopbackVMTests` boots it).
@Suite(.serialized, .enabled(if: VividEnvironment.insideLoopbackVM, "needs the vivid VM with output nodes: run through VividLoopbackVMTests"))
struct VividLoopbackTests {
    struct Nodes: Sendable, CustomTestStringConvertible {
        var capture: String
        var output: String
        var multiPlanar: Bool
        var testDescription: String { multiPlanar ? "multi-planar" : "single-planar" }
    }

    static let nodes = [
        Nodes(capture: "/dev/video0", output: "/dev/video1", multiPlanar: false),
        Nodes(capture: "/dev/video2", output: "/dev/video3", multiPlanar: true),
    ]
    static let width = 640
    static let height = 480
    static let frameBytes = width * 2 * height

    /// Red, green, blue, white as YUYV (limited range, BT.601 — vivid copies YUYV to YUYV
    /// unchanged, but the comparison is coarse so a driver that converts would still match).
    static let colours: [(y: UInt8, u: UInt8, v: UInt8)] = [(82, 90, 240), (145, 54, 34), (41, 240, 110), (235, 128, 128)]
    static let solidFrames: [[UInt8]] = colours.map { c in
        Array(Array(repeating: [c.y, c.u, c.y, c.v], count: frameBytes / 4).joined())
    }

    /// 640x480p59.94 (the first timing vivid lists) on both sides: both must agree, and it is a
    /// third of the default 720p's bytes for the emulated CPU to copy. vivid draws its text (format,
    /// counters) over captured frames, looped ones too, unless its OSD mode is "None".
    static func loop(_ nodes: Nodes) throws {
        try VividEnvironment.v4l2ctl(["-d", nodes.capture, "--set-dv-bt-timings", "index=0"])
        try VividEnvironment.v4l2ctl(["-d", nodes.output, "--set-dv-bt-timings", "index=0"])
        try VividEnvironment.v4l2ctl(["-d", nodes.capture, "-c", "loop_video=1,osd_text_mode=2"])
    }

    /// Frames of one solid colour go out until the capture shows that colour, then the next one:
    /// every colour must arrive, in the order queued (the output queue is FIFO), each filling the
    /// whole frame; output buffers come back (POLLOUT) with the bytes queued and rising sequence
    /// numbers, capture buffers full-size.
    @Test(.timeLimit(.minutes(3)), arguments: nodes)
    func framesQueuedOnTheOutputArriveInTheCaptureInOrder(nodes: Nodes) throws {
        try Self.loop(nodes)
        let output = try V4L2Device(path: nodes.output)
        let outputType = try output.outputQueueType()
        #expect(outputType == (nodes.multiPlanar ? .videoOutputMultiPlanar : .videoOutput))
        #expect(output.capabilities.names.contains(nodes.multiPlanar ? "video-output-mplane" : "video-output"), "\(output.capabilities.names)")
        #expect(!output.capabilities.canCapture && !output.capabilities.isMemoryToMemory)
        let yuyv = PixelFormat.yuyv.fourCC
        let outputFormat = try output.setFormat(type: outputType, fourCC: yuyv, width: Self.width, height: Self.height)
        #expect(outputFormat == V4L2GrantedFormat(fourCC: yuyv, width: 640, height: 480, bytesPerLine: 1280, sizeImage: Self.frameBytes, planeCount: 1))
        #expect(try output.format(type: outputType) == outputFormat)
        // vivid's output node answers S_PARM with ENOTTY (it runs at its DV timings' rate): no rate.
        #expect(try output.setFrameRate(type: outputType, FrameRate(numerator: 30)) == nil)

        let capture = try V4L2Device(path: nodes.capture)
        let captureType = capture.capabilities.bufferType
        #expect(captureType.isMultiPlanar == nodes.multiPlanar)
        #expect(try capture.setFormat(type: captureType, fourCC: yuyv, width: Self.width, height: Self.height) == outputFormat)

        let outputPool = try V4L2BufferPool(device: output, type: outputType, count: 4)
        let capturePool = try V4L2BufferPool(device: capture, type: captureType, count: 4)
        var run = LoopbackRun(pool: outputPool)
        for index in 0..<outputPool.count { try run.send(index) }
        try output.streamOn(outputType)
        for index in 0..<capturePool.count { try capturePool.queue(index) }
        try capture.streamOn(captureType)
        defer {
            try? capture.streamOff(captureType)
            try? output.streamOff(outputType)
        }

        let wake = try WakeEvent()
        // A wait without progress, not a time for the whole run: each colour that arrives gives the
        // next another 60 s (an emulated VM on one loaded core took longer than 60 s for all of them,
        // while every colour still came, in order).
        var deadline = MonotonicTime.now().adding(nanoseconds: 60_000_000_000)
        var seen: [Int?] = []
        var outputSequences: [UInt32] = []
        var captureSequences: [UInt32] = []
        var lastUnmatched: [UInt8] = []
        while run.colour < Self.colours.count && MonotonicTime.now() < deadline {
            let readiness = try output.waitForBuffer(on: [outputType], orWake: wake, timeoutMilliseconds: 5_000)
            try #require(readiness == .ready(reportsError: false), "the output queue gave no buffer back: \(readiness)")
            while let returned = try outputPool.dequeue() {
                #expect(returned.bytesUsed == Self.frameBytes && !returned.isError)
                outputSequences.append(returned.sequence)
                try run.send(returned.index)
            }
            while let frame = try capturePool.dequeue() {
                #expect(frame.bytesUsed == outputFormat.sizeImage && !frame.isError)
                captureSequences.append(frame.sequence)
                let colour = Self.colour(in: capturePool.bytes(of: frame.index), at: frame.dataOffset)
                if colour == nil {
                    let centre = frame.dataOffset + 240 * 1280 + 640
                    lastUnmatched = Array(capturePool.bytes(of: frame.index)[centre..<centre + 8])
                }
                seen.append(colour)
                if colour == run.colour {
                    run.colour += 1
                    deadline = MonotonicTime.now().adding(nanoseconds: 60_000_000_000)
                }
                try capturePool.queue(frame.index)
            }
        }
        let matched = seen.compactMap { $0 }
        let summary = "colours seen \(seen.suffix(40).map { $0.map(String.init) ?? "-" }.joined(separator: " ")) (last 40 of \(seen.count)); "
            + "output sequences \(outputSequences.prefix(20)) (\(outputSequences.count)); capture sequences \(captureSequences.prefix(20)) (\(captureSequences.count)); centre bytes of the last frame of no colour: \(lastUnmatched)"
        print("loopback \(nodes.testDescription): \(summary)")
        try #require(run.colour == Self.colours.count, "not every colour arrived (60 s without a new one): \(summary)")
        #expect(zip(matched, matched.dropFirst()).allSatisfy { $0 <= $1 }, "colours out of the order queued: \(summary)")
        #expect(zip(outputSequences, outputSequences.dropFirst()).allSatisfy { $0 < $1 }, "\(summary)")
        // vivid's documentation warns that looped capture counts its sequence "not 100% accurate"
        // (seen: 0, 0, 1, 3 …): it may repeat one, never go back.
        #expect(zip(captureSequences, captureSequences.dropFirst()).allSatisfy { $0 <= $1 }, "\(summary)")
    }

    /// A camera is refused as an output by name before any request; asked anyway, the kernel says
    /// only EINVAL. On the output node: a payload larger than the buffer is the driver's EINVAL,
    /// an output queue not streaming polls in error, and the wake event ends an output wait.
    @Test func aCaptureOnlyNodeIsRefusedAsAnOutputAndTheDriverChecksWhatIsQueued() throws {
        let camera = try V4L2Device(path: Self.nodes[0].capture)
        let refusal = #expect(throws: V4L2QueueUnavailable.self) { try camera.outputQueueType() }
        #expect(refusal?.description.hasPrefix("/dev/video0 is not a video output device: capabilities are video-capture, ") == true,
                "\(String(describing: refusal))")
        let kernel = #expect(throws: SystemCallError.self) { try V4L2BufferPool(device: camera, type: .videoOutput, count: 2) }
        #expect(kernel?.call == "VIDIOC_REQBUFS" && kernel?.errno == EINVAL)

        let output = try V4L2Device(path: Self.nodes[0].output)
        let type = try output.outputQueueType()
        _ = try output.setFormat(type: type, fourCC: PixelFormat.yuyv.fourCC, width: Self.width, height: Self.height)
        let pool = try V4L2BufferPool(device: output, type: type, count: 2)
        let oversize = #expect(throws: SystemCallError.self) {
            try pool.queue(0, bytesUsed: pool.bytes(of: 0).count + 1, timestampNanoseconds: 0)
        }
        #expect(oversize?.call == "VIDIOC_QBUF" && oversize?.errno == EINVAL)

        let wake = try WakeEvent()
        #expect(try output.waitForBuffer(on: [type], orWake: wake, timeoutMilliseconds: 2_000) == .ready(reportsError: true))
        wake.signal()
        #expect(try output.waitForBuffer(on: [type], orWake: wake, timeoutMilliseconds: 2_000) == .woken)
    }

    /// Which of `colours` a captured frame shows, if the same one in three 64x64 blocks (top left,
    /// centre, bottom right: the whole frame arrived, not only its first rows), each within 24 of it.
    static func colour(in buffer: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        var found: Int?
        for (left, top) in [(32, 32), (288, 208), (544, 416)] {
            var sums = (y: 0, u: 0, v: 0)
            for row in top..<top + 64 {
                for pair in stride(from: row * 1280 + left * 2, to: row * 1280 + (left + 64) * 2, by: 4) {
                    sums.y += Int(buffer[offset + pair]) + Int(buffer[offset + pair + 2])
                    sums.u += Int(buffer[offset + pair + 1])
                    sums.v += Int(buffer[offset + pair + 3])
                }
            }
            let mean = (y: sums.y / 4096, u: sums.u / 2048, v: sums.v / 2048)
            let match = colours.firstIndex { abs(Int($0.y) - mean.y) <= 24 && abs(Int($0.u) - mean.u) <= 24 && abs(Int($0.v) - mean.v) <= 24 }
            guard let match, found == nil || found == match else { return nil }
            found = match
        }
        return found
    }
}

/// The sending side of a loopback run: which colour goes out now, and the frame count that
/// stamps each frame (an even 60 fps from 1 s, as a source would).
struct LoopbackRun {
    let pool: V4L2BufferPool
    var colour = 0
    var sent: UInt64 = 0

    mutating func send(_ index: Int) throws {
        let frame = VividLoopbackTests.solidFrames[min(colour, VividLoopbackTests.colours.count - 1)]
        frame.withUnsafeBytes { pool.mutableBytes(of: index).copyMemory(from: $0) }
        try pool.queue(index, bytesUsed: frame.count, timestampNanoseconds: 1_000_000_000 + sent * 16_666_667)
        sent += 1
    }
}
