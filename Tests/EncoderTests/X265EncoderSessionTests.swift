@testable import Encoder
import Foundation
import Media
import TestSupport
import Testing

/// The H.265 backend behind the shared session: keyframes, parameter sets, live bitrate and
/// recovery, checked on what the session delivers and on what ffprobe/ffmpeg decode from it.
@Suite(.serialized) struct X265EncoderSessionTests {
    static func settings(kbps: Int = 800, configure: (inout EncoderSettings) -> Void = { _ in }) -> EncoderSettings {
        Harness.settings(kbps: kbps) { settings in
            settings.codec = .h265
            settings.preset = "ultrafast"
            configure(&settings)
        }
    }

    @Test func periodicKeyframesAreIDRPicturesCarryingVPSSPSPPSAndFFmpegDecodesThem() throws {
        let settings = Self.settings { $0.keyframeIntervalFrames = 15 }
        let pictures = try Harness.encode(settings, count: 60)
        try #require(pictures.count == 60)
        #expect(pictures.allSatisfy { $0.codec == .h265 })
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 15, 30, 45])
        for picture in pictures {
            let types = picture.hevcTypes
            #expect(!types.contains(nil), "unknown NAL type in \(types)")
            // Closed GOP: never a CRA (x265's open-GOP default), never an options SEI.
            #expect(!types.contains(.cra) && !types.contains(.prefixSEI))
            if picture.isKeyframe {
                #expect(Array(types.prefix(3)) == [.vps, .sps, .pps])
                #expect(types.dropFirst(3).allSatisfy { $0?.isIDR == true })
                #expect(picture.decoderConfiguration.parameterSets == Array(picture.units.prefix(3)))
                #expect(picture.pictureUnits.count == picture.units.count - 3)
            } else {
                #expect(types.allSatisfy { $0 == .trailN || $0 == .trailR })
            }
            #expect(picture.pts == picture.dts)
        }
        #expect(pictures.map(\.pts) == (0..<60).map { TestFrames.timestamp($0).milliseconds })
        let file = try Harness.writeHEVCAnnexB(pictures, name: "keyframes.h265")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try FFmpegTools.decodesHEVCCleanly(file)
        let probe = try FFmpegTools.probeHEVC(file)
        #expect(probe.keyFrames.count == 60)
        #expect(probe.keyFrames.indices.filter { probe.keyFrames[$0] } == [0, 15, 30, 45])
        #expect(probe.profile == "Main")
        #expect((probe.width, probe.height) == (320, 180))
    }

    @Test func withoutZerolatencyFrameThreadsHoldPicturesBackAndFlushDeliversThemInOrder() throws {
        // Quality mode with two frame threads and a worker pool of two: x265 returns pictures
        // late, the session still places its IDRs on the input frames and the flush drains the rest.
        let settings = Self.settings {
            $0.zeroLatency = false
            $0.threads = 2
            $0.keyframeIntervalFrames = 15
        }
        let pictures = try Harness.encode(settings, count: 60)
        #expect(pictures.count == 60)
        #expect(pictures.map(\.pts) == (0..<60).map { TestFrames.timestamp($0).milliseconds })
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 15, 30, 45])
        #expect(pictures.allSatisfy { $0.pts == $0.dts })
    }

    @Test func streamHeadersAreTheVPSSPSPPSOfTheFirstKeyframe() throws {
        let collector = PictureCollector()
        let session = try EncoderSession(settings: Self.settings(), logger: Harness.quietLogger) { collector.add($0) }
        let before = session.decoderConfiguration.parameterSets
        #expect(before.map { HEVCNALUnitType(unit: $0) } == [.vps, .sps, .pps])
        // No SEI in the headers either: the decoder configuration record stays small.
        #expect(before.reduce(0) { $0 + $1.count } < 200)
        try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: 0).frame)
        let first = try #require(collector.all.first)
        #expect(first.decoderConfiguration.parameterSets == before)
        session.close()
    }

    @Test func requestedKeyframeIsAnIDRAtTheNextFrame() throws {
        let pictures = try Harness.encode(Self.settings(), count: 20) { index, session in
            if index == 7 { session.requestKeyframe() }
        }
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 7])
        #expect(pictures[7].hevcTypes.prefix(3) == [.vps, .sps, .pps])
    }

    @Test func keyframesFollowCaptureTimeWhenFramesAreDropped() throws {
        // 30 fps nominal, every other frame dropped: 2 s is 30 frames of the nominal rate but only
        // 30 delivered frames span 4 s — the schedule must still place an IDR every 2 s.
        let settings = Self.settings { $0.keyframeIntervalSeconds = 2 }
        let collector = PictureCollector()
        let session = try EncoderSession(settings: settings, logger: Harness.quietLogger) { collector.add($0) }
        for index in stride(from: 0, to: 180, by: 2) {
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: index).frame)
        }
        try session.flush()
        let keyPTS = collector.all.filter(\.isKeyframe).map(\.pts)
        let origin = TestFrames.timestamp(0).milliseconds
        #expect(keyPTS.map { ($0 - origin + 50) / 1000 } == [0, 2, 4])
    }

    /// kbit/s over [from, from + seconds) of capture time, counting every unit with its start code.
    static func kbps(_ pictures: [EncodedPicture], from: Int64, seconds: Double) -> Double {
        let end = from + Int64(seconds * 1000)
        let bytes = pictures.filter { $0.pts >= from && $0.pts < end }.reduce(0) { $0 + $1.byteCount + 4 * $1.units.count }
        return Double(bytes * 8) / seconds / 1000
    }

    @Test func averageBitrateOverTenSecondsIsWithinFifteenPercent() throws {
        var settings = Self.settings(kbps: 1000)
        settings.size = VideoSize(width: MovingContent.width, height: MovingContent.height)
        let collector = PictureCollector()
        let session = try EncoderSession(settings: settings, logger: Harness.quietLogger) { collector.add($0) }
        for frame in MovingContent.frames.prefix(300) { try session.encode(frame) }
        try session.flush()
        let pictures = collector.all
        try #require(pictures.count == 300)
        let average = Self.kbps(pictures, from: pictures[0].pts, seconds: 10)
        #expect(abs(average - 1000) <= 150, "average \(average) kbit/s for a 1000 kbit/s target")
    }

    @Test func liveBitrateChangeMovesTheOutputRate() throws {
        var settings = Self.settings(kbps: 2000)
        settings.size = VideoSize(width: MovingContent.width, height: MovingContent.height)
        let collector = PictureCollector()
        let session = try EncoderSession(settings: settings, logger: Harness.quietLogger) { collector.add($0) }
        for (index, frame) in MovingContent.frames.prefix(300).enumerated() {
            if index == 150 { try session.reconfigure(bitrateKbps: 600) }
            try session.encode(frame)
        }
        try session.flush()
        let pictures = collector.all
        try #require(pictures.count == 300)
        #expect(session.bitrateKbps == 600)
        // Give the rate control 1 s to settle, then compare 4 s windows on each side.
        let before = Self.kbps(pictures, from: pictures[30].pts, seconds: 4)
        let after = Self.kbps(pictures, from: pictures[180].pts, seconds: 4)
        #expect(abs(before - 2000) <= 300, "before: \(before) kbit/s for 2000")
        #expect(abs(after - 600) <= 120, "after: \(after) kbit/s for 600")
        // The change re-opens x265 (its reconfig leaves the rate as it was, see X265Encoder):
        // one IDR at the change, and the 2 s interval runs from there.
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 60, 120, 150, 210, 270])
        try FFmpegTools.decodesHEVCCleanly(try Harness.writeHEVCAnnexB(pictures, name: "bitrate.h265"))
    }

    @Test func encodeErrorRecreatesTheX265EncoderAndKeepsGoing() throws {
        let (logger, log) = Harness.capturingLogger()
        let collector = PictureCollector()
        let opens = FailingOpens()
        let session = try EncoderSession(
            settings: Self.settings(), logger: logger, recovery: EncoderRecoveryPolicy(attempts: 3, delay: .zero),
            backendOpener: opens.opener()
        ) { collector.add($0) }
        for index in 0..<5 {
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: index).frame)
        }
        try session.reconfigure(bitrateKbps: 600)
        session.injectFaults(encodeFailures: 1)
        opens.failNext(1)
        for index in 5..<10 {
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: index).frame)
        }
        try session.flush()
        let pictures = collector.all
        #expect(pictures.count == 10)
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 5])
        #expect(pictures[5].hevcTypes.prefix(3) == [.vps, .sps, .pps])
        #expect(session.bitrateKbps == 600)
        let texts = log.messages.map(\.text)
        #expect(texts.contains("encoder re-created"))
        try FFmpegTools.decodesHEVCCleanly(try Harness.writeHEVCAnnexB(pictures, name: "recovered.h265"))
    }

    @Test func nv12FramesEncodeExactlyAsTheirI420Twins() throws {
        // x265 takes planar input only: the backend splits NV12's interleaved chroma itself. The
        // same pictures as I420 and as NV12 must give the same stream, byte for byte.
        let fromNV12 = try Harness.encode(Self.settings(), count: 10, format: .nv12)
        let fromI420 = try Harness.encode(Self.settings(), count: 10, format: .i420)
        #expect(fromNV12.count == 10)
        #expect(fromNV12.map(\.units) == fromI420.map(\.units))
    }

    @Test func settingsThatDoNotApplyToH265AreRefused() throws {
        let settings = Self.settings {
            $0.bFrames = 2
            $0.level = "4.1"
            $0.entropy = .cavlc
        }
        #expect(Set(settings.validate().map(\.setting)) == ["encoder.bFrames", "encoder.level", "encoder.entropy"])
        #expect(throws: EncoderError.self) {
            try EncoderSession(settings: settings, logger: Harness.quietLogger) { _ in }
        }
    }
}
