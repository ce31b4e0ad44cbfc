import Media
import Foundation
import Synchronization
import Testing
@testable import Outputs
import TestSupport

final class KeyframeRequests: Sendable {
    let count = Atomic<Int>(0)
    var handler: @Sendable () -> Void { { self.count.add(1, ordering: .relaxed) } }
}

@Suite("Send queue")
struct SendQueueTests {
    /// Pops what is waiting without blocking.
    static func drain(_ queue: SendQueue) -> [MediaPacket] {
        var out: [MediaPacket] = []
        while queue.count > 0, let packet = queue.pop() { out.append(packet) }
        return out
    }

    /// The stream the publisher sends must never continue after a hole in a GOP: every inter
    /// frame that comes out follows its direct predecessor.
    static func checkNoFrameWithoutItsReference(_ popped: [MediaPacket], seed: UInt64) {
        var previous: Int?
        for packet in popped {
            let number = FrameStream.number(packet)
            if !packet.isKeyframe {
                #expect(previous == number - 1, "seed \(seed): frame \(number) sent after \(previous.map(String.init) ?? "nothing")")
            }
            previous = number
        }
    }

    @Test("random congestion: drops only whole runs up to a keyframe, counts each", arguments: 0..<100 as Range<UInt64>)
    func randomCongestion(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let requests = KeyframeRequests()
        let queue = SendQueue(maxSpanMilliseconds: 500, requestKeyframe: requests.handler)
        let stream = FrameStream(gop: Int.random(in: 5...60, using: &generator))
        var popped: [MediaPacket] = []
        let total = 1500
        for number in 0..<total {
            queue.push(stream.packet(number))
            // The "network" takes 0…3 packets per frame interval, and in congested phases
            // (every other 100 frames) 0…1: slower than the encoder.
            let congested = (number / 100) % 2 == 1
            for _ in 0..<Int.random(in: 0...(congested ? 1 : 3), using: &generator) where queue.count > 0 {
                if let packet = queue.pop() { popped.append(packet) }
            }
            #expect(queue.count <= 500 / 33 + 2, "the queue holds at most its span")
        }
        popped += Self.drain(queue)
        Self.checkNoFrameWithoutItsReference(popped, seed: seed)
        let sentFrames = popped.count
        #expect(sentFrames + queue.droppedFrames.load(ordering: .relaxed) == total, "seed \(seed): every frame sent or counted")
        #expect(queue.discardedFrames.load(ordering: .relaxed) == 0)
        // Every packet carries its decoder configuration: none is lost with dropped frames.
        #expect(popped.first?.isKeyframe == true)
        // Every overflow that left the queue waiting for a keyframe asked the encoder for one.
        let overflows = queue.overflows.load(ordering: .relaxed)
        #expect(overflows > 0, "seed \(seed): the congested phases must overflow the queue")
        #expect(requests.count.load(ordering: .relaxed) <= overflows)
        #expect((queue.droppedFrames.load(ordering: .relaxed) > 0) == (overflows > 0))
    }

    @Test("overflow: everything waiting goes, then inter frames until the keyframe, which is asked for")
    func overflowDropsToKeyframe() {
        let requests = KeyframeRequests()
        let queue = SendQueue(maxSpanMilliseconds: 100, requestKeyframe: requests.handler)
        let stream = FrameStream(gop: 10)
        for number in 0...3 { queue.push(stream.packet(number)) }   // 0, 33, 66, 99 ms: within 100
        #expect(queue.droppedFrames.load(ordering: .relaxed) == 0)
        queue.push(stream.packet(4))                                // 132 ms after frame 0: overflow
        #expect(queue.droppedFrames.load(ordering: .relaxed) == 5)
        #expect(requests.count.load(ordering: .relaxed) == 1)
        for number in 5...9 { queue.push(stream.packet(number)) }   // inter frames: skipped
        queue.push(stream.packet(10))                               // keyframe: queued
        queue.push(stream.packet(11))
        let out = Self.drain(queue)
        #expect(out.map(FrameStream.number) == [10, 11])
        #expect(queue.droppedFrames.load(ordering: .relaxed) == 10)
        #expect(queue.overflows.load(ordering: .relaxed) == 1)
    }

