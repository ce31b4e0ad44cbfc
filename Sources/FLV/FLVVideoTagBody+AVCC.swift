extension FLVVideoTagBody {
    /// A whole video tag body built in one pass: `headroom` bytes left for whoever sends it (RTMP
    /// chunk headers, `RTMPMediaMessage.requiredHeadroom`), then `header` (the tag body's bytes
    /// before its data, legacy AVC or Enhanced RTMP), then the NAL units as AVCC. Building the
    /// AVCC payload first and the body around it copied every picture's bytes twice (issue 26).
    static func framedAVCCBody(header: [UInt8], nalUnits: [[UInt8]], headroom: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headroom + header.count + nalUnits.reduce(0) { $0 + 4 + $1.count })
        bytes.append(contentsOf: repeatElement(0, count: headroom))
        bytes.append(contentsOf: header)
        for unit in nalUnits {
            bytes.appendU32(UInt32(truncatingIfNeeded: unit.count))
            bytes.append(contentsOf: unit)
        }
        return bytes
    }

    /// Splits an AVCC payload back into NAL units. Throws `truncated` if a length prefix is cut
    /// short and `nalLengthOverrun` if a length claims more bytes than remain. `lengthSize` is the
    /// record's lengthSizeMinusOne + 1: 1, 2 or 4.
    public static func nalUnits(fromAVCC payload: some Collection<UInt8>, lengthSize: Int = 4) throws(FLVError) -> [[UInt8]] {
        precondition([1, 2, 4].contains(lengthSize), "AVCC length size is 1, 2 or 4")
        var reader = ByteReader(Array(payload))
        var units: [[UInt8]] = []
        while !reader.isAtEnd {
            var length = 0
            try reader.require(lengthSize)
            for _ in 0..<lengthSize {
                length = length << 8 | Int(try reader.readU8())
            }
            guard length <= reader.remaining else {
                throw .nalLengthOverrun(declared: length, available: reader.remaining)
            }
            units.append(try reader.readBytes(length))
        }
        return units
    }
}
