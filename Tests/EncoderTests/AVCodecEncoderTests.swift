@testable import Encoder
import Foundation
import Media
import TestSupport
import Testing

/// The libavcodec backend driven through the contract by hand, with libx264 through libavcodec
/// (the one H.264 encoder libavcodec has here without hardware), then through a session into a
/// file that ffprobe and ffmpeg read.
@Suite struct AVCodecEncoderTests {
    static func settings(zeroLatency: Bool = true, bFrames: Int = 0, name: String = "libx264", codec: VideoCodec = .h264) -> EncoderSettings {
        Harness.settings {
            $0.codec = codec
            $0.implementation = .avcodec(name)
            $0.zeroLatency = zeroLatency
            $0.bFrames = bFrames
            $0.threads = 1
            $0.keyframeIntervalSeconds = 100
        }
    }

    /// Sends frame `index` (I420 or NV12 test pattern), with the session's PTS rule: capture ms.
    static func send(_ backend: AVCodecEncoder, _ index: Int, format: PixelFormat = .i420, forceIDR: Bool = false) throws -> EncoderSendStatus {
        let frame = TestFrames.frame(format, width: 320, height: 180, index: index).frame
        return try frame.withUnsafeBytes { bytes in
            try backend.send(X264InputImage(frame, bytes: bytes), pts: TestFrames.timestamp(index).milliseconds, forceIDR: forceIDR)
        }
    }

    static func pts(_ index: Int) -> Int64 { TestFrames.timestamp(index).milliseconds }

    /// Ends the stream, receives the pictures still held, and writes them all as an Annex-B file
    /// (which the caller removes).
    static func finish(_ backend: AVCodecEncoder, _ outputs: inout [EncoderBackendOutput], writing name: String) throws -> String {
        try backend.sendEndOfStream()
        while case .picture(let picture) = try backend.receive() { outputs.append(picture) }
        let pictures = outputs.map {
            EncodedPicture(codec: .h264, units: $0.units, isKeyframe: $0.isKeyframe, pts: $0.pts, dts: $0.dts,
                           decoderConfiguration: DecoderConfiguration(parameterSets: backend.headers))
        }
        return try Harness.writeAnnexB(pictures, name: name)
    }

    @Test("with lookahead and B-frames the first pictures wait, then come out in decode order, and the end drains every one")
    func delayedPicturesDrainInOrder() throws {
        let backend = try AVCodecEncoder(settings: Self.settings(zeroLatency: false, bFrames: 2), logger: Harness.quietLogger)
        var outputs: [EncoderBackendOutput] = []
        var receivedAfterSend: [Int] = []
        for index in 0..<30 {
            while try Self.send(backend, index, format: index % 2 == 0 ? .i420 : .nv12, forceIDR: index == 0) == .full {
                guard case .picture(let picture) = try backend.receive() else { Issue.record("full, but nothing to receive"); return }
                outputs.append(picture)
            }
            while case .picture(let picture) = try backend.receive() { outputs.append(picture) }
            receivedAfterSend.append(outputs.count)
        }
        // libx264's lookahead holds the first pictures: receive said .needsInput for them.
        #expect(receivedAfterSend.prefix(3) == [0, 0, 0])
        let beforeEnd = outputs.count
        #expect(beforeEnd < 30)
        try backend.sendEndOfStream()
        drain: while true {
            switch try backend.receive() {
            case .picture(let picture): outputs.append(picture)
            case .drained: break drain
            case .needsInput: Issue.record("needsInput after the end of the stream"); break drain
            }
        }
        #expect(outputs.count == 30)
        #expect(Set(outputs.map(\.pts)) == Set((0..<30).map(Self.pts)))
        let dts = outputs.map(\.dts)
        #expect(zip(dts, dts.dropFirst()).allSatisfy { $0 < $1 }, "dts strictly increasing: \(dts)")
        #expect(outputs.contains { $0.dts < $0.pts }, "B-frames reorder: some dts below its pts")
        #expect(outputs.allSatisfy { $0.dts <= $0.pts })
        #expect(outputs.first?.isKeyframe == true)
        // Decodes, every picture, with ffmpeg's errors fatal.
        let pictures = outputs.map { EncodedPicture(codec: .h264, units: $0.units, isKeyframe: $0.isKeyframe, pts: $0.pts, dts: $0.dts, decoderConfiguration: DecoderConfiguration(parameterSets: backend.headers)) }
        let file = try Harness.writeAnnexB(pictures, name: "avcodec-delay.h264")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try FFmpegTools.decodesCleanly(file)
        #expect(try FFmpegTools.probe(file).frameCount == 30)
    }

