import Foundation
import Testing
@testable import Outputs
import TestSupport

/// A server's reconnect request in the publish loop, over the fake publisher (the wire side is
/// ReconnectRequestTests, against a scripted server and nginx-rtmp).
@Suite("RTMP output: a server's reconnect request")
struct RTMPOutputReconnectRequestTests {
    typealias Event = FakeServer.Event

    static func frame(_ number: Int) -> Event { .send(type: 9, timestamp: UInt32(number * 33)) }

    @Test func theOldConnectionCarriesEverythingBeforeTheKeyframeAndTheNewOneFromIt() throws {
        let server = FakeServer([])
        let keyframes = KeyframeRequests()
        let output = try RTMPOutputTests.output(server, keyframes: keyframes)
        try output.open()
        #expect(eventually { RTMPOutputTests.isStreaming(output) })
        RTMPOutputTests.feed(output, 0..<13)  // keyframes at 0 and 10 (a GOP of 10)
        #expect(eventually { server.events.count == 1 + 2 + 13 })
        let asked = keyframes.count.load(ordering: .relaxed)
        server.askToReconnect(tcUrl: "rtmp://127.0.0.1:2/other")
        RTMPOutputTests.feed(output, 13..<14)  // the request is read after this frame's batch
        #expect(eventually { server.connects == 2 })
        // The new connection connects on a thread of its own and is taken between batches once
        // it has: frames one by one until the encoder is asked for a keyframe (the handover
        // began), before the next keyframe, 20; then the rest.
        var next = 14
        repeat {
            RTMPOutputTests.feed(output, next..<(next + 1))
            next += 1
        } while next < 20 && !eventually(within: 0.5, { keyframes.count.load(ordering: .relaxed) > asked })
        RTMPOutputTests.feed(output, next..<25)
        #expect(eventually { server.events.contains(.send(type: 18, timestamp: 660)) }, "no switch at keyframe 20")
        output.finish(endTime: 825, drainSeconds: 2)

        #expect(server.urls == ["rtmp://127.0.0.1:1/live/secret", "rtmp://127.0.0.1:2/other/secret"])
        #expect(keyframes.count.load(ordering: .relaxed) > asked, "the encoder was not asked for a keyframe")
        // Every frame once: 0…19 on the old connection, 20… on the new one from its keyframe.
        let expected: [Event] =
            [.connect, .send(type: 18, timestamp: 0), Self.frame(0)] + (0..<14).map(Self.frame)  // metadata, header, frames
            + [.connect] + (14..<20).map(Self.frame)                         // the new connect; the old one goes on
            + [Self.frame(19), .close]                                       // its end of sequence, deleteStream
            + [.send(type: 18, timestamp: 660), Self.frame(20), Self.frame(20)]  // new: metadata, header, keyframe 20
            + (21..<25).map(Self.frame) + [.send(type: 9, timestamp: 825), .close]
        #expect(server.events == expected)
    }

    /// The new server takes its time (here: never answers): the connect runs on a thread of its
    /// own, so the frames after the request still reach the old connection meanwhile.
    @Test func theOldConnectionGoesOnWhileTheNewOneConnects() throws {
        let (server, output) = try Self.streamingWithANewConnectHanging()
        RTMPOutputTests.feed(output, 4..<12)
        #expect(eventually { server.events.contains(Self.frame(11)) }, "the old connection stalled while the new one connected: \(server.events)")
        output.finish(endTime: 396, drainSeconds: 2)
        #expect(server.events.contains(.cancel), "the stop did not cancel the new connect")
        #expect(RTMPOutputTests.state(output) == .finished(.stopped))
        // Every frame once, on the old connection.
        #expect(server.events.filter { if case .send(type: 9, _) = $0 { true } else { false } }.count == 1 + 12 + 1, "\(server.events)")
    }

    /// An output streaming frames 0…3 to a server that asked to reconnect to itself, after
    /// frame 3, and whose new connect hangs.
    static func streamingWithANewConnectHanging() throws -> (FakeServer, RTMPOutput) {
        let server = FakeServer([.accept(failAfterSends: nil), .hang])
        let output = try RTMPOutputTests.output(server)
        try output.open()
        #expect(eventually { RTMPOutputTests.isStreaming(output) })
        RTMPOutputTests.feed(output, 0..<3)
        #expect(eventually { server.events.count == 1 + 2 + 3 })
        server.askToReconnect(tcUrl: nil)
        RTMPOutputTests.feed(output, 3..<4)
        #expect(eventually { server.connects == 2 })
        return (server, output)
    }

    @Test func aStopCancelsTheNewConnectAndEndsOnTheOldConnection() throws {
        let (server, output) = try Self.streamingWithANewConnectHanging()
        output.finish(endTime: 132, drainSeconds: 2)

        #expect(server.urls == ["rtmp://127.0.0.1:1/live/secret", "rtmp://127.0.0.1:1/live/secret"])
        #expect(server.events.contains(.cancel), "the stop did not cancel the new connect")
        #expect(RTMPOutputTests.state(output) == .finished(.stopped))
        // The hung publisher closed, then the old connection's end of sequence and close.
        #expect(Array(server.events.suffix(3)) == [.close, .send(type: 9, timestamp: 132), .close])
    }
}
