/// Splits length-prefixed NAL units: the AVC sample format of ISO/IEC 14496-15 §5.3.4.2.1
/// ("AVCC"), where each NAL unit follows a big-endian length of `lengthSize` bytes.
///
/// x264 with `b_annexb = 0` writes this with 4-byte lengths. Incremental: bytes may arrive in any
/// pieces, and `next()` returns a NAL unit as soon as it is complete.
public struct AVCCNALUnitParser: Sendable {
    /// Bytes in the length prefix: 1, 2 or 4 (lengthSizeMinusOne + 1 in the decoder configuration).
    public let lengthSize: Int
    private var buffer: [UInt8] = []
    private var readIndex = 0

    public init(lengthSize: Int = 4) {
        precondition([1, 2, 4].contains(lengthSize), "AVCC length size must be 1, 2 or 4")
        self.lengthSize = lengthSize
    }

    /// Adds bytes to the end of the input.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        // Drop consumed bytes once they dominate, so a long-lived parser does not grow forever.
        if readIndex > 0 && readIndex >= buffer.count / 2 {
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received but not yet returned as a NAL unit.
    public var pendingByteCount: Int { buffer.count - readIndex }

    /// The next complete NAL unit, or nil if more bytes are needed.
    public mutating func next() throws(NALUnitError) -> NALUnit? {
        guard pendingByteCount >= lengthSize else { return nil }
        var length = 0
        for offset in 0..<lengthSize {
            length = length << 8 | Int(buffer[readIndex + offset])
        }
        guard length > 0 else { throw .zeroLength }
        guard pendingByteCount >= lengthSize + length else { return nil }
        let start = readIndex + lengthSize
        let unit = try NALUnit(bytes: Array(buffer[start..<start + length]))
        readIndex = start + length
        return unit
    }

    /// Every NAL unit of a complete buffer; throws if it ends inside a prefix or a unit.
    public static func parse(_ bytes: some Sequence<UInt8>, lengthSize: Int = 4) throws(NALUnitError) -> [NALUnit] {
        // Contiguous bytes (x264's output buffer) are read where they lie: appending them to the
        // parser's buffer first copied every picture once more on its way out (issue 26).
        let direct = bytes.withContiguousStorageIfAvailable { Self.parse(contiguous: $0, lengthSize: lengthSize) }
        if let direct { return try direct.get() }
        var parser = AVCCNALUnitParser(lengthSize: lengthSize)
        parser.append(bytes)
        var units: [NALUnit] = []
        while let unit = try parser.next() {
            units.append(unit)
        }
        try parser.finish()
        return units
    }

    /// `parse` over bytes in memory: each unit is copied once, out of `bytes`; the same errors.
    private static func parse(contiguous bytes: UnsafeBufferPointer<UInt8>, lengthSize: Int) -> Result<[NALUnit], NALUnitError> {
        var units: [NALUnit] = []
        var index = 0
        while index < bytes.count {
            let pending = bytes.count - index
            guard pending >= lengthSize else { return .failure(.truncated(needed: lengthSize, available: pending)) }
            var length = 0
            for offset in 0..<lengthSize {
                length = length << 8 | Int(bytes[index + offset])
            }
            guard length > 0 else { return .failure(.zeroLength) }
            guard pending >= lengthSize + length else { return .failure(.truncated(needed: lengthSize + length, available: pending)) }
            let start = index + lengthSize
            do {
                units.append(try NALUnit(bytes: Array(UnsafeBufferPointer(rebasing: bytes[start..<start + length]))))
            } catch {
                return .failure(error)
            }
            index = start + length
        }
        return .success(units)
    }

    /// Throws if input remains that does not form a complete NAL unit.
    public func finish() throws(NALUnitError) {
        let pending = pendingByteCount
        guard pending > 0 else { return }
        guard pending >= lengthSize else { throw .truncated(needed: lengthSize, available: pending) }
        var length = 0
        for offset in 0..<lengthSize {
            length = length << 8 | Int(buffer[readIndex + offset])
        }
        throw .truncated(needed: lengthSize + length, available: pending)
    }

    /// Writes `units` in this format, the inverse of `parse`.
    public static func serialize(_ units: [NALUnit], lengthSize: Int = 4) -> [UInt8] {
        var out: [UInt8] = []
        for unit in units {
            let length = unit.bytes.count
            precondition(lengthSize == 4 || length < 1 << (8 * lengthSize), "NAL unit too long for the length size")
            for shift in stride(from: 8 * (lengthSize - 1), through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: length >> shift))
            }
            out.append(contentsOf: unit.bytes)
        }
        return out
    }
}
