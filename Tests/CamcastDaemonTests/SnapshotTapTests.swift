@testable import CamcastDaemon
@testable import Capture
import Foundation
import Media
import Synchronization
import Testing
import TestSupport

/// /snapshot.jpg is the picture as it was encoded, overlay included. An owned frame's array is the
/// source's own buffer (a y4m clip's, the test pattern's): after the encode the overlay puts the
/// bytes under its text back into it, in place, and the source reads its next picture into it. The
/// picture the tap keeps must not change with it.
@Suite struct SnapshotTapTests {
    @Test func theKeptPictureIsNotChangedByWritesIntoTheSourcesBufferAfterTheEncode() throws {
        let width = 64, height = 32
        let layout = VideoFrame.i420Planes(width: width, height: height)
        let tap = SnapshotTap()
        let jpeg = SharedLock<[UInt8]?>(nil)
        let answered = Atomic<Bool>(false)
        // A request waits (up to 1 s) on its own thread for the capture thread's next frame.
        Thread.detachNewThread {
            let made = tap.jpeg()
            jpeg.withLock { $0 = made }
            answered.store(true, ordering: .releasing)
        }
        var sequence: UInt64 = 0
        while !answered.load(ordering: .acquiring), sequence < 1000 {
            // Light grey as encoded; then, as the overlay's restore does, the same array is written
            // in place (here: black), before the requesting thread has encoded it.
            let frame = VideoFrame(
                width: width, height: height, pixelFormat: .i420, planes: layout.planes,
                bytes: [UInt8](repeating: 200, count: layout.byteCount), timestamp: MonotonicTime.now(), sequence: sequence)
            tap.offer(frame)
            _ = frame.withBytesInPlace { $0.initializeMemory(as: UInt8.self, repeating: 16) }
            sequence += 1
            usleep(2000)
        }
        let image = try #require(jpeg.withLock { $0 }, "no snapshot after \(sequence) frames")
        let decoder = try #require(MJPEGDecoder())
        var picture = [UInt8](repeating: 0, count: MJPEGDecoder.nv12ByteCount(width: width, height: height))
        try image.withUnsafeBytes { image in
            try picture.withUnsafeMutableBufferPointer { try decoder.decodeNV12(image, width: width, height: height, into: $0) }
        }
        let luma = picture.prefix(width * height)
        let mean = luma.reduce(0) { $0 + Int($1) } / luma.count
        // Light grey (200 limited range; the JPEG's range conversion moves it by ~12), not the
        // black written into the array after the offer.
        #expect(mean > 150, "the snapshot's luma is \(mean): not the picture offered (200) but what was written after it")
    }

    /// A grey picture of the tests' size, as the capture thread would offer it.
    static func picture(sequence: UInt64) -> VideoFrame {
        let layout = VideoFrame.i420Planes(width: 64, height: 32)
        return VideoFrame(
            width: 64, height: 32, pixelFormat: .i420, planes: layout.planes,
            bytes: [UInt8](repeating: 128, count: layout.byteCount), timestamp: MonotonicTime.now(), sequence: sequence)
    }

    /// A request on a thread of its own; `answer` is set when it returns, with when it returned.
    final class Request: Sendable {
        let answer = SharedLock<(jpeg: [UInt8]?, at: MonotonicTime)?>(nil)
        init(_ tap: SnapshotTap) {
            Thread.detachNewThread { [answer] in
                let jpeg = tap.jpeg()
                answer.withLock { $0 = (jpeg, MonotonicTime.now()) }
            }
        }
        var isAnswered: Bool { answer.withLock { $0 != nil } }
        func waitForAnswer() -> (jpeg: [UInt8]?, at: MonotonicTime) {
            while true {
                if let done = answer.withLock({ $0 }) { return done }
                usleep(1000)
            }
        }
    }

    /// The waiting request sleeps until the capture thread's picture comes (it used to look for it
    /// every 5 ms), not until its deadline: with a deadline far longer than any answer takes,
    /// the answer comes before it. Speed-independent: a request that is not woken by the offer
    /// is answered only at the deadline, however fast the machine.
    @Test func aWaitingRequestIsWokenByTheOfferedPictureNotByItsDeadline() throws {
        let waitNanoseconds: Int64 = 20_000_000_000
        let tap = SnapshotTap(waitForFrameNanoseconds: waitNanoseconds)
        let askedAt = MonotonicTime.now()
        let request = Request(tap)
        while !tap.isWaitingForPicture { usleep(1000) }
        tap.offer(Self.picture(sequence: 1))
        let answer = request.waitForAnswer()
        #expect(answer.jpeg != nil, "no JPEG for the offered picture")
        #expect(
            answer.at.nanoseconds(since: askedAt) < waitNanoseconds,
            "answered \(answer.at.nanoseconds(since: askedAt) / 1_000_000) ms after the request: at its deadline, not at the offer")
        #expect(tap.encodes.load(ordering: .relaxed) == 1)
    }

    /// A request that comes while another waits for its picture waits beside it — the first holds
    /// no lock while it waits (it used to sleep holding the cache's) — and shares its JPEG: one
    /// encode for both, the same bytes.
    @Test func aSecondRequestWaitsBesideTheFirstWithoutALockAndSharesItsJPEG() throws {
        let waitNanoseconds: Int64 = 20_000_000_000
        let tap = SnapshotTap(waitForFrameNanoseconds: waitNanoseconds)
        let first = Request(tap)
        while !tap.isWaitingForPicture { usleep(1000) }
        let second = Request(tap)
        // Until the second waits too, or the first is answered (at its deadline: no picture is
        // offered meanwhile); only a lock held across the first's wait keeps the second out.
        while tap.requestsWaiting < 2, !first.isAnswered { usleep(1000) }
        #expect(!first.isAnswered, "the second request could not begin to wait while the first waited for its picture")
        tap.offer(Self.picture(sequence: 1))
        let answers = [first.waitForAnswer(), second.waitForAnswer()]
        #expect(answers[0].jpeg != nil)
        #expect(answers[0].jpeg == answers[1].jpeg, "the two requests got different pictures")
        #expect(tap.encodes.load(ordering: .relaxed) == 1, "\(tap.encodes.load(ordering: .relaxed)) encodes for two requests a picture apart")
    }
}
