import Media
import TestSupport
import Testing
@testable import Outputs

/// A reload from 48 kHz to 8 kHz sound, played through `PacketOrder` on a simulated clock: the
/// AAC encoder hands a packet out three frames after its first sample (64 ms at 48 kHz, 384 ms at
/// 8 kHz) and announces the next one's time; pictures come 5 ms after their capture.
@Suite struct PresentationDelayRaiseTests {
    struct Run {
        var released: [MediaPacket] = []
        /// Per picture (by decode time), how long it waited in the order, in ms.
        var waits: [Int64: Int64] = [:]
        var late = 0
    }

    /// The old source stops at 1000 ms (its encoder's last packets go out then), the new one
    /// starts there; `raise` says whether the delay follows the new rate and the new encoder's
    /// earliest time is announced (as the pipeline does). A keyframe every 31 pictures puts one at
    /// 1023 ms, the first picture after the reload (the pipeline asks for it).
    static func reloadTo8kHz(raise: Bool) -> Run {
        // nil push and next: the reload raises the delay (after the old encoder's last packets).
        var events: [(at: Int64, push: MediaPacket?, next: Int64?)] = []
        let video = FrameStream(gop: 31)
        events += (0..<76).map { (Int64($0) * 33 + 5, video.packet($0), nil) }  // 0 … 2475 ms
        let old = (0..<47).map { AudioStream.packet($0) }  // 0 … 981 ms at 48 kHz
        for (index, packet) in old.enumerated() {
            let handedOut = min(packet.dts + 64, 1000)
            events.append((handedOut, packet, handedOut < 1000 && index + 1 < old.count ? old[index + 1].dts : nil))
        }
        events.append((1000, nil, nil))
        for frame in 0..<12 {
            let time = 872 + Int64(frame) * 128  // 8 kHz: the priming frame starts 128 ms before the source
            events.append((time + 384, audioPacket(time), time + 128))
        }
        var order = PacketOrder(windowMilliseconds: 300, presentationDelayMilliseconds: 64)
        var run = Run()
        var arrivals: [Int64: Int64] = [:]
        for event in events.enumerated().sorted(by: { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }).map(\.element) {
            let before = run.released.count
            if raise && event.push == nil && event.next == nil {
                let raised = order.raisePresentationDelay(to: PacketInterleaver.presentationDelay(sampleRate: 8000))
                #expect(raised)
                // What the pipeline announces then: the new encoder's first packet lies at most
                // a frame (and a millisecond) before its source starts.
                order.announce(.audio, next: 1000 - 128 - 1, releasing: &run.released)
            }
            if let packet = event.push {
                if packet.mediaKind == .video { arrivals[packet.dts] = event.at }
                order.push(packet, releasing: &run.released)
            }
            if let next = event.next { order.announce(.audio, next: next, releasing: &run.released) }
            for packet in run.released[before...] where packet.mediaKind == .video {
                run.waits[packet.dts] = event.at - (arrivals[packet.dts] ?? event.at)
            }
        }
        order.releaseAll(into: &run.released)
        run.late = order.late
        return run
    }

    static func audioPacket(_ time: Int64) -> MediaPacket {
        MediaPacket(
            codec: .aac, decoderConfiguration: AudioStream.configuration, isKeyframe: true, dts: time, pts: time, captureTime: time,
            units: [[0x21]])
    }

    @Test("without raising the delay, every picture after a reload to 8 kHz waits 190–320 ms for the sound")
    func aDelayKeptFromTheStartHoldsThePictures() {
        let run = Self.reloadTo8kHz(raise: false)
        let after = run.waits.filter { (1400..<2300).contains($0.key) }.map(\.value)
        #expect(after.count == 27 && after.allSatisfy { (150...330).contains($0) }, "\(after.sorted())")
    }

    @Test("a raised delay: the sound takes it at once, the pictures at the next keyframe; nothing waits after the reload, nothing is late, no time goes back")
    func theRaisedDelayTakesEffectAtTheKeyframe() throws {
        let run = Self.reloadTo8kHz(raise: true)
        #expect(run.late == 0)
        let pictures = run.released.filter { $0.mediaKind == .video }
        let sound = run.released.filter { $0.mediaKind == .audio }
        #expect(pictures.count == 76 && sound.count == 47 + 12)
        #expect(zip(run.released, run.released.dropFirst()).allSatisfy { $0.dts <= $1.dts })
        for track in [pictures, sound] {
            #expect(zip(track, track.dropFirst()).allSatisfy { $0.dts < $1.dts && $0.pts < $1.pts })
        }
        // Golden times around the change: the picture before the keyframe shown at 990 + 64, the
        // keyframe at 1023 + 384; the old sound ends at 981 + 64, the new starts at 872 + 384.
        let keyframe = try #require(pictures.firstIndex { $0.dts == 1023 })
        #expect(pictures[keyframe].isKeyframe)
        let golden: [Int64] = [957 + 64, 990 + 64, 1023 + 384, 1056 + 384]
        #expect(Array(pictures[(keyframe - 2)...(keyframe + 1)].map(\.pts)) == golden)
        #expect(pictures.allSatisfy { $0.pts - $0.dts == ($0.dts < 1023 ? 64 : 384) })
        let goldenSound: [Int64] = [960 + 64, 981 + 64, 872 + 384, 1000 + 384]
        #expect(Array(sound.map(\.pts)[45...48]) == goldenSound)
        // The pictures wait only at the start (the first sound comes at 64 ms); not in the
        // reload's gap either, though the new encoder's first packet comes only at 1256 ms.
        let waits = run.waits.sorted { $0.key < $1.key }
        #expect(waits.count >= 70 && waits.filter { $0.key >= 66 }.allSatisfy { $0.value == 0 }, "\(waits)")
    }
}
