import CRTMP
import Foundation
import Testing
@testable import RTMP

/// crtmp_send_in_place (issue 26) against crtmp_send_message, the copying path it replaces for
/// pictures: a librtmp session writing into a socketpair, the same messages through each, and
/// the bytes read from the other end must be the same, for every chunk header form librtmp
/// chooses (types 0 to 3, extended timestamps, messages over several chunks).
@Suite("RTMP messages sent in place")
struct InPlaceSendTests {
    struct Message {
        var type: UInt8
        var timestamp: UInt32
        var absolute: Bool
        var body: [UInt8]
    }

    static func body(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
    }

    /// One stream's worth of messages covering each header form on chunk stream 4.
    static let messages: [Message] = [
        Message(type: 9, timestamp: 0, absolute: true, body: body(100, seed: 1)),  // type 0, first message
        Message(type: 9, timestamp: 40, absolute: false, body: body(300, seed: 2)),  // type 1, 3 chunks at 128
        Message(type: 9, timestamp: 80, absolute: false, body: body(300, seed: 3)),  // type 2: same size and type
        Message(type: 9, timestamp: 80, absolute: false, body: body(300, seed: 4)),  // same timestamp too: type 0 (crtmp_media_packet)
        Message(type: 8, timestamp: 81, absolute: false, body: body(7, seed: 5)),  // audio, type 1
        Message(type: 9, timestamp: 120, absolute: false, body: []),  // an empty body: header only
        Message(type: 9, timestamp: 160, absolute: false, body: body(5000, seed: 6)),  // many chunks
        Message(type: 9, timestamp: 0x0100_1000, absolute: false, body: body(700, seed: 7)),  // delta ≥ 0xFFFFFF
        Message(type: 9, timestamp: 0x0200_0000, absolute: true, body: body(400, seed: 8)),  // type 0, extended
        Message(type: 9, timestamp: 0x0200_0028, absolute: false, body: body(129, seed: 9)),  // one byte over a chunk
        Message(type: 9, timestamp: 0x0200_0050, absolute: false, body: body(128, seed: 10)),  // exactly one chunk
    ]

    /// What a session with `chunkSize` writes for `send` called on each message (a few KiB, which
    /// the socket buffer holds, so nothing reads until the session is closed).
    static func wire(
        chunkSize: Int32, messages: [Message] = messages, send: (UnsafeMutablePointer<RTMP>, Message) -> Int32
    ) throws -> [UInt8] {
        try withSession(chunkSize: chunkSize) { rtmp in
            for message in messages {
                #expect(send(rtmp, message) != 0)
            }
        }.wire
    }