    @Test("each picture is copied before .accepted: overwriting the caller's planes after the send changes nothing")
    func picturesAreCopiedBeforeAccepted() throws {
        let backend = try AVCodecEncoder(settings: Self.settings(zeroLatency: false), logger: Harness.quietLogger)
        let (width, height, chroma) = (320, 180, 160 * 90)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: width * height + 2 * chroma)
        buffer.initialize(repeating: 0)
        defer { buffer.deallocate() }
        let base = UnsafePointer(buffer.baseAddress!)
        let image = X264InputImage(layout: .i420, planes: [
            .init(base: base, bytesPerRow: width), .init(base: base + width * height, bytesPerRow: 160),
            .init(base: base + width * height + chroma, bytesPerRow: 160),
        ])
        var outputs: [EncoderBackendOutput] = []
        var lumas: [[UInt8]] = []
        for index in 0..<20 {
            let (y, u, v) = TestFrames.i420(width: width, height: height, index: index)
            lumas.append(y)
            _ = buffer.update(fromContentsOf: y + u + v)
            #expect(try backend.send(image, pts: Self.pts(index), forceIDR: index == 0) == .accepted)
            // The camera buffer goes back to the driver, which fills it again.
            buffer.update(repeating: 0)
            while case .picture(let picture) = try backend.receive() { outputs.append(picture) }
        }
        #expect(outputs.count < 20, "libx264's lookahead holds pictures past their send")
        let file = try Self.finish(backend, &outputs, writing: "avcodec-copied.h264")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let decoded = try FFmpegTools.decodedLuma(file, width: width, height: height)
        #expect(decoded.count == 20)
        for (index, (got, sent)) in zip(decoded, lumas).enumerated() {
            let error = zip(got, sent).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / sent.count
            // Lossy, but near the picture sent; an overwritten one would be black (~100 off).
            #expect(error < 10, "frame \(index): mean luma error \(error)")
        }
    }

    @Test("a live bitrate change on libx264 through libavcodec changes what comes out")
    func liveBitrateChangeTakesEffect() throws {
        let settings = Harness.settings(width: 640, height: 360, kbps: 4000) {
            $0.implementation = .avcodec("libx264")
            $0.keyframeIntervalSeconds = 10
            $0.preset = "ultrafast"
        }
        var failure: String?
        let pictures = try Harness.encode(settings, count: 120) { index, session in
            guard index == 60 else { return }
            do { try session.reconfigure(bitrateKbps: 300) } catch { failure = "\(error)" }
        }
        #expect(failure == nil)
        func bytes(_ range: Range<Int>) -> Int { pictures[range].reduce(0) { $0 + $1.byteCount } }
        // libx264.c hands the new rate to x264_encoder_reconfig at the next frame; skip the
        // frames right after the change while the VBV settles.
        #expect(bytes(90..<120) * 3 < bytes(30..<60), "\(bytes(30..<60)) → \(bytes(90..<120)) bytes")
    }

    @Test("sending without receiving ends in .full; receiving makes room for the same picture")
    func sendingWithoutReceivingFills() throws {
        let backend = try AVCodecEncoder(settings: Self.settings(), logger: Harness.quietLogger)
        var statuses: [EncoderSendStatus] = []
        for index in 0..<4 {
            let status = try Self.send(backend, index, forceIDR: index == 0)
            statuses.append(status)
            if status == .full { break }
        }
        // Zero latency: the first send encodes into libavcodec's one-packet buffer, the second
        // waits as its buffered frame, the third finds both taken.
        #expect(statuses == [.accepted, .accepted, .full])
        guard case .picture(let first) = try backend.receive() else { Issue.record("no picture after .full"); return }
        #expect(first.pts == Self.pts(0) && first.isKeyframe)
        // libavcodec still holds picture 1 unencoded: full until it is received too.
        #expect(try Self.send(backend, 2) == .full)
        guard case .picture(let second) = try backend.receive() else { Issue.record("no second picture"); return }
        #expect(second.pts == Self.pts(1) && !second.isKeyframe)
        #expect(try Self.send(backend, 2) == .accepted)
    }

    @Test("forceIDR makes that picture an IDR keyframe; the others are not")
    func forcedIDRIsAKeyframe() throws {
        let backend = try AVCodecEncoder(settings: Self.settings(), logger: Harness.quietLogger)
        var outputs: [EncoderBackendOutput] = []
        for index in 0..<12 {
            #expect(try Self.send(backend, index, forceIDR: index == 0 || index == 7) == .accepted)
            while case .picture(let picture) = try backend.receive() { outputs.append(picture) }
        }
        try backend.sendEndOfStream()
        while case .picture(let picture) = try backend.receive() { outputs.append(picture) }
        #expect(outputs.count == 12)
        #expect(outputs.filter(\.isKeyframe).map(\.pts) == [Self.pts(0), Self.pts(7)])
        // Each keyframe carries the parameter sets again, in front of its IDR slice.
        for keyframe in outputs.filter(\.isKeyframe) {
            let types = keyframe.units.compactMap { VideoCodec.h264.nalUnitType($0) }
            #expect(types.firstIndex(of: 7)! < types.firstIndex(of: 5)!)
            #expect(types.firstIndex(of: 8)! < types.firstIndex(of: 5)!)
        }
    }

    @Test("the stream headers from extradata are the SPS and PPS, with the configured profile")
    func headersAreSPSAndPPS() throws {
        let backend = try AVCodecEncoder(settings: Self.settings(), logger: Harness.quietLogger)
        let headers = try backend.streamHeaders()
        #expect(headers.map { VideoCodec.h264.nalUnitType($0) } == [7, 8])
        #expect(H264ParameterSets(sps: headers[0], pps: headers[1]).profileIDC == 100)
        #expect(backend.lengthSize == nil, "libx264 writes Annex-B extradata")
    }

    @Test("libx264 through libavcodec takes a new bitrate live; libx265 through it says it cannot")
    func bitrateChange() throws {
        let x264 = try AVCodecEncoder(settings: Self.settings(), logger: Harness.quietLogger)
        try x264.reconfigure(bitrateKbps: 300)
        #expect(x264.settings.bitrateKbps == 300)
        #expect(x264.context.pointee.bit_rate == 300_000)
        let x265 = try AVCodecEncoder(settings: Self.settings(name: "libx265", codec: .h265), logger: Harness.quietLogger)
        #expect(try x265.streamHeaders().count == 3)
        #expect(throws: EncoderError.bitrateChangeUnsupported(encoder: "avcodec:libx265", kbps: 800)) {
            try x265.reconfigure(bitrateKbps: 300)
        }
    }

    @Test("h264_v4l2m2m with no mem2mem encoder device fails to open, naming the encoder and libavcodec's reason")
    func mem2memWithoutADeviceFailsClearly() throws {
        let settings = Self.settings(name: "h264_v4l2m2m")
        #expect(settings.validate().isEmpty, "a known H.264 encoder is valid configuration")
        let error = #expect(throws: EncoderError.self) {
            _ = try EncoderSession(settings: settings, logger: Harness.quietLogger) { _ in }
        }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("avcodec:h264_v4l2m2m"), "\(text)")
        // libavcodec's own words from its log, not just "Invalid argument".
        #expect(text.contains("Could not find a valid device"), "\(text)")
    }

    @Test("a name libavcodec lacks, one that is not H.264/H.265, the other codec's encoder and VA-API are settings problems")
    func badNamesAreSettingsProblems() {
        func problem(_ name: String, codec: VideoCodec = .h264) -> String {
            Self.settings(name: name, codec: codec).validate().filter { $0.setting == "encoder.backend" }.map(\.description).joined()
        }
        #expect(problem("h264_nonesuch").contains("libavcodec has no encoder of that name"))
        #expect(problem("h264_nonesuch").contains("avcodec:libx264"), "names what libavcodec offers")
        #expect(!problem("h264_nonesuch").contains("libx264rgb"), "RGB-only encoders are not offered")
        #expect(problem("aac").contains("not an H.264 or H.265 encoder"))
        #expect(problem("hevc_v4l2m2m").contains("encodes H.265 but encoder.codec is h264"))
        #expect(problem("h264_vaapi").contains("VA-API"))
        #expect(problem("hevc_vaapi", codec: .h265).contains("VA-API"))
        #expect(problem("libx264").isEmpty && problem("h264_v4l2m2m").isEmpty && problem("libx265", codec: .h265).isEmpty)
    }

    @Test("a session on libx264 through libavcodec writes a stream ffprobe reads: every frame, IDRs on the schedule")
    func sessionStream() throws {
        var settings = Self.settings(zeroLatency: false, bFrames: 2)
        settings.keyframeIntervalSeconds = 1
        let pictures = try Harness.encode(settings, count: 75)
        #expect(pictures.count == 75)
        let file = try Harness.writeAnnexB(pictures, name: "avcodec-session.h264")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try FFmpegTools.decodesCleanly(file)
        let probe = try FFmpegTools.probe(file)
        #expect(probe.frameCount == 75)
        #expect(probe.keyframeIndices == [0, 30, 60])
    }

    @Test("H.265 through libavcodec's libx265: every frame, IDRs on the schedule with VPS/SPS/PPS in front")
    func h265SessionStream() throws {
        var settings = Self.settings(name: "libx265", codec: .h265)
        settings.keyframeIntervalSeconds = 1
        settings.preset = "ultrafast"
        let pictures = try Harness.encode(settings, count: 65)
        #expect(pictures.count == 65)
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 30, 60], "forced IDRs, not CRAs: \(pictures[30].hevcTypes)")
        #expect(pictures.filter(\.isKeyframe).allSatisfy { Array($0.hevcTypes.prefix(3)) == [.vps, .sps, .pps] })
        let file = try Harness.writeHEVCAnnexB(pictures, name: "avcodec-session.h265")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let probe = try FFmpegTools.probeHEVC(file)
        #expect(probe.keyFrames.count == 65 && probe.profile == "Main")
        #expect(probe.keyFrames.indices.filter { probe.keyFrames[$0] } == [0, 30, 60])
    }
}
