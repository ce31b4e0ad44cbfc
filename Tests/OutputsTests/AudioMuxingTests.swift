import FLV
import Foundation
import Media
import Synchronization
import TestSupport
import Testing
@testable import Outputs

@Suite("Audio in the FLV muxer, send queue and interleaver")
struct AudioMuxingTests {
    static let metadata = try! FLVTag(type: .scriptData, timestamp: 0, body: [0x02, 0x00, 0x00])

    @Test("a run starts: metadata, AVC and AAC sequence headers, the keyframe; no audio before it")
    func streamStartsWithBothSequenceHeaders() throws {
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        let video = FrameStream(gop: 3)
        // Audio and an inter frame before the first keyframe go nowhere.
        #expect(try muxer.tags(for: AudioStream.packet(0)).isEmpty)
        var late = video.packet(1)
        late.dts = 0
        #expect(try muxer.tags(for: late).isEmpty)
        let start = try muxer.tags(for: video.packet(3))
        #expect(start.map(\.type) == [.scriptData, .video, .audio, .video])
        #expect(start[1].body.prefix(2) == [0x17, 0x00])  // AVC sequence header
        #expect(start[2].body == [0xAF, 0x00, 0x11, 0x88])  // AAC sequence header
        #expect(start.allSatisfy { $0.timestamp == 99 })
        // The next audio packet is a plain frame: its header already went out.
        let audio = try muxer.tags(for: AudioStream.packet(5))
        #expect(audio.map(\.body.first) == [0xAF])
        #expect(audio[0].body[1] == 0x01)
        // A changed AudioSpecificConfig goes out before its frame.
        let stereo = try muxer.tags(for: AudioStream.packet(6, configuration: DecoderConfiguration(parameterSets: [[0x11, 0x90]])))
        #expect(stereo.map { Array($0.body.prefix(2)) } == [[0xAF, 0x00], [0xAF, 0x01]])
        // After a restart, audio waits for the next keyframe again, and the header is resent.
        muxer.restart()
        #expect(try muxer.tags(for: AudioStream.packet(7)).isEmpty)
        #expect(try muxer.tags(for: video.packet(6)).map(\.type) == [.scriptData, .video, .audio, .video])
    }

    @Test("video that starts before any audio: the AAC header goes before the first audio frame")
    func audioHeaderLaterWhenNoAudioSeenYet() throws {
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        #expect(try muxer.tags(for: FrameStream(gop: 3).packet(0)).map(\.type) == [.scriptData, .video, .video])
        #expect(try muxer.tags(for: AudioStream.packet(0)).map { Array($0.body.prefix(2)) } == [[0xAF, 0x00], [0xAF, 0x01]])
    }

    @Test("congestion: audio is dropped only with its video, resumes with the keyframe, never counted as pictures",
          arguments: 0..<30 as Range<UInt64>)
    func congestionDropsAudioWithVideo(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let requests = KeyframeRequests()
        let queue = SendQueue(maxSpanMilliseconds: 400, requestKeyframe: requests.handler)
        var popped: [MediaPacket] = []
        var stall = 0
        for packet in AudioStream.merged(milliseconds: 6000) {
            queue.push(packet)
            // A consumer that now and then stalls for up to 80 packets (~1 s), often past the bound.
            if stall > 0 {
                stall -= 1
            } else if generator.next() % 100 < 4 {
                stall = Int(generator.next() % 80)
            } else {
                popped += SendQueueTests.drain(queue)
            }
        }
        popped += SendQueueTests.drain(queue)
        #expect(queue.overflows.load(ordering: .relaxed) > 0, "seed \(seed): the test never overflowed")
        // The sent sequence stays in time order and every run opens at a video keyframe.
        #expect(zip(popped, popped.dropFirst()).allSatisfy { $0.dts <= $1.dts })
        #expect(popped.first.map { $0.mediaKind == .video && $0.isKeyframe } == true)
        // Wherever video runs without a gap, all the audio of that stretch went too.
        var previousVideo: MediaPacket?
        var audioSince = 0
        for packet in popped {
            if packet.mediaKind == .audio { audioSince += 1; continue }
            if let previous = previousVideo, !packet.isKeyframe || FrameStream.number(packet) == FrameStream.number(previous) + 1 {
                let expected = (0...300).map { AudioStream.packet($0).dts }.filter { $0 >= previous.dts && $0 < packet.dts }.count
                #expect(audioSince == expected, "seed \(seed): \(audioSince) audio packets between pictures at \(previous.dts) and \(packet.dts), expected \(expected)")
            }
            previousVideo = packet
            audioSince = 0
        }
        let pictures = popped.count { $0.mediaKind == .video }
        #expect(pictures + queue.droppedFrames.load(ordering: .relaxed) == 6000 / 33 + 1)
    }

