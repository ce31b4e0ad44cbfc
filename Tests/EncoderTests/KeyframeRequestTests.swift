@testable import Encoder
import Media
import Synchronization
import TestSupport
import Testing

/// A keyframe request is a message the session reads before its next encode, not a call into
/// the encoder's lock: an output's queue asks from whatever thread it overflows on, while the
/// encoder may be in the middle of a picture (issue 26).
@Suite struct KeyframeRequestTests {
    /// Set by another thread, awaited with a bound.
    final class Flag: @unchecked Sendable {
        // @unchecked: `isSet` only under `condition`.
        private let condition = ConditionLock()
        private var isSet = false

        func set() {
            condition.withLock {
                isSet = true
                condition.broadcast()
            }
        }

        func wait(seconds: UInt64) -> Bool {
            let deadline = MonotonicTime.now().adding(nanoseconds: seconds * 1_000_000_000)
            return condition.withLock {
                while !isSet { guard condition.wait(until: deadline) else { break } }
                return isSet
            }
        }
    }

    @Test("a request made while the session's lock is held (an encode under way) returns at once, and names the next frame")
    func requestDoesNotWaitForTheEncoder() throws {
        let session = try EncoderSession(settings: Harness.settings { $0.preset = "ultrafast" }, logger: Harness.quietLogger) { _ in }
        defer { session.close() }
        let answered = Flag()
        let named = Atomic<Int64>(-1)
        // Holds the lock as an encode does, and asks from another thread meanwhile. When the request
        // took the same lock it waited here until the bound ran out.
        let (thread, returnedWhileLocked) = try session.withState { (_) throws(ThreadStartError) -> (DedicatedThread, Bool) in
            let thread = try DedicatedThread {
                named.store(session.requestKeyframe(), ordering: .relaxed)
                answered.set()
            }
            return (thread, answered.wait(seconds: 5))
        }
        thread.join()
        #expect(returnedWhileLocked)
        #expect(named.load(ordering: .relaxed) == 0)
    }

    @Test("the request is honoured on the next picture, and only there")
    func requestLandsOnTheNextPicture() throws {
        let collector = PictureCollector()
        let session = try EncoderSession(
            settings: Harness.settings {
                $0.preset = "ultrafast"
                $0.keyframeIntervalSeconds = 10
            }, logger: Harness.quietLogger
        ) { collector.add($0) }
        for index in 0..<8 {
            if index == 5 { #expect(session.requestKeyframe() == 5) }
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: index).frame)
        }
        try session.flush()
        #expect(collector.all.map(\.isKeyframe) == [true, false, false, false, false, true, false, false])
    }
}
