import Capture
import Media
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A source that paces itself waits for its next frame's deadline; a stop must end that wait at
/// once, not when the next frame is due (defect: `--fps 0.05` then SIGTERM ran into the daemon's
/// 15 s hard exit). One frame every 20 s here; the bound, 2 s, is a tenth of that and far above
/// what a loaded 2-core machine needs to join a thread.
@Suite struct SourceStopTests {
    static let slowRate = FrameRate(numerator: 1, denominator: 20)

    /// Starts `source`, waits for frame 0 (due at once), stops it and returns how long `stop` took.
    static func stopTime(of source: some FrameSource) throws -> Duration {
        let frames = Atomic<Int>(0)
        try source.start { _ in frames.add(1, ordering: .relaxed) }
        for _ in 0..<1000 where frames.load(ordering: .relaxed) == 0 { usleep(5000) }
        #expect(frames.load(ordering: .relaxed) == 1, "frame 0 is due at once, frame 1 only after 20 s")
        let clock = ContinuousClock()
        let started = clock.now
        source.stop()
        return clock.now - started
    }

    @Test func aTestPatternAtOneFrameEveryTwentySecondsStopsAtOnce() throws {
        let source = try TestPatternSource(size: VideoSize(width: 32, height: 32), frameRate: Self.slowRate)
        let took = try Self.stopTime(of: source)
        #expect(took < .seconds(2), "stop took \(took)")
    }

    @Test func aClipAtOneFrameEveryTwentySecondsStopsAtOnce() throws {
        let path = try Y4MClip.file(Y4MClip.bytes(fps: "1:20", frames: 3))
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: true, pace: .realtime))
        let took = try Self.stopTime(of: source)
        #expect(took < .seconds(2), "stop took \(took)")
    }

    /// The wake-up that ended the last run must not end the next one's first wait.
    @Test func aStoppedTestPatternStartsAgainAndPacesAsBefore() throws {
        let source = try TestPatternSource(size: VideoSize(width: 32, height: 32), frameRate: FrameRate(numerator: 50))
        let frames = Atomic<Int>(0)
        try source.start { _ in frames.add(1, ordering: .relaxed) }
        source.stop()
        let afterFirstRun = frames.load(ordering: .relaxed)
        try source.start { _ in frames.add(1, ordering: .relaxed) }
        usleep(300_000)
        source.stop()
        let second = frames.load(ordering: .relaxed) - afterFirstRun
        // 0.3 s at 50 fps is 15 frames; a wait that returned at once every time would burst hundreds.
        #expect((3...40).contains(second), "\(second) frames in 0.3 s at 50 fps")
    }
}
