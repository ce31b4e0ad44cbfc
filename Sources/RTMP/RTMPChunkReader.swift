/// The server-to-client half of an RTMP chunk stream (RTMP spec 1.0 §5.3), parsed by Camcast
/// instead of librtmp, with limits (`RTMPServerLimits`) checked before anything is buffered.
///
/// Bytes go in as they arrive from the socket, in any split; whole messages come out. A message's
/// declared length is checked when its first header arrives, so a server cannot make us reserve
/// memory it never sends, and bytes are kept only as they arrive (librtmp allocated the declared
/// length at once, and leaked it when a new header replaced a partial message).
struct RTMPChunkReader {
    struct Message: Sendable, Equatable {
        var chunkStream: Int
        var type: UInt8
        var streamID: UInt32
        var timestamp: UInt32
        var body: [UInt8]
    }

    /// What a chunk stream remembers for the compressed headers of its next chunks.
    private struct ChunkStream {
        var length = 0
        var type: UInt8 = 0
        var streamID: UInt32 = 0
        var timestamp: UInt32 = 0
        var delta: UInt32 = 0
        var extendedTimestamp = false
        /// The message being assembled; nil between messages.
        var partial: [UInt8]?
    }

    let limits: RTMPServerLimits
    /// Incoming chunk size; the server changes it with Set Chunk Size (type 1).
    private(set) var chunkSize = 128
    private var streams: [Int: ChunkStream] = [:]
    private var pending: [UInt8] = []
    private var pendingStart = 0

    init(limits: RTMPServerLimits = RTMPServerLimits()) {
        self.limits = limits
    }

    /// Bytes received but not yet part of a whole chunk.
    var bufferedBytes: Int { pending.count - pendingStart }

    /// Takes `bytes` and returns every message they complete, in order. After a violation the
    /// reader is unusable (the connection is to be dropped).
    mutating func feed(_ bytes: some Collection<UInt8>) throws(RTMPProtocolViolation) -> [Message] {
        if pendingStart > 0 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        pending.append(contentsOf: bytes)
        var messages: [Message] = []
        while let message = try nextChunk() {
            if let message { messages.append(message) }
        }
        return messages
    }

