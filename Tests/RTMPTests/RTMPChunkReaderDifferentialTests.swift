import TestSupport
import Testing
@testable import RTMP

/// `RTMPChunkReader` against librtmp's own reader (`RTMP_ReadPacket`, through `LibrtmpReader`) on
/// the same bytes: well-formed server replies in every header form give the same messages from
/// both, and the messages the writer meant.
@Suite("RTMPChunkReader agrees with librtmp's RTMP_ReadPacket")
struct RTMPChunkReaderDifferentialTests {
    typealias Message = RTMPChunkReader.Message

    /// A corpus case: random messages on a few chunk streams (ids of 1, 2 and 3 basic-header
    /// bytes), some with timestamps past 0xFFFFFF, chunk size changes between and inside messages.
    static func corpus(seed: UInt64, compressedStarts: Bool = true) -> (bytes: [UInt8], messages: [Message], writer: CompressingChunkWriter) {
        var writer = CompressingChunkWriter(seed: seed)
        writer.compressedStartsAllowed = compressedStarts
        var random = SplitMix64(seed: seed ^ 0x5EED)
        let ids = [2, 3, 4, 5, 8, 63, 64, 319, 320, 65599].shuffled(using: &random).prefix(random.next(in: 2...6))
        var timestamps: [Int: UInt32] = [:]
        for _ in 0..<random.next(in: 5...60) {
            if random.next(in: 0...9) == 0 {
                writer.setChunkSize([1, 7, 128, 129, 1000, 4096, 65536][random.next(in: 0...6)])
                continue
            }
            let id = ids.randomElement(using: &random)!
            // Repeating the last length, type, stream and spacing lets type 2 and 3 headers be used.
            let repeatLast = random.next(in: 0...2) == 0
            let length = repeatLast ? 40 : random.next(in: 0...3000)
            let type: UInt8 = repeatLast ? 20 : [4, 5, 6, 18, 20][random.next(in: 0...4)]
            let streamID: UInt32 = repeatLast ? 0 : UInt32(random.next(in: 0...1))
            let step: UInt32 = switch random.next(in: 0...4) {
            case 0: 0
            case 1: 0x0100_0000  // an extended timestamp delta
            default: repeatLast ? 33 : UInt32(random.next(in: 1...5000))
            }
            let start: UInt32 = random.next(in: 0...7) == 0 ? 0x00FF_FFFF : 0  // a first timestamp at the limit
            let timestamp = (timestamps[id] ?? start) &+ step
            timestamps[id] = timestamp
            let body = (0..<length).map { _ in UInt8(random.next(in: 0...255)) }
            writer.write(id: id, type: type, streamID: streamID, timestamp: timestamp, body: body)
        }
        let (bytes, messages) = writer.finish()
        return (bytes, messages, writer)
    }

    @Test("the corpus: Camcast's reader, librtmp's reader and the writer agree on every message")
    func corpusAgrees() throws {
        var headerTypes = [0, 0, 0, 0]
        var compressedStarts = 0
        var total = 0
        for seed in UInt64(1)...150 {
            let (bytes, written, writer) = Self.corpus(seed: seed)
            var reader = RTMPChunkReader()
            let camcast = try reader.feed(bytes)
            let librtmp = try LibrtmpReader.messages(from: bytes)
            let agree = camcast == librtmp, asWritten = camcast == written  // not the arrays: megabytes in a failure
            #expect(agree, "seed \(seed): Camcast and librtmp differ at message \(Self.firstDifference(camcast, librtmp))")
            #expect(asWritten, "seed \(seed): differs from what was written at message \(Self.firstDifference(camcast, written))")
            #expect(reader.bufferedBytes == 0)
            for index in 0..<4 { headerTypes[index] += writer.headerTypes[index] }
            compressedStarts += writer.compressedStarts
            total += written.count
        }
        // The corpus does hold every form, or the test proves less than it says.
        #expect(headerTypes.allSatisfy { $0 > 50 }, "header types written: \(headerTypes)")
        #expect(compressedStarts > 50, "chunk streams started with a type 1/2/3 header: \(compressedStarts)")
        print("chunk reader corpus: \(total) messages, header types 0–3: \(headerTypes), compressed starts: \(compressedStarts)")
    }