    @Test("a keyframe that overflows the queue is kept: no request, nothing more skipped")
    func keyframeAtOverflowIsKept() {
        let requests = KeyframeRequests()
        let queue = SendQueue(maxSpanMilliseconds: 100, requestKeyframe: requests.handler)
        let stream = FrameStream(gop: 4)
        for number in 0...4 { queue.push(stream.packet(number)) }   // frame 4 is a keyframe at 132 ms
        queue.push(stream.packet(5))
        #expect(Self.drain(queue).map(FrameStream.number) == [4, 5])
        #expect(queue.droppedFrames.load(ordering: .relaxed) == 4)
        #expect(requests.count.load(ordering: .relaxed) == 0)
    }

    @Test("suspended: frames are discarded (not dropped); resume starts at a keyframe")
    func suspendAndResume() {
        let queue = SendQueue(maxSpanMilliseconds: 2000, requestKeyframe: {})
        let stream = FrameStream(gop: 5)
        for number in 0...2 { queue.push(stream.packet(number)) }
        queue.suspend()                                             // connection lost
        for number in 3...6 { queue.push(stream.packet(number)) }   // includes keyframe 5
        #expect(queue.count == 0, "nothing waits")
        queue.resume()                                              // reconnected
        queue.push(stream.packet(7))                                // inter: its GOP began while suspended
        queue.push(stream.packet(10))                               // keyframe
        queue.push(stream.packet(11))
        let out = Self.drain(queue)
        #expect(out.map(FrameStream.number) == [10, 11])
        #expect(queue.discardedFrames.load(ordering: .relaxed) == 3 + 4 + 1)
        #expect(queue.droppedFrames.load(ordering: .relaxed) == 0)
    }

    @Test("discardAll: what follows is queued only from the next keyframe")
    func discardAllSkipsToKeyframe() {
        let queue = SendQueue(maxSpanMilliseconds: 2000, requestKeyframe: {})
        let stream = FrameStream(gop: 5)
        for number in 0...2 { queue.push(stream.packet(number)) }
        queue.discardAll()
        for number in 3...6 { queue.push(stream.packet(number)) }
        #expect(Self.drain(queue).map(FrameStream.number) == [5, 6])
    }

    @Test("span: media time from the oldest to the newest waiting packet (adaptive bitrate's trigger)")
    func span() {
        let queue = SendQueue(maxSpanMilliseconds: 2000, requestKeyframe: {})
        let stream = FrameStream(gop: 30)
        #expect(queue.spanMilliseconds == 0)
        queue.push(stream.packet(0))
        #expect(queue.spanMilliseconds == 0, "one packet spans nothing")
        for number in 1...10 { queue.push(stream.packet(number)) }
        #expect(queue.spanMilliseconds == 330)
        _ = queue.pop()
        _ = queue.pop()
        #expect(queue.spanMilliseconds == 264)
        _ = Self.drain(queue)
        #expect(queue.spanMilliseconds == 0)
    }

    @Test("close wakes a waiting pop and a backoff wait")
    func closeWakesWaiters() {
        let queue = SendQueue(maxSpanMilliseconds: 2000, requestKeyframe: {})
        #expect(queue.waitForClose(seconds: 0.05) == false)
        // Real threads: both calls block, which must not happen on Swift's cooperative pool.
        let results = SharedLock<(popped: Bool?, closed: Bool?)>((nil, nil))
        let done = DispatchGroup()
        done.enter()
        Thread { results.withLock { $0.popped = queue.pop() != nil }; done.leave() }.start()
        done.enter()
        Thread { results.withLock { $0.closed = queue.waitForClose(seconds: 30) }; done.leave() }.start()
        usleep(100_000)
        let started = ContinuousClock.now
        queue.close()
        // "At once" against the 30 s the backoff wait would last: a bound far from both, as a
        // ThreadSanitizer build on a loaded machine took 1.0003 s to get both threads round.
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(results.withLock { $0.popped } == false)
        #expect(results.withLock { $0.closed } == true)
    }
}
