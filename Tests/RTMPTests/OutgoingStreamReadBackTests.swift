import CRTMP
import Testing
@testable import RTMP

/// What Camcast publishes, read back every way a server may read it (issue 40 item 10): by
/// librtmp's RTMP_ReadPacket with a zeroed packet for each read (FFmpeg's rtmppkt.c reads so), by
/// RTMP_ReadPacket with one packet reused for the whole connection (librtmp's own client loop,
/// RTMP_ConnectStream), and by Camcast's RTMPChunkReader. The two librtmp ways part where a chunk
/// stream starts with a compressed header (its missing fields from zero, or from the message read
/// before on another chunk stream; RTMPChunkReaderDifferentialTests); a stream every reader finds
/// exactly as sent has no such start.
@Suite("what Camcast publishes, read back by librtmp both ways")
struct OutgoingStreamReadBackTests {
    /// The publisher's wire after publish: its Set Chunk Size (cs 2), then InPlaceSendTests' messages
    /// (every chunk header form, extended timestamps, one over many chunks), each sent in place
    /// with the chunk header type RTMPPublisher.send chooses for it.
    static func published(chunkSize: UInt32) throws -> (wire: [UInt8], sent: [RTMPChunkReader.Message]) {
        var sent = [RTMPChunkReader.Message(chunkStream: 2, type: 1, streamID: 0, timestamp: 0, body: TestChunks.u32(chunkSize))]
        let (_, wire) = try InPlaceSendTests.withSession { rtmp in
            #expect(crtmp_set_chunk_size(rtmp, chunkSize) != 0)
            var last: UInt32?
            for message in InPlaceSendTests.messages {
                let type = try #require(RTMPMessageType(rawValue: message.type))
                var chosen = message
                chosen.absolute = RTMPPublisher.needsAbsoluteHeader(type, timestamp: message.timestamp, after: last)
                #expect(InPlaceSendTests.inPlace(rtmp, chosen) != 0)
                last = message.timestamp
                sent.append(RTMPChunkReader.Message(chunkStream: 4, type: message.type, streamID: 1, timestamp: message.timestamp, body: message.body))
            }
        }
        return (wire, sent)
    }

    @Test("fresh packets, librtmp's reused packet and Camcast's reader all read each message as sent",
          arguments: [UInt32(128), 4096])
    func everyReaderReadsWhatWasSent(chunkSize: UInt32) throws {
        let (wire, sent) = try Self.published(chunkSize: chunkSize)
        let fresh = try LibrtmpReader.messages(from: wire, packet: .freshPerRead)
        let reused = try LibrtmpReader.messages(from: wire, packet: .reusedAsTheClient)
        var reader = RTMPChunkReader()
        let camcast = try reader.feed(wire)
        for (name, read) in [("a fresh packet per read", fresh), ("librtmp's reused packet", reused), ("Camcast's reader", camcast)] {
            #expect(read.count == sent.count, "\(name): \(read.count) of \(sent.count) messages")
            let first = zip(read, sent).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(first == nil, "\(name): message \(first?.offset ?? -1) read as \(Self.summary(first?.element.0)), sent as \(Self.summary(first?.element.1))")
        }
    }

    static func summary(_ message: RTMPChunkReader.Message?) -> String {
        guard let message else { return "-" }
        return "cs \(message.chunkStream) type \(message.type) stream \(message.streamID) time \(message.timestamp) \(message.body.count) bytes"
    }
}
