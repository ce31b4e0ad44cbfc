import FLV
import Media
import TestSupport
import Testing

@testable import CamcastDaemon
@testable import Outputs

@Suite struct LatencyRecorderTests {
    @Test func percentilesOfAHundredSamples() throws {
        var histogram = LatencyHistogram()
        // 1 ms … 100 ms, shuffled: order must not matter.
        for ms in (1...100).shuffled() { histogram.add(nanoseconds: Int64(ms) * 1_000_000) }
        #expect(histogram.count == 100)
        #expect(histogram.percentile(0.50) == 50_000_000)
        #expect(histogram.percentile(0.90) == 90_000_000)
        #expect(histogram.percentile(0.99) == 99_000_000)
        #expect(histogram.percentile(1.0) == 100_000_000)
        #expect(histogram.maxNanoseconds == 100_000_000)
    }

    @Test func percentilesAreBucketEdgesCappedAtTheMaximum() {
        var histogram = LatencyHistogram()
        histogram.add(nanoseconds: 12_345_678)  // in the 12.3–12.4 ms bucket
        #expect(histogram.percentile(0.5) == 12_345_678)  // the edge (12.4 ms) is above the only sample
        histogram.add(nanoseconds: 20_000_001)
        #expect(histogram.percentile(0.5) == 12_400_000)
    }

    @Test func emptyNegativeAndOverflowingSamples() {
        var histogram = LatencyHistogram()
        #expect(histogram.percentile(0.5) == nil)
        histogram.add(nanoseconds: -5_000_000)  // a stamp later than now counts as 0
        #expect(histogram.percentile(0.5) == 0)
        histogram.add(nanoseconds: 3_000_000_000)  // past the 1 s of buckets
        histogram.add(nanoseconds: 4_000_000_000)
        #expect(histogram.percentile(0.99) == 4_000_000_000)
        #expect(histogram.maxNanoseconds == 4_000_000_000)
    }

    @Test func recorderMeasuresFromTheCaptureStamp() throws {
        let recorder = LatencyRecorder()
        #expect(recorder.summary() == nil)
        let now = MonotonicTime(nanoseconds: 10_000_000_000)
        var packet = FrameStream(gop: 10).packet(0)
        // Captured at 9 990 ms on CLOCK_MONOTONIC, sent at 10 000 ms: 10 ms.
        packet.captureTime = 9_990
        recorder.frameSent(packet, at: now)
        packet.captureTime = 9_970
        recorder.frameSent(packet, at: now)
        let summary = try #require(recorder.summary())
        #expect(summary == LatencySummary(frames: 2, p50: 10, p90: 30, p99: 30, max: 30))
        #expect(summary.metadata["latency_p99_ms"] == "30.0")
        #expect(summary.description == "frames 2, p50 10.0 ms, p90 30.0 ms, p99 30.0 ms, max 30.0 ms")
    }
}
