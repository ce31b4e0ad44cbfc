import Encoder
import Foundation
import Media
import TestSupport
import Testing

/// Rate control as a viewer's pipe sees it: camcast encodes hard-to-compress moving content with
/// real capture timestamps, ffprobe splits the output into access units, and the bits are counted
/// against those timestamps.
@Suite(.serialized) struct RateControlTests {
    /// One access unit on the wire: its capture time and its size as ffprobe measured it.
    struct Sample {
        var ms: Int64
        var bits: Int
    }

    static func settings(kbps: Int) -> EncoderSettings {
        EncoderSettings(
            size: VideoSize(width: MovingContent.width, height: MovingContent.height),
            frameRate: FrameRate(numerator: MovingContent.frameRate), bitrateKbps: kbps)
    }

    /// Encodes `frames` of the moving content, calling `beforeFrame` first for each index, and
    /// returns what ffprobe measured, frame by frame.
    static func measure(
        _ settings: EncoderSettings, frames: Range<Int>, beforeFrame: (Int, EncoderSession) throws -> Void = { _, _ in }
    ) throws -> [Sample] {
        let collector = PictureCollector()
        let session = try EncoderSession(settings: settings, logger: Harness.quietLogger) { collector.add($0) }
        for index in frames {
            try beforeFrame(index, session)
            try session.encode(MovingContent.frames[index])
        }
        try session.flush()
        let pictures = collector.all
        let file = try Harness.writeAnnexB(pictures, name: "ratecontrol.h264")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let sizes = try FFmpegTools.packetSizes(file)
        try #require(sizes.count == frames.count, "ffprobe found \(sizes.count) access units for \(frames.count) frames")
        // No B-frames: decode order is capture order, so packet i is picture i.
        return zip(pictures, sizes).map { Sample(ms: $0.pts, bits: $1 * 8) }
    }

    /// Average kbit/s of the samples from `startMs` (inclusive) for `seconds`.
    static func kbps(_ samples: [Sample], fromMs startMs: Int64, seconds: Double) -> Double {
        let endMs = startMs + Int64(seconds * 1000)
        let bits = samples.filter { $0.ms >= startMs && $0.ms < endMs }.reduce(0) { $0 + $1.bits }
        return Double(bits) / seconds / 1000
    }

    /// The largest number of kbit in any 1 s window starting at a frame.
    static func worstOneSecondWindowKbits(_ samples: [Sample]) -> (kbits: Double, startMs: Int64) {
        var worst = (kbits: 0.0, startMs: Int64(0))
        for start in samples where start.ms + 1000 <= samples.last!.ms + 34 {
            let kbits = kbps(samples, fromMs: start.ms, seconds: 1)
            if kbits > worst.kbits { worst = (kbits, start.ms) }
        }
        return worst
    }

    struct TargetCase: Sendable, CustomTestStringConvertible {
        var kbps: Int
        /// false: quality mode, where x264 runs rate control on the capture timestamps themselves.
        var zeroLatency: Bool
        var testDescription: String { "\(kbps) kbit/s, \(zeroLatency ? "zerolatency" : "quality mode")" }
    }

    @Test(arguments: [
        TargetCase(kbps: 1000, zeroLatency: true),
        TargetCase(kbps: 2500, zeroLatency: true),
        TargetCase(kbps: 1000, zeroLatency: false),
    ])
    func averageOverTenSecondsIsWithinFifteenPercentAndNoSecondExceedsTheLimit(_ c: TargetCase) throws {
        let target = c.kbps
        var settings = Self.settings(kbps: target)
        settings.zeroLatency = c.zeroLatency
        let samples = try Self.measure(settings, frames: 0..<300)
        let first = try #require(samples.first).ms
        let average = Self.kbps(samples, fromMs: first, seconds: 10)
        let worst = Self.worstOneSecondWindowKbits(samples)
        let limit = Double(target) * settings.maxRateFactor
        print("rate control \(c.testDescription): 10 s average \(Int(average)) kbps, worst 1 s window \(Int(worst.kbits)) kbit at +\(worst.startMs - first) ms (limit \(Int(limit)))")
        #expect(abs(average - Double(target)) <= 0.15 * Double(target), "10 s average \(average) kbps for target \(target)")
        #expect(worst.kbits <= 1.10 * limit, "1 s window at +\(worst.startMs - first) ms has \(worst.kbits) kbit, limit \(limit)")
    }

    @Test func liveChangeFrom2000To800IsMetWithinTheNextFiveSeconds() throws {
        let changeAt = 200  // 6.7 s at 2000 kbps: long enough for rate control to have settled there
        var changeMs: Int64 = 0
        let samples = try Self.measure(Self.settings(kbps: 2000), frames: 0..<changeAt + 150) { index, session in
            if index == changeAt {
                changeMs = MovingContent.frames[index].timestamp.milliseconds
                try session.reconfigure(bitrateKbps: 800)
            }
        }
        let first = try #require(samples.first).ms
        let before = Self.kbps(samples, fromMs: changeMs - 5000, seconds: 5)
        let after = Self.kbps(samples, fromMs: changeMs, seconds: 5)
        let worstAfter = Self.worstOneSecondWindowKbits(samples.filter { $0.ms >= changeMs })
        print("rate control 2000→800 kbps at +\(changeMs - first) ms: 5 s before \(Int(before)) kbps, 5 s after \(Int(after)) kbps, worst 1 s after \(Int(worstAfter.kbits)) kbit")
        #expect(abs(before - 2000) <= 0.15 * 2000, "5 s before the change: \(before) kbps")
        #expect(abs(after - 800) <= 0.15 * 800, "5 s after the change: \(after) kbps")
        #expect(worstAfter.kbits <= 1.10 * 1.5 * 800, "1 s window after the change has \(worstAfter.kbits) kbit")
    }
}
