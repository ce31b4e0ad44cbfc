import TestSupport
@testable import RTMP

extension RTMPChunkReader {
    /// Feeds `bytes` in pieces of 1…`largest` bytes, as a socket may deliver them; returns every
    /// message they complete.
    mutating func feed(_ bytes: [UInt8], inPiecesUpTo largest: Int, using random: inout SplitMix64) throws(RTMPProtocolViolation) -> [Message] {
        var read: [Message] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + random.next(in: 1...largest))
            read += try feed(bytes[offset..<end])
            offset = end
        }
        return read
    }
}
