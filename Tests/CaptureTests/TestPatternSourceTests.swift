import Capture
import Media
import Testing
import TestSupport

@Suite struct TestPatternSourceTests {
    @Test func consecutiveFramesDifferEverywhereTheyShouldMove() throws {
        let source = try TestPatternSource(size: VideoSize(width: 320, height: 180), frameRate: FrameRate(numerator: 30))
        let firstFrame = source.frame(index: 7, timestamp: MonotonicTime(nanoseconds: 0))
        let first = firstFrame.copiedBytes()
        let second = source.frame(index: 8, timestamp: MonotonicTime(nanoseconds: 33_333_333)).copiedBytes()
        #expect(first.count == 320 * 180 * 3 / 2)
        #expect(firstFrame.planes == VideoFrame.i420Planes(width: 320, height: 180).planes)
        // The whole background scrolls, so nearly every row of luma changes, not only a corner.
        let changedRows = (0..<180).filter { row in
            first[(row * 320)..<((row + 1) * 320)] != second[(row * 320)..<((row + 1) * 320)]
        }
        #expect(changedRows.count == 180)
        // Rendering is deterministic: the same index gives the same picture.
        #expect(source.frame(index: 7, timestamp: MonotonicTime(nanoseconds: 0)).copiedBytes() == first)
    }

    @Test func counterIsBurntIntoTheTopLeftCorner() throws {
        let source = try TestPatternSource(size: VideoSize(width: 640, height: 360), frameRate: FrameRate(numerator: 30))
        // 1 and 7 share no glyph column pattern in the first digit; the corner must differ.
        let one = source.frame(index: 1, timestamp: MonotonicTime(nanoseconds: 0))
        let seven = source.frame(index: 7, timestamp: MonotonicTime(nanoseconds: 0))
        let corner = { (frame: VideoFrame) in
            let bytes = frame.copiedBytes()
            return (0..<20).flatMap { row in bytes[(row * 640)..<(row * 640 + 20)] }
        }
        #expect(corner(one) != corner(seven))
        // Digits are drawn at peak white on black, never in between.
        #expect(Set(corner(one)).isSubset(of: [16, 235]))
    }

    @Test(arguments: [(15, 180), (320, 181), (8, 8), (8000, 360)])
    func rejectsSizesTheEncoderCannotTake(width: Int, height: Int) {
        #expect(throws: CaptureError.self) {
            try TestPatternSource(size: VideoSize(width: width, height: height), frameRate: FrameRate(numerator: 30))
        }
    }

    @Test func rejectsZeroFrameRate() {
        #expect(throws: CaptureError.invalidFrameRate("0")) {
            try TestPatternSource(size: VideoSize(width: 320, height: 180), frameRate: FrameRate(numerator: 0))
        }
    }

    @Test func deliversFramesOnTheFrameClockAndStopsCleanly() async throws {
        let source = try TestPatternSource(size: VideoSize(width: 64, height: 36), frameRate: FrameRate(numerator: 100))
        let frames = SharedLock<[VideoFrame]>([])
        try source.start { frame in frames.withLock { $0.append(frame) } }
        #expect(throws: CaptureError.alreadyStarted) { try source.start { _ in } }
        while frames.withLock({ $0.count }) < 10 {
            try await Task.sleep(for: .milliseconds(10))
        }
        source.stop()
        let collected = frames.withLock { $0 }
        let countAtStop = collected.count
        try await Task.sleep(for: .milliseconds(50))
        #expect(frames.withLock { $0.count } == countAtStop, "no frame after stop() returned")

        // Timestamps are the due instants: whole multiples of 10 ms after the first, strictly
        // increasing, and sequence numbers advance by the same number of slots (skips included).
        let interval = FrameRate(numerator: 100).frameIntervalNanoseconds
        for (previous, next) in zip(collected, collected.dropFirst()) {
            let delta = next.timestamp.nanoseconds(since: previous.timestamp)
            #expect(delta > 0)
            #expect(UInt64(delta) == interval * (next.sequence - previous.sequence))
        }
        #expect(collected.map(\.sequence).count == Set(collected.map(\.sequence)).count)
        #expect(Int(collected.last!.sequence - collected.first!.sequence) + 1 == collected.count + source.skippedFrames)
    }
}
