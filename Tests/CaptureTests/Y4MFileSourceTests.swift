import Capture
import Media
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// No assertion here depends on how fast anything runs: timestamps are checked for their spacing
/// in frame intervals, never against the wall clock.
@Suite struct Y4MFileSourceTests {
    /// Frames collected on the source's thread, and how playback ended.
    final class Collector: Sendable {
        let frames = SharedLock<[VideoFrame]>([])
        let ending = SharedLock<[Y4MError?]>([])
        let ended = Atomic<Bool>(false)

        /// Keeps `frame` past its delivery, so keeps what `owned()` gives (the source's buffer,
        /// which the next read then leaves to this frame and copies, as arrays do).
        func add(_ frame: VideoFrame) { frames.withLock { $0.append(frame.owned()) } }
        func end(_ error: Y4MError?) {
            ending.withLock { $0.append(error) }
            ended.store(true, ordering: .releasing)
        }
        var count: Int { frames.withLock { $0.count } }

        /// Polls until `condition` holds; the bound only keeps a broken source from hanging the run.
        func wait(until condition: () -> Bool) {
            for _ in 0..<2000 where !condition() { usleep(5000) }
        }
    }

    /// A header and no frames ends playback with an error, looping or not (it used to end
    /// quietly, and camcast wrote a 13-byte FLV and exited 0).
    @Test(arguments: [false, true])
    func aClipWithoutFramesIsAnError(loop: Bool) throws {
        let path = try Y4MClip.file(Y4MClip.bytes(frames: 0))
        let collector = Collector()
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: loop, pace: .fast)) { collector.end($0) }
        try source.start { collector.add($0) }
        collector.wait { collector.ended.load(ordering: .acquiring) }
        source.stop()
        #expect(collector.count == 0)
        #expect(collector.ending.withLock { $0 } == [.noFrames])
    }

    /// Pictures of a file are read into one buffer the source owns and reuses for every frame (the
    /// same storage each delivery: no allocation per frame, and a filter draws on it in place with
    /// no copy-on-write fault), also after FRAME lines with parameters, and are the file's bytes.
    /// A filter that scribbles over a picture (and does not put it back) spoils neither the file
    /// nor the next picture.
    @Test(arguments: ["FRAME\n", "FRAME Ip\n"])
    func picturesOfAFileAreReadIntoOneReusedBuffer(frameLine: String) throws {
        let bytes = Y4MClip.bytes(width: 32, height: 16, frames: 3, frameLine: frameLine)
        let path = try Y4MClip.file(bytes)
        let seen = SharedLock<[(borrowed: Bool, address: UInt, bytes: [UInt8])]>([])
        let ended = Atomic<Bool>(false)
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: false, pace: .fast)) { _ in
            ended.store(true, ordering: .releasing)
        }
        try source.start { frame in
            let (address, picture) = frame.withUnsafeBytes { (UInt(bitPattern: $0.baseAddress), Array($0)) }
            seen.withLock { $0.append((frame.isBorrowed, address, picture)) }
            _ = frame.withBytesInPlace { $0.initializeMemory(as: UInt8.self, repeating: 0xFF) }
        }
        for _ in 0..<2000 where !ended.load(ordering: .acquiring) { usleep(5000) }
        source.stop()
        let frames = seen.withLock { $0 }
        let pictureBytes = 32 * 16 * 3 / 2
        // Each picture is what follows its FRAME line in the file.
        let starts = (0..<3).map { bytes.count - (3 - $0) * pictureBytes - (2 - $0) * frameLine.utf8.count }
        #expect(frames.map(\.borrowed) == [false, false, false])
        #expect(Set(frames.map(\.address)).count == 1, "one buffer for every picture")
        #expect(frames.map(\.bytes) == starts.map { Array(bytes[$0..<($0 + pictureBytes)]) })
        #expect(try Y4MClip.contents(of: path) == bytes, "the file is never written")
    }

    @Test func fastPacePlaysTheClipOnceWithTimestampsOneIntervalApart() throws {
        let path = try Y4MClip.file(Y4MClip.bytes(width: 32, height: 16, fps: "25:1", frames: 5))
        let collector = Collector()
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: false, pace: .fast)) { collector.end($0) }
        #expect(source.size == VideoSize(width: 32, height: 16))
        #expect(source.frameRate == FrameRate(numerator: 25))
        try source.start { collector.add($0) }
        collector.wait { collector.ended.load(ordering: .acquiring) }
        source.stop()

        let frames = collector.frames.withLock { $0 }
        #expect(frames.map { $0.copiedBytes()[0] } == [1, 2, 3, 4, 5])
        #expect(frames.map(\.sequence) == [0, 1, 2, 3, 4])
        let first = try #require(frames.first).timestamp
        #expect(frames.map { $0.timestamp.nanoseconds(since: first) } == [0, 40_000_000, 80_000_000, 120_000_000, 160_000_000])
        #expect(frames.allSatisfy { $0.pixelFormat == .i420 && $0.planes == VideoFrame.i420Planes(width: 32, height: 16).planes })
        #expect(collector.ending.withLock { $0 } == [nil])
        #expect(source.skippedFrames == 0)
    }

    @Test func loopingStartsAgainAndKeepsTimeMovingForward() throws {
        let path = try Y4MClip.file(Y4MClip.bytes(frames: 3))
        let collector = Collector()
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: true, pace: .fast)) { collector.end($0) }
        try source.start { frame in
            if collector.count < 8 { collector.add(frame) }
        }
        collector.wait { collector.count >= 8 }
        source.stop()

        let frames = collector.frames.withLock { $0 }
        #expect(frames.map { $0.copiedBytes()[0] } == [1, 2, 3, 1, 2, 3, 1, 2])
        let interval = Int64(FrameRate(numerator: 30).frameIntervalNanoseconds)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.timestamp.nanoseconds(since: $0.timestamp) == interval })
        // Stopped, not ended: the clip loops for ever.
        #expect(collector.ending.withLock { $0 }.isEmpty)
    }

    /// A looping clip cut down to its header while its second picture is delivered (as `cp new.y4m
    /// clip.y4m` empties the file first): that picture was read already and goes out whole, and the
    /// loop, which now finds no frame, ends with an error (it used to end as if the clip were over:
    /// exit 0, and a systemd unit with Restart=on-failure stayed down).
    @Test func aLoopingClipCutShorterWhilePlayingEndsWithAnError() throws {
        let width = 128, height = 64, frames = 3
        let bytes = Y4MClip.bytes(width: width, height: height, frames: frames)
        let path = try Y4MClip.file(bytes)
        let headerLength = bytes.count - frames * ("FRAME\n".utf8.count + width * height * 3 / 2)
        let collector = Collector()
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: true, pace: .fast)) { collector.end($0) }
        try source.start { frame in
            if collector.count == 1 { truncate(path, off_t(headerLength)) }
            collector.add(frame)
        }
        collector.wait { collector.ended.load(ordering: .acquiring) }
        source.stop()

        let pictures = collector.frames.withLock { $0 }.map { $0.copiedBytes() }
        try #require(pictures.count == 2, "the frame before the cut, the one delivered during it, and then none: \(pictures.count)")
        #expect(pictures[0].allSatisfy { $0 == 1 })
        #expect(pictures[1].allSatisfy { $0 == 2 }, "the picture read before the cut is whole")
        #expect(collector.ending.withLock { $0 } == [.emptyWhenLooped])
    }

    @Test func realtimePaceStampsFramesOnTheFrameGrid() throws {
        let path = try Y4MClip.file(Y4MClip.bytes(fps: "60:1", frames: 4))
        let collector = Collector()
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: false, pace: .realtime)) { collector.end($0) }
        try source.start { collector.add($0) }
        collector.wait { collector.ended.load(ordering: .acquiring) }
        source.stop()

        // A busy machine may skip a slot; each frame still sits on a whole frame interval.
        let frames = collector.frames.withLock { $0 }
        let interval = Int64(FrameRate(numerator: 60).frameIntervalNanoseconds)
        let first = try #require(frames.first).timestamp
        #expect(frames.allSatisfy { $0.timestamp.nanoseconds(since: first) % interval == 0 })
        #expect(frames.count + source.skippedFrames == 4)
        #expect(collector.ending.withLock { $0 } == [nil])
    }

    /// Issue 25: a looping clip whose last frame is cut used to end the run after one pass (exit
    /// 1). It drops the cut frame and loops: frame 0 again and again, and no end.
    @Test func aLoopingClipWithACutLastFrameDropsItAndLoops() throws {
        let bytes = Y4MClip.bytes(frames: 2)
        let path = try Y4MClip.file(Array(bytes.dropLast(10)))
        let collector = Collector()
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: true, pace: .fast)) { collector.end($0) }
        try source.start { collector.add($0) }
        collector.wait { collector.count >= 5 || collector.ended.load(ordering: .acquiring) }
        source.stop()
        #expect(collector.ending.withLock { $0 }.isEmpty, "playback ended: \(collector.ending.withLock { $0 })")
        let frames = collector.frames.withLock { $0 }
        #expect(frames.count >= 5)
        // Every frame delivered is the clip's first (the cut one never goes out).
        let first = try #require(frames.first).copiedBytes()
        #expect(frames.allSatisfy { $0.copiedBytes() == first })
    }

    @Test func aTruncatedLastFrameEndsPlaybackWithTheErrorWhenNotLooping() throws {
        let path = try Y4MClip.file(Array(Y4MClip.bytes(frames: 2).dropLast(10)))
        let collector = Collector()
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: path, loop: false, pace: .fast)) { collector.end($0) }
        try source.start { collector.add($0) }
        collector.wait { collector.ended.load(ordering: .acquiring) }
        source.stop()
        #expect(collector.count == 1)
        #expect(collector.ending.withLock { $0 } == [.truncatedFrame(frame: 1, received: 374, expected: 384)])
    }

    @Test func startsOnlyOnce() throws {
        let source = try Y4MFileSource(settings: Y4MSourceSettings(path: try Y4MClip.file(Y4MClip.bytes(frames: 1)), loop: false, pace: .fast))
        try source.start { _ in }
        #expect(throws: CaptureError.alreadyStarted) { try source.start { _ in } }
        source.stop()
    }

    @Test func rejectsWhatItCannotPlay() throws {
        #expect(throws: Y4MError.systemCallFailed(path: "/nonexistent/clip.y4m", call: "open", errno: ENOENT)) {
            try Y4MFileSource(settings: Y4MSourceSettings(path: "/nonexistent/clip.y4m"))
        }
        let chroma422 = try Y4MClip.file(Array("YUV4MPEG2 W16 H16 F30:1 C422\n".utf8))
        #expect(throws: Y4MError.unsupportedColourSpace("422")) { try Y4MFileSource(settings: Y4MSourceSettings(path: chroma422)) }
        let odd = try Y4MClip.file(Array("YUV4MPEG2 W17 H16 F30:1\n".utf8))
        #expect(throws: CaptureError.invalidSize(width: 17, height: 16, reason: "4:2:0 needs even width and height")) {
            try Y4MFileSource(settings: Y4MSourceSettings(path: odd))
        }
    }
}