    /// librtmp's own client (RTMP_ConnectStream) reuses one packet for the whole connection. Where
    /// every chunk stream starts with a type 0 header it reads what Camcast's reader reads; the
    /// corpus with compressed starts is where the two ways part (next test).
    @Test("without compressed starts, Camcast's reader agrees with librtmp's client loop too")
    func corpusAgreesWithTheClientsReusedPacket() throws {
        var total = 0
        for seed in UInt64(1)...150 {
            let (bytes, written, writer) = Self.corpus(seed: seed, compressedStarts: false)
            #expect(writer.compressedStarts == 0)
            var reader = RTMPChunkReader()
            let camcast = try reader.feed(bytes)
            let client = try LibrtmpReader.messages(from: bytes, packet: .reusedAsTheClient)
            let agree = camcast == client, asWritten = camcast == written
            #expect(agree, "seed \(seed): Camcast and librtmp's client differ at message \(Self.firstDifference(camcast, client))")
            #expect(asWritten, "seed \(seed): differs from what was written at message \(Self.firstDifference(camcast, written))")
            total += written.count
        }
        #expect(total > 2000, "\(total) messages")
    }

    /// With compressed starts, librtmp's client takes the missing fields from the chunk read
    /// before on another chunk stream; Camcast, like FFmpeg, from a zeroed header. Every seed where
    /// the client reads differently has a compressed start, and enough of them do differ that the
    /// comparison above is not vacuous.
    @Test("with compressed starts, librtmp's client parts from Camcast's reader only on corpora that have them")
    func clientDiffersOnlyWhereAChunkStreamStartsCompressed() throws {
        var differing = 0
        for seed in UInt64(1)...150 {
            let (bytes, _, writer) = Self.corpus(seed: seed)
            var reader = RTMPChunkReader()
            let camcast = try reader.feed(bytes)
            let client = try LibrtmpReader.messages(from: bytes, packet: .reusedAsTheClient)
            guard camcast != client else { continue }
            differing += 1
            #expect(writer.compressedStarts > 0, "seed \(seed) differs without a compressed start, at \(Self.firstDifference(camcast, client))")
        }
        #expect(differing > 10, "only \(differing) of 150 corpora read differently by librtmp's client")
        print("chunk reader corpus: librtmp's client loop reads \(differing) of 150 corpora differently (compressed starts)")
    }

    /// The difference in its smallest form: a message on chunk stream 3 with message stream 1,
    /// then chunk stream 4 started by a type 1 header (which carries no message stream).
    @Test("a type 1 start after a message on another chunk stream: stream 0 for Camcast and FFmpeg's way, the previous message's for librtmp's client")
    func typeOneStartAfterAnotherChunkStream() throws {
        let first = TestChunks.message(id: 3, type: 20, streamID: 1, body: [1, 2, 3])
        let bytes = first + [0x44, 0, 0, 10, 0, 0, 2, 18, 9, 9]  // cs 4: delta 10, length 2, type 18
        var reader = RTMPChunkReader()
        let camcast = try reader.feed(bytes)
        #expect(camcast.map(\.streamID) == [1, 0])
        #expect(try LibrtmpReader.messages(from: bytes, packet: .freshPerRead) == camcast)
        let client = try LibrtmpReader.messages(from: bytes, packet: .reusedAsTheClient)
        #expect(client.map(\.streamID) == [1, 1])
        #expect(client.map(\.body) == camcast.map(\.body) && client.map(\.type) == camcast.map(\.type))
    }

    @Test("the same corpus arriving a few bytes at a time gives the same messages")
    func corpusInPieces() throws {
        for seed in UInt64(1)...40 {
            let (bytes, written, _) = Self.corpus(seed: seed)
            var reader = RTMPChunkReader()
            var random = SplitMix64(seed: seed)
            let read = try reader.feed(bytes, inPiecesUpTo: 700, using: &random)
            let same = read == written
            #expect(same, "seed \(seed): at message \(Self.firstDifference(read, written))")
        }
    }

    static func firstDifference(_ a: [Message], _ b: [Message]) -> String {
        guard let index = Array(zip(a, b)).firstIndex(where: { $0 != $1 }) else { return "\(min(a.count, b.count)) (counts \(a.count), \(b.count))" }
        let describe = { (m: Message) in "cs \(m.chunkStream) type \(m.type) stream \(m.streamID) t \(m.timestamp) \(m.body.count) B" }
        return "\(index): \(describe(a[index])) vs \(describe(b[index]))"
    }
}
