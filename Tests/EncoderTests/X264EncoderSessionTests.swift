import Conversion
import Encoder
import Foundation
import Media
import TestSupport
import Testing

/// End-to-end: encode synthetic frames, write Annex-B, and let ffprobe/ffmpeg judge the result.
@Suite struct X264EncoderSessionTests {
    @Test func encodedStreamHasEveryFrameAtTheEncodeSizeAndDecodesCleanly() throws {
        let settings = Harness.settings(width: 320, height: 180)
        let pictures = try Harness.encode(settings, count: 60)
        #expect(pictures.count == 60)
        // Delivered in the encoder's output order.
        #expect(zip(pictures, pictures.dropFirst()).allSatisfy { $0.dts < $1.dts })

        let file = try Harness.writeAnnexB(pictures, name: "basic.h264")
        let probe = try FFmpegTools.probe(file)
        #expect(probe.frameCount == 60)
        #expect(probe.width == 320 && probe.height == 180)
        try FFmpegTools.decodesCleanly(file)
    }

    struct KeyframeCase: Sendable, CustomTestStringConvertible {
        var fps: Int
        var seconds: Double
        var frames: Int?
        var count: Int
        var expected: [Int]
        var testDescription: String { "\(fps) fps, \(seconds) s, \(frames.map(String.init) ?? "nil") frames" }
    }

    @Test(arguments: [
        KeyframeCase(fps: 30, seconds: 1, frames: nil, count: 90, expected: [0, 30, 60]),
        KeyframeCase(fps: 30, seconds: 2, frames: 45, count: 100, expected: [0, 45, 90]),  // frames are fewer
        KeyframeCase(fps: 25, seconds: 1, frames: 50, count: 60, expected: [0, 25, 50]),  // seconds are fewer
    ])
    func keyframesFallExactlyOnTheInterval(_ c: KeyframeCase) throws {
        let settings = Harness.settings(fps: c.fps) {
            $0.keyframeIntervalSeconds = c.seconds
            $0.keyframeIntervalFrames = c.frames
        }
        let pictures = try Harness.encode(settings, count: c.count)
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == c.expected)

