import TestSupport
@testable import RTMP

/// Writes server messages as a header-compressing server may (RTMP spec 1.0 §5.3): each message
/// gets a header type chosen at random among those its chunk stream's previous header allows (a
/// chunk stream's first header compares with a zeroed one, so it may be type 1, 2 or 3 too),
/// timestamps past 0xFFFFFF go out as extended timestamps (repeated on every type 3 chunk of the
/// stream, as the spec says), chunks of up to `maximumInterleaved` messages on different chunk
/// streams are interleaved, and Set Chunk Size messages arrive between and inside other messages.
/// Returns the bytes and the messages as a reader must give them back. Written from the spec,
/// independently of the reader.
struct CompressingChunkWriter {
    typealias Message = RTMPChunkReader.Message

    /// What a chunk stream's last header said: what the next header may leave out.
    private struct Previous {
        var length = 0
        var type: UInt8 = 0
        var streamID: UInt32 = 0
        var timestamp: UInt32 = 0
        /// The time field as sent (absolute after type 0, a delta after type 1/2).
        var field: UInt32 = 0
    }

    private struct InFlight {
        var id: Int
        var chunks: [[UInt8]]
        var message: Message
    }

    var random: SplitMix64
    var maximumInterleaved = 6
    /// False: every chunk stream starts with a type 0 header, as a server that compresses nothing
    /// across chunk streams writes (a stream any reader, whatever packet it reuses, reads alike).
    var compressedStartsAllowed = true
    private(set) var bytes: [UInt8] = []
    private(set) var messages: [Message] = []
    private var previous: [Int: Previous] = [:]
    private var inFlight: [InFlight] = []
    private var chunkSize = 128
    /// How often each header type was written (type 0…3), and how many started a chunk stream.
    private(set) var headerTypes = [0, 0, 0, 0]
    private(set) var compressedStarts = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// Queues one message; its chunks go out interleaved with the others in flight.
    mutating func write(id: Int, type: UInt8, streamID: UInt32, timestamp: UInt32, body: [UInt8]) {
        while inFlight.contains(where: { $0.id == id }) || inFlight.count >= maximumInterleaved { sendOneChunk() }
        let before = previous[id] ?? Previous()
        let delta = timestamp &- before.timestamp
        var allowed: [UInt8] = [0]
        if (previous[id] != nil || compressedStartsAllowed) && streamID == before.streamID && timestamp >= before.timestamp {
            allowed.append(1)
            if body.count == before.length && type == before.type {
                allowed.append(2)
                if delta == before.field { allowed.append(3) }
            }
        }
        let format = allowed[random.next(in: 0...allowed.count - 1)]
        headerTypes[Int(format)] += 1
        if previous[id] == nil && format > 0 { compressedStarts += 1 }
        let field = format == 0 ? timestamp : delta
        let extended = field >= 0xFF_FFFF
        var header = TestChunks.basicHeader(format: format, id: id)
        if format < 3 { header += TestChunks.u24(extended ? 0xFF_FFFF : Int(field)) }
        if format < 2 { header += TestChunks.u24(body.count) + [type] }
        if format == 0 { header += [UInt8(streamID & 0xFF), UInt8(streamID >> 8 & 0xFF), UInt8(streamID >> 16 & 0xFF), UInt8(streamID >> 24)] }
        let extendedField = extended ? TestChunks.u32(field) : []
        header += extendedField
        previous[id] = Previous(length: body.count, type: type, streamID: streamID, timestamp: timestamp, field: field)
        // Chunks are cut when sent (the chunk size may change meanwhile); queued here as the body.
        inFlight.append(InFlight(id: id, chunks: [header, body, TestChunks.basicHeader(format: 3, id: id) + extendedField],
                                 message: Message(chunkStream: id, type: type, streamID: streamID, timestamp: timestamp, body: body)))
    }

    /// Set Chunk Size on chunk stream 2, sent at once (between the chunks of messages in flight).
    mutating func setChunkSize(_ size: Int) {
        while inFlight.contains(where: { $0.id == 2 }) { sendOneChunk() }
        write(id: 2, type: 1, streamID: 0, timestamp: previous[2]?.timestamp ?? 0, body: TestChunks.u32(UInt32(size)))
        while inFlight.contains(where: { $0.id == 2 }) { sendOneChunk(of: inFlight.firstIndex { $0.id == 2 }!) }
        chunkSize = size
    }

    /// Sends what is still in flight; returns the bytes and the messages in the order they end.
    mutating func finish() -> (bytes: [UInt8], messages: [Message]) {
        while !inFlight.isEmpty { sendOneChunk() }
        return (bytes, messages)
    }

    /// One chunk of a message in flight (chosen at random unless `index` is given).
    private mutating func sendOneChunk(of index: Int? = nil) {
        let index = index ?? random.next(in: 0...inFlight.count - 1)
        // chunks: [header of the next chunk, the body left, the type 3 header of later chunks]
        var message = inFlight[index]
        let body = message.chunks[1]
        let count = min(chunkSize, body.count)
        bytes += message.chunks[0] + body.prefix(count)
        message.chunks[0] = message.chunks[2]
        message.chunks[1] = Array(body.dropFirst(count))
        if message.chunks[1].isEmpty {
            messages.append(message.message)  // complete: a reader gives it back now
            inFlight.remove(at: index)
        } else {
            inFlight[index] = message
        }
    }
}
