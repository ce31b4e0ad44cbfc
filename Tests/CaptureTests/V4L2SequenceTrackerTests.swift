@testable import Capture
import Testing

@Suite struct V4L2SequenceTrackerTests {
    @Test func countsGapsAsDrops() {
        var tracker = V4L2SequenceTracker()
        #expect(tracker.observe(10) == 0)  // the first frame sets the origin
        #expect(tracker.observe(11) == 0)
        #expect(tracker.observe(14) == 2)
        #expect(tracker.observe(15) == 0)
    }

    @Test func wrapsAroundThe32BitCounter() {
        var tracker = V4L2SequenceTracker()
        _ = tracker.observe(UInt32.max - 1)
        #expect(tracker.observe(UInt32.max) == 0)
        #expect(tracker.observe(0) == 0)
        #expect(tracker.observe(2) == 1)
    }

    @Test func aRestartOrRepeatIsNotADrop() {
        var tracker = V4L2SequenceTracker()
        _ = tracker.observe(500)
        #expect(tracker.observe(3) == 0)  // the driver restarted counting
        #expect(tracker.observe(3) == 0)
        #expect(tracker.observe(4) == 0)
        tracker.reset()
        #expect(tracker.observe(100) == 0)
    }
}