    /// Parses one chunk from `pending`: nil when it is not all there yet, .some(nil) for a chunk
    /// that does not finish a message, .some(message) for one that does.
    private mutating func nextChunk() throws(RTMPProtocolViolation) -> Message?? {
        var cursor = pendingStart
        func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard pending.count - cursor >= count else { return nil }
            defer { cursor += count }
            return pending[cursor..<cursor + count]
        }
        func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            bytes.reduce(0) { $0 << 8 | UInt32($1) }
        }

        // Basic header (§5.3.1.1): format in the top 2 bits, chunk stream id in 1–3 bytes.
        guard let first = take(1)?.first else { return nil }
        let format = first >> 6
        var id = Int(first & 0x3F)
        if id == 0 {
            guard let next = take(1) else { return nil }
            id = 64 + Int(next.first!)
        } else if id == 1 {
            guard let next = take(2) else { return nil }
            id = 64 + Int(next.first!) + 256 * Int(next.last!)
        }

        // A chunk stream may start with any header type: the fields a type 1/2/3 header leaves
        // out come from a zeroed previous header (message stream 0, length 0, type 0, time 0), as
        // FFmpeg's rtmppkt.c and librtmp's RTMP_ReadPacket on a fresh packet take them; some
        // servers compress headers across chunk streams. (librtmp's own client loop reuses one
        // packet, and takes them from the chunk before on any chunk stream: the differential
        // tests pin where the two part.) A type 3 start is a message of length 0.
        if streams[id] == nil {
            guard streams.count < limits.maximumChunkStreams else { throw .tooManyChunkStreams(limit: limits.maximumChunkStreams) }
        }
        var state = streams[id] ?? ChunkStream()

        // Message header (§5.3.1.2): 11, 7, 3 or 0 bytes.
        let headerSizes = [11, 7, 3, 0]
        guard let header = take(headerSizes[Int(format)]) else { return nil }
        // A type 2 header over an unfinished message continues it, as in librtmp and FFmpeg
        // (only its time field is read, and the message keeps the time of its start).
        if format == 2, state.partial != nil {
            state.extendedTimestamp = bigEndian(header) == 0xFF_FFFF
            if state.extendedTimestamp {
                guard take(4) != nil else { return nil }
            }
        } else if format < 3 {
            // A type 0 or 1 header over an unfinished message starts a new one, and the bytes
            // of the unfinished one are dropped, as librtmp does: memory stays bounded by the
            // limits either way, so there is nothing to refuse.
            state.partial = nil
            let base = header.startIndex
            let time = bigEndian(header[base..<base + 3])
            if format < 2 {
                state.length = Int(bigEndian(header[base + 3..<base + 6]))
                state.type = header[base + 6]
            }
            if format == 0 {
                // Message stream id: little-endian (§5.3.1.2.1).
                state.streamID = header[(base + 7)...].reversed().reduce(0) { $0 << 8 | UInt32($1) }
            }
            state.extendedTimestamp = time == 0xFF_FFFF
            var value = time
            if state.extendedTimestamp {
                guard let extended = take(4) else { return nil }
                value = bigEndian(extended)
            }
            if format == 0 {
                // A type 3 header that starts the next message adds this timestamp again
                // (§5.3.1.2.4; librtmp and FFmpeg keep the field as it was sent).
                state.timestamp = value
                state.delta = value
            } else {
                state.delta = value
                state.timestamp &+= value
            }
            guard state.length <= limits.maximumMessageBytes else {
                throw .messageTooLong(declared: state.length, limit: limits.maximumMessageBytes)
            }
        } else {
            // §5.3.1.3: a type 3 chunk repeats the extended timestamp of its stream.
            if state.extendedTimestamp {
                guard take(4) != nil else { return nil }
            }
            if state.partial == nil {
                state.timestamp &+= state.delta
            }
        }

        if state.partial == nil {
            let partials = streams.values.count(where: { $0.partial != nil })
            if state.length > chunkSize && partials >= limits.maximumPartialMessages {
                throw .tooManyPartialMessages(limit: limits.maximumPartialMessages)
            }
        }
        let count = min(chunkSize, state.length - (state.partial?.count ?? 0))
        guard let payload = take(count) else { return nil }
        pendingStart = cursor
        // The body is taken out of the table before it grows, so it is appended to in place: a
        // copy per chunk would make a 64 KiB message in 1-byte chunks cost gigabytes of copying.
        var body = state.partial ?? []
        state.partial = nil
        streams[id] = nil
        body.append(contentsOf: payload)

        guard body.count == state.length else {
            state.partial = body
            streams[id] = state
            return .some(nil)
        }
        state.partial = nil
        streams[id] = state
        let message = Message(chunkStream: id, type: state.type, streamID: state.streamID,
                              timestamp: state.timestamp, body: body)
        try applyProtocolControl(message)
        return .some(message)
    }

    /// Set Chunk Size and Abort change how the following chunks are read (§5.4.1, §5.4.2).
    private mutating func applyProtocolControl(_ message: Message) throws(RTMPProtocolViolation) {
        switch message.type {
        case 1:
            guard message.body.count >= 4 else { throw .truncatedMessage(type: 1, bytes: message.body.count) }
            let size = message.body.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard size >= 1, size <= 0x7FFF_FFFF else { throw .invalidChunkSize(size) }
            chunkSize = Int(size)
        case 2:
            guard message.body.count >= 4 else { throw .truncatedMessage(type: 2, bytes: message.body.count) }
            let id = Int(message.body.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            streams[id]?.partial = nil
        default:
            break
        }
    }
}