        let probe = try FFmpegTools.probe(try Harness.writeAnnexB(pictures, name: "keyint.h264"))
        #expect(probe.frameCount == c.count)
        #expect(probe.keyframeIndices == c.expected)
        #expect(c.expected.allSatisfy { probe.pictTypes[$0] == "I" })
    }

    /// A camera set to 30 fps that delivers 15 (low-light auto exposure, or a driver dropping
    /// every other frame): "2 s between keyframes" must stay 2 s of capture time, not 60 frames.
    @Test func keyframeIntervalFollowsCaptureTimeWhenFramesArriveSlower() throws {
        let settings = Harness.settings(fps: 30) { $0.keyframeIntervalSeconds = 2 }
        let collector = PictureCollector()
        let session = try EncoderSession(settings: settings, logger: Harness.quietLogger) { collector.add($0) }
        for index in 0..<100 {
            var frame = TestFrames.frame(.i420, width: 320, height: 180, index: index).frame
            // Every other 30 fps slot, with ±5 ms of jitter as a real camera's clock has.
            let jitter = Int64(index % 3 - 1) * 5_000_000
            frame.timestamp = MonotonicTime(nanoseconds: UInt64(Int64(TestFrames.timestamp(2 * index).nanoseconds) + jitter))
            try session.encode(frame)
        }
        try session.flush()
        let pictures = collector.all
        let expected = [0, 30, 60, 90]
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == expected)
        let keyframeTimes = pictures.filter(\.isKeyframe).map(\.pts)
        #expect(zip(keyframeTimes, keyframeTimes.dropFirst()).allSatisfy { (1950...2050).contains($1 - $0) })
        #expect(try FFmpegTools.probe(try Harness.writeAnnexB(pictures, name: "keyint-slow-camera.h264")).keyframeIndices == expected)
    }

    @Test func requestedKeyframeLandsOnTheNextFrame() throws {
        let settings = Harness.settings { $0.keyframeIntervalSeconds = 1 }
        let pictures = try Harness.encode(settings, count: 90) { index, session in
            if index == 45 { session.requestKeyframe() }
        }
        // The forced IDR restarts the interval: the next scheduled one is 30 frames after it.
        let expected = [0, 30, 45, 75]
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == expected)
        let probe = try FFmpegTools.probe(try Harness.writeAnnexB(pictures, name: "forced.h264"))
        #expect(probe.keyframeIndices == expected)
    }

    @Test func keyframeIntervalChangesLiveFromTheLastKeyframe() throws {
        let settings = Harness.settings { $0.keyframeIntervalSeconds = 1 }
        var intervals: [Int: Int] = [:]
        let pictures = try Harness.encode(settings, count: 160) { index, session in
            switch index {
            case 40: try? session.reconfigure(keyframeIntervalSeconds: 0.5)  // 15 frames, counted from 30
            case 100: try? session.reconfigure(keyframeIntervalSeconds: 2, keyframeIntervalFrames: 200)  // 60, from 90
            default: break
            }
            intervals[index] = session.keyframeIntervalInFrames
        }
        #expect(intervals[39] == 30 && intervals[40] == 15 && intervals[100] == 60)
        let expected = [0, 30, 45, 60, 75, 90, 150]
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == expected)
        let file = try Harness.writeAnnexB(pictures, name: "keyint-live.h264")
        let probe = try FFmpegTools.probe(file)
        #expect(probe.frameCount == 160)
        #expect(probe.keyframeIndices == expected)
        #expect(expected.allSatisfy { probe.pictTypes[$0] == "I" })
        // Same SPS/PPS throughout: a muxer need not resend its sequence header for this change.
        #expect(pictures.allSatisfy { $0.decoderConfiguration == pictures[0].decoderConfiguration })
        try FFmpegTools.decodesCleanly(file)
    }

    @Test func shorterIntervalAlreadyOverdueMakesTheNextFrameAKeyframe() throws {
        let settings = Harness.settings { $0.keyframeIntervalSeconds = 2 }
        let pictures = try Harness.encode(settings, count: 40) { index, session in
            if index == 20 { try? session.reconfigure(keyframeIntervalSeconds: 2, keyframeIntervalFrames: 8) }
        }
        let expected = [0, 20, 28, 36]
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == expected)
        #expect(try FFmpegTools.probe(try Harness.writeAnnexB(pictures, name: "keyint-overdue.h264")).keyframeIndices == expected)
    }

    @Test func sceneCutKeyframeRestartsTheInterval() throws {
        // x264 picks this IDR itself (it sees the cut); the session must count the interval from it.
        let settings = Harness.settings {
            $0.keyframeIntervalSeconds = 1
            $0.sceneCutKeyframes = true
        }
        let collector = PictureCollector()
        let session = try EncoderSession(settings: settings, logger: Harness.quietLogger) { collector.add($0) }
        let conversion = ConversionStage(size: settings.size, scaling: settings.scaling)
        for index in 0..<90 {
            // A hard cut at frame 20: the luma ramp gives way to the unrelated RGB picture.
            var frame = TestFrames.frame(index < 20 ? .i420 : .rgb24, width: 320, height: 180, index: index).frame
            frame.timestamp = TestFrames.timestamp(index)
            try conversion.convert(frame) { try session.encode($0) }
        }
        try session.flush()
        let pictures = collector.all
        let expected = [0, 20, 50, 80]
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == expected)
        #expect(try FFmpegTools.probe(try Harness.writeAnnexB(pictures, name: "scenecut.h264")).keyframeIndices == expected)
    }

    @Test func invalidKeyframeIntervalIsRejectedNamingTheSetting() throws {
        let session = try EncoderSession(settings: Harness.settings(), logger: Harness.quietLogger) { _ in }
        let error = #expect(throws: EncoderError.self) {
            try session.reconfigure(keyframeIntervalSeconds: 1, keyframeIntervalFrames: 0)
        }
        guard case .invalidSettings(let problems) = error else {
            Issue.record("expected invalidSettings, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.setting) == ["encoder.keyframeIntervalFrames"])
        #expect(problems.first?.value == "0")
        #expect(session.keyframeIntervalInFrames == 60)
        session.close()
        #expect(throws: EncoderError.closed) { try session.reconfigure(keyframeIntervalSeconds: 1) }
    }

    struct ProfileCase: Sendable, CustomTestStringConvertible {
        var profile: H264Profile
        var level: String?
        var ffprobeProfile: String
        var profileIDC: UInt8
        var levelIDC: Int?
        var testDescription: String { "\(profile) level \(level ?? "auto")" }
    }

    @Test(arguments: [
        // x264 sets constraint_set1 for Baseline, which ffprobe names Constrained Baseline.
        ProfileCase(profile: .baseline, level: "3.0", ffprobeProfile: "Constrained Baseline", profileIDC: 66, levelIDC: 30),
        ProfileCase(profile: .main, level: "3.1", ffprobeProfile: "Main", profileIDC: 77, levelIDC: 31),
        ProfileCase(profile: .high, level: "4", ffprobeProfile: "High", profileIDC: 100, levelIDC: 40),
        ProfileCase(profile: .high, level: nil, ffprobeProfile: "High", profileIDC: 100, levelIDC: nil),
    ])
    func profileAndLevelMatchTheSettings(_ c: ProfileCase) throws {
        let settings = Harness.settings(width: 640, height: 360, kbps: 1200) {
            $0.profile = c.profile
            $0.level = c.level
        }
        let pictures = try Harness.encode(settings, count: 10)
        let first = try #require(pictures.first)
        #expect(first.parameterSets.profileIDC == c.profileIDC)
        if let levelIDC = c.levelIDC {
            #expect(first.parameterSets.levelIDC == UInt8(levelIDC))
        }

        let file = try Harness.writeAnnexB(pictures, name: "profile.h264")
        let probe = try FFmpegTools.probe(file)
        #expect(probe.profile == c.ffprobeProfile)
        if let levelIDC = c.levelIDC {
            #expect(probe.level == levelIDC)
        }
        try FFmpegTools.decodesCleanly(file)
    }

    struct EntropyCase: Sendable, CustomTestStringConvertible {
        var profile: H264Profile
        var entropy: H264Entropy?
        var preset: String
        var cabac: Bool
        var testDescription: String { "\(profile) \(entropy.map(\.rawValue) ?? "default") \(preset)" }
    }

    @Test(arguments: [
        EntropyCase(profile: .baseline, entropy: nil, preset: "veryfast", cabac: false),
        EntropyCase(profile: .main, entropy: nil, preset: "veryfast", cabac: true),
        EntropyCase(profile: .main, entropy: .cavlc, preset: "veryfast", cabac: false),
        EntropyCase(profile: .high, entropy: .cabac, preset: "ultrafast", cabac: true),
    ])
    func entropyCoderIsSignalledInThePPS(_ c: EntropyCase) throws {
        let settings = Harness.settings {
            $0.profile = c.profile
            $0.entropy = c.entropy
            $0.preset = c.preset
        }
        let pictures = try Harness.encode(settings, count: 3)
        let pps = try #require(pictures.first?.parameterSets.pps)
        #expect(try PPSReader.entropyCodingModeFlag(pps) == c.cabac)
        try FFmpegTools.decodesCleanly(try Harness.writeAnnexB(pictures, name: "entropy.h264"))
    }

    @Test func ptsAndDtsAreCaptureMilliseconds() throws {
        let pictures = try Harness.encode(Harness.settings(), count: 10)
        #expect(pictures.map(\.pts) == (0..<10).map { TestFrames.timestamp($0).milliseconds })
        #expect(pictures.allSatisfy { $0.dts == $0.pts && $0.compositionTimeOffset == 0 })
    }

    @Test func nonIncreasingTimestampsAreBumpedAndLoggedOnce() throws {
        let (logger, log) = Harness.capturingLogger()
        let collector = PictureCollector()
        let session = try EncoderSession(settings: Harness.settings(), logger: logger) { collector.add($0) }
        let stamps: [UInt64] = [1_000, 1_000, 999, 1_033, 1_033]  // ms
        for (index, ms) in stamps.enumerated() {
            var frame = TestFrames.frame(.i420, width: 320, height: 180, index: index).frame
            frame.timestamp = MonotonicTime(nanoseconds: ms * 1_000_000)
            try session.encode(frame)
        }
        try session.flush()
        #expect(collector.all.map(\.pts) == [1_000, 1_001, 1_002, 1_033, 1_034])
        #expect(log.messages.filter { $0.text.contains("did not increase") }.count == 1)
    }

    @Test func firstPictureIsAKeyframeCarryingItsParameterSets() throws {
        let pictures = try Harness.encode(Harness.settings { $0.keyframeIntervalSeconds = 1 }, count: 35)
        let first = try #require(pictures.first)
        #expect(first.isKeyframe)
        // x264 writes several NAL units for an IDR: SPS, PPS, its SEI, then the slice.
        let types = first.nalUnits.map(\.type)
        #expect(types.contains(.sps) && types.contains(.pps) && types.contains(.idr))
        #expect(first.nalUnits.first { $0.type == .sps }?.bytes == first.parameterSets.sps)
        #expect(first.nalUnits.first { $0.type == .pps }?.bytes == first.parameterSets.pps)
        // Same settings all along: the second IDR repeats identical SPS/PPS, so nothing changed.
        #expect(pictures.allSatisfy { $0.decoderConfiguration == first.decoderConfiguration })
        #expect(pictures[30].isKeyframe && pictures[30].parameterSets == first.parameterSets)
        #expect(pictures[1].nalUnits.allSatisfy { $0.type == .slice })
    }

    @Test func sessionParameterSetsAreKnownBeforeTheFirstFrame() throws {
        let collector = PictureCollector()
        let session = try EncoderSession(settings: Harness.settings(), logger: Harness.quietLogger) { collector.add($0) }
        let before = session.parameterSets
        #expect(before.sps.first.map { $0 & 0x1F } == NALUnitType.sps.rawValue)
        #expect(before.pps.first.map { $0 & 0x1F } == NALUnitType.pps.rawValue)
        try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: 0).frame)
        #expect(collector.all.first?.parameterSets == before)
    }

    @Test func zeroLatencyDeliversEachPictureFromItsOwnEncodeCall() throws {
        let collector = PictureCollector()
        let session = try EncoderSession(settings: Harness.settings(), logger: Harness.quietLogger) { collector.add($0) }
        for index in 0..<10 {
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: index).frame)
            #expect(collector.all.count == index + 1, "frame \(index) was held back")
        }
    }

    @Test func bFramesGiveDecodeTimesBehindPresentationTimes() throws {
        let settings = Harness.settings {
            $0.bFrames = 2
            $0.zeroLatency = false
            $0.profile = .main
            $0.keyframeIntervalSeconds = 0.5
        }
        let count = 45
        let pictures = try Harness.encode(settings, count: count)
        #expect(pictures.count == count)
        #expect(Set(pictures.map(\.pts)) == Set((0..<count).map { TestFrames.timestamp($0).milliseconds }))
        #expect(pictures.contains { $0.pts != $0.dts })
        #expect(pictures.allSatisfy { $0.dts <= $0.pts })
        #expect(zip(pictures, pictures.dropFirst()).allSatisfy { $0.dts < $1.dts })
        // Output is in decode order; the keyframes the session scheduled, in capture order.
        let keyframePTS = pictures.filter(\.isKeyframe).map(\.pts)
        #expect(keyframePTS == [0, 15, 30].map { TestFrames.timestamp($0).milliseconds })

        // ffmpeg puts the pictures back in presentation order by itself (from the POCs): decoded
        // frame i must be source frame i, B-frames included.
        let file = try Harness.writeAnnexB(pictures, name: "bframes.h264")
        let probe = try FFmpegTools.probe(file)
        #expect(probe.pictTypes.contains("B"))
        #expect(probe.keyframeIndices == [0, 15, 30])
        let decoded = try FFmpegTools.decodedLuma(file, width: 320, height: 180)
        try #require(decoded.count == count)
        for index in 0..<count {
            let here = TestFrames.psnr(decoded[index], TestFrames.frame(.i420, width: 320, height: 180, index: index).luma)
            let neighbour = TestFrames.psnr(
                decoded[index], TestFrames.frame(.i420, width: 320, height: 180, index: index == 0 ? 1 : index - 1).luma)
            #expect(here > 30 && here > neighbour, "decoded frame \(index): \(here) dB vs \(neighbour) dB next door")
        }
        try FFmpegTools.decodesCleanly(file)
    }

    @Test func closeIsIdempotentAndEncodeAfterCloseThrows() throws {
        let session = try EncoderSession(settings: Harness.settings(), logger: Harness.quietLogger) { _ in }
        try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: 0).frame)
        session.close()
        session.close()
        #expect(session.isClosed)
        session.requestKeyframe()  // ignored, must not crash
        #expect(throws: EncoderError.closed) {
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: 1).frame)
        }
        #expect(throws: EncoderError.closed) { try session.reconfigure(bitrateKbps: 500) }
        #expect(throws: EncoderError.closed) { try session.flush() }
    }

    @Test func reconfigureChangesTheBitrateAndRejectsOutOfRange() throws {
        let session = try EncoderSession(settings: Harness.settings(), logger: Harness.quietLogger) { _ in }
        try session.reconfigure(bitrateKbps: 400)
        #expect(session.bitrateKbps == 400)
        let error = #expect(throws: EncoderError.self) { try session.reconfigure(bitrateKbps: 10) }
        guard case .invalidSettings(let problems) = error else {
            Issue.record("expected invalidSettings, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.setting) == ["encoder.bitrateKbps"])
        #expect(problems.first?.value == "10")
        #expect(session.bitrateKbps == 400)
    }

    @Test func reconfiguredBitrateChangesTheOutputSize() throws {
        // High to low mid-stream: the second half must be clearly smaller.
        let settings = Harness.settings(width: 640, height: 360, kbps: 4000) {
            $0.keyframeIntervalSeconds = 10
            $0.preset = "ultrafast"
        }
        let pictures = try Harness.encode(settings, count: 120) { index, session in
            if index == 60 { try? session.reconfigure(bitrateKbps: 300) }
        }
        func bytes(_ range: Range<Int>) -> Int {
            pictures[range].reduce(0) { $0 + $1.nalUnits.reduce(0) { $0 + $1.bytes.count } }
        }
        // Skip the frames right after the change while the VBV settles.
        #expect(bytes(90..<120) * 3 < bytes(30..<60))
    }

    @Test func invalidSettingsAreThrownWithEveryProblem() throws {
        let settings = Harness.settings(width: 321) {
            $0.preset = "warpspeed"
        }
        let error = #expect(throws: EncoderError.self) {
            _ = try EncoderSession(settings: settings, logger: Harness.quietLogger) { _ in }
        }
        guard case .invalidSettings(let problems) = error else {
            Issue.record("expected invalidSettings, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.setting) == ["encoder.size", "encoder.preset"])
    }

    @Test func x264LogLinesReachTheLogger() throws {
        // Level 1.0 is far too small for 640x360: x264 warns through pf_log, which the bridge forwards.
        let (logger, log) = Harness.capturingLogger()
        let settings = Harness.settings(width: 640, height: 360) { $0.level = "1.0" }
        _ = try EncoderSession(settings: settings, logger: logger) { _ in }
        let x264Lines = log.messages.filter { $0.text.hasPrefix("x264: ") }
        #expect(x264Lines.contains { $0.level == .warning && $0.text.contains("level") })
        #expect(x264Lines.allSatisfy { !$0.text.hasSuffix("\n") })
    }

    @Test func mjpegAndMalformedFramesAreRejected() throws {
        let session = try EncoderSession(settings: Harness.settings(), logger: Harness.quietLogger) { _ in }
        let mjpeg = VideoFrame(
            width: 320, height: 180, pixelFormat: .mjpeg, planes: [.init(offset: 0, bytesPerRow: 0)],
            bytes: [0xFF, 0xD8], timestamp: TestFrames.timestamp(0), sequence: 0)
        #expect(throws: EncoderError.unsupportedPixelFormat(.mjpeg)) { try session.encode(mjpeg) }

        let whole = TestFrames.frame(.i420, width: 320, height: 180, index: 0).frame
        let short = VideoFrame(
            width: 320, height: 180, pixelFormat: .i420, planes: whole.planes, bytes: whole.copiedBytes().dropLast(),
            timestamp: whole.timestamp, sequence: whole.sequence)
        let error = #expect(throws: EncoderError.self) { try session.encode(short) }
        guard case .invalidFrame(let reason) = error else {
            Issue.record("expected invalidFrame, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("plane 2"))

        var missingPlane = TestFrames.frame(.nv12, width: 320, height: 180, index: 0).frame
        missingPlane.planes.removeLast()
        #expect(throws: EncoderError.invalidFrame("NV12 needs 2 planes, frame has 1")) { try session.encode(missingPlane) }
        // The session is still usable after rejecting frames.
        try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: 1).frame)
    }

    /// Conversion and scaling happen before the encoder, on the capture thread: the session takes
    /// its own picture format and size only, and says what else it got instead of converting it
    /// under its lock (before issue 26 both frames below were converted and scaled in there).
    @Test func framesNotInTheEncodersPictureAreRefusedNotConverted() throws {
        let collector = PictureCollector()
        let session = try EncoderSession(settings: Harness.settings(), logger: Harness.quietLogger) { collector.add($0) }
        let yuyv = TestFrames.frame(.yuyv, width: 320, height: 180, index: 0).frame
        #expect(throws: EncoderError.unsupportedPixelFormat(.yuyv)) { try session.encode(yuyv) }
        let large = TestFrames.frame(.i420, width: 640, height: 360, index: 0).frame
        let error = #expect(throws: EncoderError.frameSizeMismatch(
            frame: VideoSize(width: 640, height: 360), stream: VideoSize(width: 320, height: 180))) { try session.encode(large) }
        #expect(error?.description == "the encoder takes 320x180 frames, this one is 640x360 (scale it first)")
        // Through the conversion stage, both reach the session as 320x180 pictures it encodes.
        let conversion = ConversionStage(size: session.settings.size, scaling: .fit)
        for frame in [yuyv, large] {
            try conversion.convert(frame) { picture in
                #expect(picture.width == 320 && picture.height == 180 && [.nv12, .i420].contains(picture.pixelFormat))
                try session.encode(picture)
            }
        }
        try session.flush()
        #expect(collector.all.count == 2)
    }
}
