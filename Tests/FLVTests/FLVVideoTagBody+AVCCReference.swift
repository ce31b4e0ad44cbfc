@testable import FLV

extension FLVVideoTagBody {
    /// Joins NAL units (each without a start code) into the AVCC form FLV carries, the plain way:
    /// each unit preceded by its length as a 4-byte big-endian integer (the lengthSizeMinusOne = 3
    /// that `AVCDecoderConfigurationRecord` writes). The product builds the tag body in one pass
    /// (`framedAVCCBody`); this is the reference the tests compare it with.
    static func avccPayload(nalUnits: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for unit in nalUnits {
            let count = UInt32(unit.count)
            bytes += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            bytes += unit
        }
        return bytes
    }
}
