@testable import RTMP

/// Test-only: splits an FLV file (FLV spec v10, annex E) into RTMP messages.
/// Header: "FLV", version, flags, u32 data offset; then u32 PreviousTagSize0; then tags of
/// type u8, data size u24, timestamp u24 + extension u8, stream id u24, body, u32 trailer.
enum FLVTestSplitter {
    struct Malformed: Error {}

    static func messages(_ bytes: [UInt8]) throws -> [RTMPMediaMessage] {
        guard bytes.count >= 13, bytes[0] == 0x46, bytes[1] == 0x4C, bytes[2] == 0x56 else { throw Malformed() }
        let dataOffset = Int(bytes[5]) << 24 | Int(bytes[6]) << 16 | Int(bytes[7]) << 8 | Int(bytes[8])
        var position = dataOffset + 4
        var messages: [RTMPMediaMessage] = []
        while position < bytes.count {
            guard position + 11 <= bytes.count else { throw Malformed() }
            let typeByte = bytes[position] & 0x1F
            let size = Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let timestamp = UInt32(bytes[position + 7]) << 24 | UInt32(bytes[position + 4]) << 16
                | UInt32(bytes[position + 5]) << 8 | UInt32(bytes[position + 6])
            let bodyStart = position + 11
            guard bodyStart + size + 4 <= bytes.count, let type = RTMPMessageType(rawValue: typeByte) else {
                throw Malformed()
            }
            messages.append(RTMPMediaMessage(type: type, timestamp: timestamp,
                                             payload: Array(bytes[bodyStart..<bodyStart + size])))
            position = bodyStart + size + 4
        }
        return messages
    }
}
