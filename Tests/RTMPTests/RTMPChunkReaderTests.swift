import TestSupport
import Testing
@testable import RTMP

@Suite("Reading the server's chunk stream (RTMPChunkReader)")
struct RTMPChunkReaderTests {
    typealias Message = RTMPChunkReader.Message

    /// Set Chunk Size 4096 on chunk stream 2, then a 200-byte command split 128 + 72.
    static let golden: [UInt8] = [
        0x02,                               // fmt 0, chunk stream 2
        0x00, 0x00, 0x00,                   // timestamp 0
        0x00, 0x00, 0x04,                   // length 4
        0x01,                               // type 1: Set Chunk Size
        0x00, 0x00, 0x00, 0x00,             // message stream 0 (little-endian)
        0x00, 0x00, 0x10, 0x00,             // 4096
        0x05,                               // fmt 0, chunk stream 5
        0x00, 0x00, 0x2A,                   // timestamp 42
        0x00, 0x00, 0xC8,                   // length 200
        0x14,                               // type 20: AMF0 command
        0x01, 0x00, 0x00, 0x00,             // message stream 1
    ] + [UInt8](repeating: 0xAB, count: 200)  // one chunk: the chunk size is 4096 from here on

    @Test("golden bytes: Set Chunk Size is applied, and the command is read as one message")
    func goldenBytes() throws {
        var reader = RTMPChunkReader()
        let messages = try reader.feed(Self.golden)
        #expect(messages == [
            Message(chunkStream: 2, type: 1, streamID: 0, timestamp: 0, body: [0, 0, 0x10, 0]),
            Message(chunkStream: 5, type: 20, streamID: 1, timestamp: 42, body: [UInt8](repeating: 0xAB, count: 200)),
        ])
        #expect(reader.chunkSize == 4096)
        #expect(reader.bufferedBytes == 0)
    }

    @Test("byte at a time gives the same messages as all at once")
    func byteAtATime() throws {
        let stream = TestChunks.message(id: 3, type: 20, timestamp: 7, body: Array(0..<255), chunkSize: 128)
            + TestChunks.message(id: 300, type: 20, streamID: 1, body: Array(repeating: 1, count: 10))
            + TestChunks.message(id: 70, type: 4, body: [0, 6, 0, 0, 0, 1])
        var whole = RTMPChunkReader()
        let expected = try whole.feed(stream)
        #expect(expected.map(\.chunkStream) == [3, 300, 70])
        var drip = RTMPChunkReader()
        var messages: [Message] = []
        for byte in stream { messages += try drip.feed([byte]) }
        #expect(messages == expected)
    }

    @Test("round trip: random messages, chunk sizes and chunk stream ids come back as written")
    func roundTrip() throws {
        var random = SplitMix64(seed: 19)
        for _ in 0..<200 {
            var reader = RTMPChunkReader()
            var bytes: [UInt8] = []
            var written: [Message] = []
            let size = UInt32(random.next(in: 1...5000))
            bytes += TestChunks.setChunkSize(size)
            written.append(Message(chunkStream: 2, type: 1, streamID: 0, timestamp: 0, body: TestChunks.u32(size)))
            for _ in 0..<random.next(in: 1...6) {
                let id = [3, 4, 63, 64, 319, 320, 65599][random.next(in: 0...6)]
                let body = (0..<random.next(in: 0...9000)).map { _ in UInt8(random.next(in: 0...255)) }
                let message = Message(chunkStream: id, type: 20, streamID: UInt32(random.next(in: 0...3)),
                                      timestamp: UInt32(random.next(in: 0...100_000)), body: body)
                bytes += TestChunks.message(id: id, type: 20, streamID: message.streamID, timestamp: Int(message.timestamp),
                                            body: body, chunkSize: Int(size))
                written.append(message)
            }
            let read = try reader.feed(bytes, inPiecesUpTo: 3000, using: &random)
            #expect(read == written)
        }
    }

    @Test("type 1/2/3 headers reuse the chunk stream's length, type and timestamp delta")
    func compressedHeaders() throws {
        var reader = RTMPChunkReader()
        let first = TestChunks.message(id: 3, type: 20, streamID: 1, timestamp: 100, body: [1, 2, 3])
        let type1: [UInt8] = [0x43, 0, 0, 10, 0, 0, 2, 20, 9, 9]   // delta 10, length 2, type 20
        let type2: [UInt8] = [0x83, 0, 0, 5, 8, 8]                 // delta 5, same length
        let type3: [UInt8] = [0xC3, 7, 7]                          // same delta again
        let messages = try reader.feed(first + type1 + type2 + type3)
        #expect(messages.map(\.timestamp) == [100, 110, 115, 120])
        #expect(messages.map(\.body) == [[1, 2, 3], [9, 9], [8, 8], [7, 7]])
        #expect(messages.allSatisfy { $0.streamID == 1 && $0.type == 20 })
    }

    @Test("an extended timestamp is read, and repeated on the type 3 chunks of the message")
    func extendedTimestamp() throws {
        var reader = RTMPChunkReader()
        let header: [UInt8] = [0x03, 0xFF, 0xFF, 0xFF, 0, 0, 130, 20, 0, 0, 0, 0, 0x01, 0x00, 0x00, 0x00]
        let bytes = header + [UInt8](repeating: 1, count: 128) + [0xC3, 0x01, 0x00, 0x00, 0x00, 2, 2]
        let messages = try reader.feed(bytes)
        #expect(messages.count == 1)
        #expect(messages.first?.timestamp == 0x0100_0000)
        #expect(messages.first?.body == [UInt8](repeating: 1, count: 128) + [2, 2])
    }

    @Test("a declared length over the limit is refused from the header alone, before any body byte")
    func messageTooLong() throws {
        var reader = RTMPChunkReader()
        let header = Array(TestChunks.message(id: 3, type: 20, body: [], declaredLength: 0xFF_FFFF).prefix(12))
        #expect(throws: RTMPProtocolViolation.messageTooLong(declared: 0xFF_FFFF, limit: 65536)) {
            try reader.feed(header)
        }
        var exact = RTMPChunkReader()
        let atLimit = TestChunks.message(id: 3, type: 20, body: [UInt8](repeating: 0, count: 65536), chunkSize: 128)
        #expect(try exact.feed(atLimit).count == 1)
    }

    @Test("more interleaved partial messages than the limit are refused")
    func tooManyPartials() throws {
        var reader = RTMPChunkReader()
        // Chunk streams 3…10 each start a 1000-byte message and send its first 128 bytes.
        for id in 3...10 {
            let start = Array(TestChunks.message(id: id, type: 20, body: [UInt8](repeating: 0, count: 1000)).prefix(12 + 128))
            #expect(try reader.feed(start).isEmpty)
        }
        let ninth = Array(TestChunks.message(id: 11, type: 20, body: [UInt8](repeating: 0, count: 1000)).prefix(12 + 128))
        #expect(throws: RTMPProtocolViolation.tooManyPartialMessages(limit: 8)) { try reader.feed(ninth) }
    }

    @Test("more chunk streams than the limit are refused, even with complete messages")
    func tooManyChunkStreams() throws {
        var reader = RTMPChunkReader()
        for id in 3..<67 { #expect(try reader.feed(TestChunks.message(id: id, type: 20, body: [5])).count == 1) }
        #expect(throws: RTMPProtocolViolation.tooManyChunkStreams(limit: 64)) {
            try reader.feed(TestChunks.message(id: 67, type: 20, body: [5]))
        }
    }

    /// Not refused: librtmp and FFmpeg (rtmppkt.c) take the fields a type 1/2/3 header leaves out
    /// from a zeroed header, and it costs nothing (the chunk stream count stays limited).
    @Test("a chunk stream started with a type 1 header takes the missing fields from a zeroed header, as librtmp does")
    func typeOneStart() throws {
        let bytes: [UInt8] = [0x43, 0, 0, 10, 0, 0, 2, 20, 9, 9]  // cs 3: delta 10, length 2, type 20
        var reader = RTMPChunkReader()
        let messages = try reader.feed(bytes)
        #expect(messages == [Message(chunkStream: 3, type: 20, streamID: 0, timestamp: 10, body: [9, 9])])
        #expect(try LibrtmpReader.messages(from: bytes) == messages)
    }

    @Test("a chunk stream started with a type 2 or 3 header is a message of length 0, as librtmp reads it",
          arguments: [[0xD9] as [UInt8], [0x99, 0, 0, 5], [0xC1, 0x10, 0x01]])
    func typeTwoOrThreeStart(bytes: [UInt8]) throws {
        var reader = RTMPChunkReader()
        let messages = try reader.feed(bytes)
        #expect(messages.count == 1 && messages.first?.body == [] && messages.first?.type == 0)
        #expect(try LibrtmpReader.messages(from: bytes) == messages)
    }

    /// Not refused: librtmp starts the new message (and leaked the old one's buffer; Camcast
    /// drops it), FFmpeg continues a message of the same length. Either way memory stays within
    /// the limits, so it is not worth a refusal: a server restarting messages forever costs
    /// only the bytes it sends.
    @Test("a type 0 or 1 header over an incomplete message starts a new one; the old bytes are dropped", arguments: [0, 1])
    func interruptedMessage(format: Int) throws {
        var reader = RTMPChunkReader()
        let partial = Array(TestChunks.message(id: 3, type: 20, body: [UInt8](repeating: 0, count: 1000)).prefix(12 + 128))
        let restart: [UInt8] = format == 0
            ? TestChunks.message(id: 3, type: 20, timestamp: 4, body: [1])
            : [0x43, 0, 0, 4, 0, 0, 1, 20, 1]
        var restarts = 0
        for _ in 0..<2_000 {
            restarts += try reader.feed(partial).isEmpty && reader.bufferedBytes == 0 ? 1 : 0
        }
        #expect(restarts == 2_000, "each restart is taken, nothing is held back")
        let messages = try reader.feed(restart)
        #expect(messages.map(\.body) == [[1]])
        #expect(messages.first?.timestamp == 4)
        #expect(try LibrtmpReader.messages(from: partial + restart).map(\.body) == [[1]])
    }

    @Test("a type 2 header over an incomplete message continues it, as librtmp and FFmpeg do")
    func typeTwoContinues() throws {
        let body = [UInt8](repeating: 7, count: 200)
        let first = Array(TestChunks.message(id: 3, type: 20, timestamp: 5, body: body).prefix(12 + 128))
        let bytes = first + [0x83, 0, 0, 5] + body[128...]
        var reader = RTMPChunkReader()
        let messages = try reader.feed(bytes)
        #expect(messages.map(\.body) == [body])
        #expect(try LibrtmpReader.messages(from: bytes).map(\.body) == [body])
    }

    @Test("Set Chunk Size 0 and one with the top bit set are refused", arguments: [UInt32(0), 0x8000_0000, 0xFFFF_FFFF])
    func invalidChunkSize(size: UInt32) {
        var reader = RTMPChunkReader()
        #expect(throws: RTMPProtocolViolation.invalidChunkSize(size)) { try reader.feed(TestChunks.setChunkSize(size)) }
    }

    @Test("Set Chunk Size 0x7FFFFFFF is valid: each message is then one chunk, still within the size limit")
    func largestChunkSize() throws {
        var reader = RTMPChunkReader()
        let body = [UInt8](repeating: 3, count: 60000)
        let messages = try reader.feed(TestChunks.setChunkSize(0x7FFF_FFFF)
            + TestChunks.message(id: 3, type: 20, body: body, chunkSize: 0x7FFF_FFFF))
        #expect(messages.last?.body == body)
        #expect(throws: RTMPProtocolViolation.messageTooLong(declared: 4_000_000, limit: 65536)) {
            try reader.feed(Array(TestChunks.message(id: 4, type: 20, body: [], declaredLength: 4_000_000).prefix(12)))
        }
    }

    @Test("Abort drops the partial message of its chunk stream, which may then start a new one")
    func abort() throws {
        var reader = RTMPChunkReader()
        _ = try reader.feed(Array(TestChunks.message(id: 3, type: 20, body: [UInt8](repeating: 0, count: 1000)).prefix(12 + 128)))
        let messages = try reader.feed(TestChunks.message(id: 2, type: 2, body: TestChunks.u32(3))
            + TestChunks.message(id: 3, type: 20, body: [9]))
        #expect(messages.map(\.type) == [2, 20])
        #expect(messages.last?.body == [9])
    }
}
