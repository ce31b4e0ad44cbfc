internal import CRTMP

extension RTMPPublisher {
    /// Chunk stream for all media and data messages: librtmp's `RTMP_Write` uses 0x04
    /// ("source channel") for audio, video and metadata alike.
    static let mediaChunkStreamID: Int32 = 0x04

    /// AMF0 string "@setDataFrame" (AMF0 spec §2.4: marker 0x02, u16 length 13, UTF-8),
    /// which servers expect in front of onMetaData when a publisher sets stream metadata.
    static let setDataFrameAMF0: [UInt8] = [0x02, 0x00, 0x0D] + Array("@setDataFrame".utf8)

    /// Longest message body RTMP's 24-bit message length can carry (RTMP spec §6.1.2).
    static let maximumBodySize = 0xFF_FFFF

    /// Sends one message. Blocks at most about `sendTimeoutSeconds` when the network stalls.
    /// After a failure the session is closed; call `connect()` again.
    ///
    /// A message with `requiredHeadroom` and no other reference to its storage is sent from that
    /// storage, without a copy (crtmp_send_in_place); librtmp writes chunk headers into it, so the
    /// message is consumed. Others (metadata, which gets a prefix) go through a packet of their own.
    public func send(_ message: consuming RTMPMediaMessage) throws(RTMPError) {
        guard case .publishing(let lastTimestamp) = state, RTMP_IsConnected(rtmp) != 0 else {
            throw error(.notConnected)
        }
        let prefix = Self.bodyPrefix(for: message)
        let size = prefix.count + message.payloadCount
        guard size <= Self.maximumBodySize else { throw error(.messageTooLarge(bytes: size)) }

        let absolute = Self.needsAbsoluteHeader(message.type, timestamp: message.timestamp, after: lastTimestamp)
        let (type, timestamp, headroom) = (message.type.rawValue, message.timestamp, message.headroom)
        let inPlace = prefix.isEmpty && headroom >= RTMPMediaMessage.requiredHeadroom
        var storage = message.takeStorage()

        let ok = try LibrtmpLog.withSink(logSink) { () throws(RTMPError) -> Bool in
            _ = logSink.takeEvents()
            guard inPlace else {
                return prefix.withUnsafeBufferPointer { prefixBytes in
                    storage[headroom...].withUnsafeBufferPointer { body in
                        crtmp_send_message(
                            rtmp, Self.mediaChunkStreamID, type, timestamp, absolute ? 1 : 0,
                            prefixBytes.baseAddress, UInt32(prefixBytes.count),
                            body.baseAddress, UInt32(body.count)) != 0
                    }
                }
            }
            let before = storage.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            return storage.withUnsafeMutableBufferPointer { bytes in
                // Another address: copy-on-write found the storage shared and copied it.
                if UInt(bitPattern: bytes.baseAddress) != before { bodiesCopied += 1 }
                return crtmp_send_in_place(
                    rtmp, Self.mediaChunkStreamID, type, timestamp, absolute ? 1 : 0,
                    bytes.baseAddress! + headroom, UInt32(bytes.count - headroom)) != 0
            }
        }
        guard ok else {
            let events = logSink.takeEvents()
            let aborted = watch.abortReason
            let kind = Self.sendFailureKind(events)
            if kind == .sendTimeout { watch.abandon() }  // (abort did it already)
            close()
            // A watchdog's abort shows up as EPIPE; report what it found instead.
            if let aborted { throw error(.sendTimeout, detail: aborted) }
            throw error(kind)
        }
        bytesSent += UInt64(size)
        state = .publishing(lastTimestamp: timestamp)
    }

    /// A type-0 (absolute timestamp) chunk header for metadata, for the first message (`last`
    /// nil), and if a timestamp ever steps back (a type-1 delta would wrap); type 1 otherwise.
    static func needsAbsoluteHeader(_ type: RTMPMessageType, timestamp: UInt32, after last: UInt32?) -> Bool {
        type == .dataAMF0 || last.map { timestamp < $0 } ?? true
    }

    /// What goes in front of the payload: "@setDataFrame" for metadata, unless the payload
    /// already starts with it, so the server sees it exactly once.
    static func bodyPrefix(for message: RTMPMediaMessage) -> [UInt8] {
        guard message.type == .dataAMF0, !message.payload.starts(with: setDataFrameAMF0) else { return [] }
        return setDataFrameAMF0
    }

    static func sendFailureKind(_ events: [LibrtmpLogEvent]) -> RTMPError.Kind {
        for event in events {
            if case .sendError(let code) = event { return sendFailureKind(code) }
        }
        if events.contains(.closedByPeer) { return .serverClosed }
        return .writeFailed(errno: 0)
    }

    static func sendFailureKind(_ code: Int32) -> RTMPError.Kind {
        switch code {
        case EAGAIN, EWOULDBLOCK, ETIMEDOUT: return .sendTimeout
        case EPIPE, ECONNRESET, ENOTCONN, EBADF: return .serverClosed
        default: return .writeFailed(errno: code)
        }
    }
}