    /// Runs `body` with a librtmp session publishing on message stream 1 into one end of a
    /// socketpair (no handshake: the tests call librtmp's send directly), then closes the session
    /// and returns `body`'s result and every byte the other end read.
    static func withSession<Value>(
        chunkSize: Int32 = Int32(RTMP_DEFAULT_CHUNKSIZE), _ body: (UnsafeMutablePointer<RTMP>) throws -> Value
    ) throws -> (result: Value, wire: [UInt8]) {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[1]) }
        let rtmp = try #require(RTMP_Alloc())
        RTMP_Init(rtmp)
        rtmp.pointee.m_sb.sb_socket = fds[0]
        rtmp.pointee.m_outChunkSize = chunkSize
        rtmp.pointee.m_stream_id = 1
        let result: Value
        do {
            // Closed before reading, thrown or not: the reader sees end-of-file after the last byte.
            defer { closeSession(rtmp) }
            result = try body(rtmp)
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fds[1], &buffer, buffer.count)
            if n <= 0 { break }
            received.append(contentsOf: buffer[..<n])
        }
        return (result, received)
    }

    /// Closes the session's end of the socketpair and frees it.
    static func closeSession(_ rtmp: UnsafeMutablePointer<RTMP>) {
        rtmp.pointee.m_stream_id = 0  // nothing to delete: RTMP_Close then only closes the socket
        RTMP_Close(rtmp)
        RTMP_Free(rtmp)
    }

    static func copying(_ rtmp: UnsafeMutablePointer<RTMP>, _ message: Message) -> Int32 {
        message.body.withUnsafeBufferPointer { body in
            crtmp_send_message(
                rtmp, 4, message.type, message.timestamp, message.absolute ? 1 : 0, nil, 0,
                body.baseAddress, UInt32(body.count))
        }
    }

    static func inPlace(_ rtmp: UnsafeMutablePointer<RTMP>, _ message: Message) -> Int32 {
        var storage = [UInt8](repeating: 0, count: RTMPMediaMessage.requiredHeadroom) + message.body
        return storage.withUnsafeMutableBufferPointer { bytes in
            crtmp_send_in_place(
                rtmp, 4, message.type, message.timestamp, message.absolute ? 1 : 0,
                bytes.baseAddress! + RTMPMediaMessage.requiredHeadroom, UInt32(message.body.count))
        }
    }

    @Test("the bytes on the wire are those of the copying path", arguments: [Int32(128), 4096, 65536])
    func sameBytes(chunkSize: Int32) throws {
        let expected = try Self.wire(chunkSize: chunkSize, send: Self.copying)
        let actual = try Self.wire(chunkSize: chunkSize, send: Self.inPlace)
        let payload = Self.messages.reduce(0) { $0 + $1.body.count }
        #expect(expected.count > payload)  // headers were written, the reader saw everything
        #expect(actual.count == expected.count)
        // The first byte that differs, not two arrays of thousands of bytes, when they do.
        let firstDifference = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil)
    }

    @Test("golden bytes: a type-0 header, then a type-3 continuation over two chunks")
    func goldenTwoChunks() throws {
        let body = Self.body(130, seed: 0)
        let message = Message(type: 9, timestamp: 0x01_0203, absolute: true, body: body)
        let bytes = try Self.wire(chunkSize: 128, messages: [message], send: Self.inPlace)
        #expect(bytes.count == 143)
        let header: [UInt8] = [0x04, 0x01, 0x02, 0x03, 0x00, 0x00, 0x82, 0x09, 0x01, 0x00, 0x00, 0x00]
        #expect(Array(bytes.prefix(12)) == header)  // fmt 0, csid 4, ts, length 130, type 9, stream 1 (LE)
        #expect(Array(bytes[12..<140]) == Array(body[..<128]))
        #expect(bytes[140] == 0xC4)  // fmt 3, csid 4
        #expect(Array(bytes[141..<143]) == Array(body[128...]))
    }

    @Test("the chunk header is written into the caller's headroom: the body is not copied")
    func headerWrittenInPlace() throws {
        var storage = [UInt8](repeating: 0, count: 18) + [0x17, 0x01, 0, 0, 0]
        let (ok, wire) = try Self.withSession { rtmp in
            storage.withUnsafeMutableBufferPointer { crtmp_send_in_place(rtmp, 4, 9, 40, 1, $0.baseAddress! + 18, 5) }
        }
        #expect(ok != 0)
        let header: [UInt8] = [0x04, 0x00, 0x00, 0x28, 0x00, 0x00, 0x05, 0x09, 0x01, 0x00, 0x00, 0x00]
        #expect(Array(storage[6..<18]) == header)
        #expect(wire == header + [0x17, 0x01, 0, 0, 0])  // what was sent is those very bytes
    }

    @Test("the headroom a message needs is librtmp's RTMP_MAX_HEADER_SIZE")
    func headroomIsLibrtmps() {
        #expect(RTMPMediaMessage.requiredHeadroom == Int(RTMP_MAX_HEADER_SIZE))
    }

    @Test("a message with headroom has the payload and equality of one without")
    func headroomInvisible() {
        let plain = RTMPMediaMessage(type: .video, timestamp: 40, payload: [1, 2, 3])
        let framed = RTMPMediaMessage(type: .video, timestamp: 40, storage: [9, 9, 1, 2, 3], headroom: 2)
        #expect(framed.payload == [1, 2, 3])
        #expect(framed.payloadCount == 3)
        #expect(framed == plain)
        #expect(framed.hashValue == plain.hashValue)
    }
}
