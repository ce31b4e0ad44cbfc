import Capture
import Foundation
import Media
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A reload whose new source fails falls back to starting the old source again. A y4m source gave
/// its reader to the playing thread and never got it back, so that restart threw and the daemon
/// stopped (defect: a failed source reload killed a y4m run). A stopped clip now carries on where it
/// stopped; a clip that played to its end is opened again.
@Suite struct Y4MFileSourceRestartTests {
    /// The first byte of each frame: `Y4MClip` fills frame n with n + 1.
    final class Marks: Sendable {
        let values = SharedLock<[UInt8]>([])
        let ended = Atomic<Int>(0)
        func add(_ frame: VideoFrame) { values.withLock { $0.append(frame.copiedBytes()[0]) } }
        var all: [UInt8] { values.withLock { $0 } }
        func wait(until condition: () -> Bool) {
            for _ in 0..<2000 where !condition() { usleep(5000) }
        }
        /// Starts `source`, waits for its `run`-th end of the clip, stops it.
        func playToEnd(_ source: Y4MFileSource, run: Int) throws {
            try source.start { self.add($0) }
            wait { ended.load(ordering: .acquiring) == run }
            source.stop()
        }
    }

    @Test func aStoppedClipStartsAgainWhereItStopped() throws {
        let path = try Y4MClip.file(Y4MClip.bytes(fps: "100:1", frames: 50))
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: false, pace: .realtime))
        let marks = Marks()
        try source.start { marks.add($0) }
        marks.wait { marks.all.count >= 3 }
        source.stop()
        let firstRun = marks.all
        #expect(firstRun.count >= 3)

        try source.start { marks.add($0) }
        marks.wait { marks.all.count >= firstRun.count + 3 }
        source.stop()
        let secondRun = Array(marks.all.dropFirst(firstRun.count))
        // The next frame of the clip, not its first one again (realtime pace may skip a slot or
        // two on a loaded machine, never go back).
        let resumed = try #require(secondRun.first)
        #expect(resumed > firstRun.last!, "first run \(firstRun), second run \(secondRun)")
        #expect(zip(secondRun, secondRun.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// A restart keeps the frame grid: its first frame comes no sooner than one interval after the
    /// last one before the stop (a reload's fallback restarted within a few ms, and an extra frame
    /// 181 of 180 squeezed into a 6 s run).
    @Test func aRestartedClipNeverHandsOutTwoFramesCloserThanAnInterval() throws {
        let path = try Y4MClip.file(Y4MClip.bytes(fps: "10:1", frames: 50))
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: false, pace: .realtime))
        let stamps = SharedLock<[MonotonicTime]>([])
        let record: @Sendable (VideoFrame) -> Void = { frame in stamps.withLock { $0.append(frame.timestamp) } }
        try source.start(deliver: record)
        for _ in 0..<2000 where stamps.withLock({ $0.count }) < 2 { usleep(5000) }
        source.stop()
        try source.start(deliver: record)
        for _ in 0..<2000 where stamps.withLock({ $0.count }) < 4 { usleep(5000) }
        source.stop()
        let all = stamps.withLock { $0 }
        try #require(all.count >= 4)
        let gaps = zip(all, all.dropFirst()).map { $1.nanoseconds(since: $0) }
        #expect(gaps.allSatisfy { $0 >= 100_000_000 }, "gaps \(gaps) ns at 10 fps")
    }

    @Test func aClipThatPlayedToItsEndIsOpenedAgain() throws {
        let path = try Y4MClip.file(Y4MClip.bytes(fps: "25:1", frames: 3))
        let marks = Marks()
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: false, pace: .fast)) { _ in
            marks.ended.add(1, ordering: .releasing)
        }
        try marks.playToEnd(source, run: 1)
        try marks.playToEnd(source, run: 2)
        #expect(marks.all == [1, 2, 3, 1, 2, 3])
    }

    @Test func aClipThatChangedFormatIsNotStartedAgain() throws {
        let path = try Y4MClip.file(Y4MClip.bytes(fps: "25:1", frames: 2))
        let marks = Marks()
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: false, pace: .fast)) { _ in
            marks.ended.add(1, ordering: .releasing)
        }
        try marks.playToEnd(source, run: 1)
        try Data(Y4MClip.bytes(width: 32, height: 16, fps: "25:1", frames: 2)).write(to: URL(fileURLWithPath: path))
        #expect(throws: CaptureError.cannotRestart("\(path) changed format since it was opened")) {
            try source.start { marks.add($0) }
        }
    }

    @Test func aRunningClipCannotBeStartedTwice() throws {
        let path = try Y4MClip.file(Y4MClip.bytes(fps: "1:20", frames: 2))
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: true, pace: .realtime))
        try source.start { _ in }
        #expect(throws: CaptureError.alreadyStarted) { try source.start { _ in } }
        source.stop()
    }
}
