import Media
import TestSupport
import Testing
@testable import Outputs

/// The batch paths the interleaver and the publisher use (one lock take per batch, issue 26) must
/// do exactly what the packet-at-a-time paths do.
@Suite("Send queue in batches")
struct SendQueueBatchTests {
    /// 40 frames, a keyframe every 10, through a queue that holds 100 ms: overflows drop runs and
    /// ask for keyframes on the way.
    static let stream = FrameStream(gop: 10)
    static let packets = (0..<40).map { stream.packet($0) }

    static func popEverything(_ queue: SendQueue) -> [Int] {
        queue.close()
        var batch: [MediaPacket] = []
        var numbers: [Int] = []
        while queue.popBatch(into: &batch) { numbers += batch.map(FrameStream.number) }
        return numbers
    }

    @Test("pushing in batches of 1, 3 and 7 queues, drops and asks for keyframes as one packet at a time does", arguments: [1, 3, 7])
    func batchesMatchSinglePushes(size: Int) throws {
        let (singleRequests, batchRequests) = (KeyframeRequests(), KeyframeRequests())
        let single = SendQueue(maxSpanMilliseconds: 100, requestKeyframe: singleRequests.handler)
        let batched = SendQueue(maxSpanMilliseconds: 100, requestKeyframe: batchRequests.handler)
        for (number, packet) in Self.packets.enumerated() {
            single.push(packet)
            // Pops now and then (not from an empty queue: pop waits), so the queues neither only
            // grow nor stay empty.
            if number % 9 == 8, single.count > 0 { _ = single.pop() }
        }
        var index = 0
        while index < Self.packets.count {
            // Never across a pop point, so both queues see pushes and pops in the same order.
            let end = min(index + size, Self.packets.count, (index / 9) * 9 + 9)
            batched.push(contentsOf: Self.packets[index..<end])
            index = end
            if index % 9 == 0, batched.count > 0 { _ = batched.pop() }
        }
        #expect(Self.popEverything(batched) == Self.popEverything(single))
        #expect(batched.droppedFrames.load(ordering: .relaxed) == single.droppedFrames.load(ordering: .relaxed))
        #expect(batched.overflows.load(ordering: .relaxed) == single.overflows.load(ordering: .relaxed))
        #expect(batched.overflows.load(ordering: .relaxed) > 0)
        #expect(batchRequests.count.load(ordering: .relaxed) == singleRequests.count.load(ordering: .relaxed))
    }

    @Test("popBatch hands over what waits up to the first picture, in order, then false once closed and empty")
    func popBatchTakesOnePictureAtATime() {
        let queue = SendQueue(maxSpanMilliseconds: 10_000, requestKeyframe: {})
        let audio = (1...3).map { AudioStream.packet($0) }
        // A keyframe first: the gate lets audio through only after one.
        queue.push(contentsOf: [Self.packets[0], audio[0], audio[1], Self.packets[1], audio[2]])
        var batch: [MediaPacket] = [Self.packets[39]]
        #expect(queue.popBatch(into: &batch))
        #expect(batch.map(\.mediaKind) == [.video])
        #expect(queue.popBatch(into: &batch))
        #expect(batch.map(\.mediaKind) == [.audio, .audio, .video])
        #expect(batch.last.map(FrameStream.number) == 1)
        queue.close()
        #expect(queue.popBatch(into: &batch))
        #expect(batch.map(\.mediaKind) == [.audio])
        #expect(!queue.popBatch(into: &batch))
        #expect(batch.isEmpty)
    }
}
