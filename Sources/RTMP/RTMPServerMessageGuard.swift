/// Decides, for each whole message from the server, whether librtmp may see it.
///
/// librtmp's `RTMP_ClientPacket` trusts what it is given: it reads fixed offsets of control
/// messages and runs its recursive AMF0/AMF3 decoders (and a full dump of the result into the log)
/// on commands and metadata. Only what a publisher needs reaches it, and only after the checks
/// here; the rest is dropped (media, metadata and aggregates have no business arriving at a
/// publisher, and librtmp would parse them).
enum RTMPServerMessageGuard {
    enum Decision: Equatable {
        /// Hand to librtmp. For commands, what the scan found (name, onStatus code/description).
        case deliver(RTMPCommandSummary?)
        /// Not for librtmp: read and forgotten.
        case drop
    }

    static func check(_ message: RTMPChunkReader.Message, limits: RTMPServerLimits = RTMPServerLimits())
        throws(RTMPProtocolViolation) -> Decision {
        let size = message.body.count
        func atLeast(_ minimum: Int) throws(RTMPProtocolViolation) {
            guard size >= minimum else { throw .truncatedMessage(type: message.type, bytes: size) }
        }
        switch message.type {
        case 1, 2, 3:
            // Set Chunk Size and Abort are applied by `RTMPChunkReader`; an Acknowledgement is
            // only logged by librtmp.
            try atLeast(4)
            return .drop
        case 4:  // User Control: event type (2 bytes) and its data
            try atLeast(2)
            return .deliver(nil)
        case 5, 6:  // Window Acknowledgement Size, Set Peer Bandwidth
            try atLeast(4)
            return .deliver(nil)
        case 20:  // AMF0 command
            try atLeast(1)
            return .deliver(try RTMPCommandSummary(body: message.body, limits: limits))
        case 17:  // AMF3 command: librtmp skips the format byte and decodes the rest as AMF0
            try atLeast(2)
            return .deliver(try RTMPCommandSummary(body: message.body.dropFirst(), limits: limits))
        default:
            return .drop
        }
    }
}