    @Test("interleaver: two threads' packets, paced like capture at 4× speed, come out in time order, all of them")
    func interleavesTwoThreads() async throws {
        let received = SharedLock<[MediaPacket]>([])
        let interleaver = try PacketInterleaver(windowMilliseconds: 300) { batch in received.withLock { $0.append(contentsOf: batch) } }
        defer { interleaver.close() }
        let video = FrameStream(gop: 30)
        let start = ContinuousClock.now
        // Each packet is pushed when its media time comes (a quarter of it in wall time), as two
        // capture threads would; audio a frame late, as an AAC encoder delivers it.
        @Sendable func pace(_ dts: Int64) async {
            try? await Task.sleep(until: start + .milliseconds(dts / 4), clock: .continuous)
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for number in 0..<180 {
                    let packet = video.packet(number)
                    await pace(packet.dts)
                    interleaver.push(packet)
                }
            }
            group.addTask {
                for number in 0..<282 {
                    let packet = AudioStream.packet(number)
                    await pace(packet.dts + 21)
                    interleaver.push(packet)
                }
            }
        }
        interleaver.flush()
        let packets = received.withLock { $0 }
        #expect(packets.count == 180 + 282)
        #expect(zip(packets, packets.dropFirst()).allSatisfy { $0.dts <= $1.dts })
        // Only a packet counted late was moved (none, unless the machine stalled a thread for
        // more than the window's 75 ms of wall time here).
        let moved = packets.filter { $0.mediaKind == .audio }.map(\.dts).enumerated().count { $0.element != AudioStream.packet($0.offset).dts }
            + packets.filter { $0.mediaKind == .video }.map(\.dts).enumerated().count { $0.element != Int64($0.offset) * 33 }
        #expect(moved == interleaver.latePackets)
    }

    @Test("interleaver: audio that arrives an AAC frame after its time is put in its place; nothing is moved")
    func lateAudioWithinTheWindowIsOrdered() throws {
        let received = SharedLock<[MediaPacket]>([])
        let interleaver = try PacketInterleaver(windowMilliseconds: 300) { batch in received.withLock { $0.append(contentsOf: batch) } }
        defer { interleaver.close() }
        let video = FrameStream(gop: 30)
        var arrivals = (0..<90).map { (at: Int64($0) * 33, packet: video.packet($0)) }
        arrivals += (0..<141).map { (at: AudioStream.packet($0).dts + 43, packet: AudioStream.packet($0)) }
        for arrival in arrivals.sorted(by: { $0.at < $1.at }) { interleaver.push(arrival.packet) }
        interleaver.flush()
        let packets = received.withLock { $0 }
        #expect(packets.map(\.dts) == arrivals.map(\.packet.dts).sorted())
        #expect(packets.count == 90 + 141)
        #expect(interleaver.latePackets == 0)
    }

    @Test("interleaver: a stalled track holds the other up by the window at most; what comes late is moved up")
    func stalledTrackIsBounded() {
        // The rule itself (PacketOrder), without the interleaver's thread: what it releases at each push.
        var order = PacketOrder(windowMilliseconds: 300)
        var received: [MediaPacket] = []
        let video = FrameStream(gop: 30)
        order.push(AudioStream.packet(0), releasing: &received)
        for number in 0...20 { order.push(video.packet(number), releasing: &received) }  // 0…660 ms, audio silent
        // Video up to 660 − 300 ms has gone out (plus audio 0); the rest waits for audio.
        let released: [Int64] = [0, 0] + (1...10).map { (number: Int) -> Int64 in Int64(number) * 33 }
        #expect(received.map(\.dts) == released)
        order.push(AudioStream.packet(1), releasing: &received)  // 21 ms: far behind the released line
        #expect(received.last?.mediaKind == .audio)
        #expect(received.last?.dts == 330)
        #expect(order.late == 1)
        // A second late one lands a millisecond after the first: a track's times rise.
        order.push(AudioStream.packet(2), releasing: &received)
        #expect(received.last?.dts == 331)
        #expect(order.late == 2)
        order.releaseAll(into: &received)
        #expect(received.count == 1 + 21 + 2)
    }
}
