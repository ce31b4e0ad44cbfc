/// Splits an Annex-B byte stream (ITU-T H.264 Annex B.1; H.265 Annex B is the same) into NAL
/// units: how `AVCodecEncoder` reads libavcodec's packets and extradata, and how the tests read
/// back the .h264 files the product writes. Codec-neutral (`units(in:)`, `next()`); `parse` types
/// the units as H.264.
///
/// Each NAL unit follows a start code prefix 00 00 01, optionally with a leading zero byte
/// (the 4-byte 00 00 00 01 form); zero bytes before a start code are trailing_zero_8bits and are
/// not part of the NAL unit. Emulation prevention (§7.4.1) guarantees 00 00 01 never occurs inside
/// a NAL unit. Incremental: a NAL unit is complete when the next start code arrives, or at `finish()`.
public struct AnnexBNALUnitParser: Sendable {
    private var buffer: [UInt8] = []
    /// Where the current NAL unit's bytes begin (just after its start code); nil before the first.
    private var unitStart: Int?
    /// Where the start code search resumes.
    private var scanIndex = 0
    private var ready: [[UInt8]] = []
    private var readyIndex = 0

    public init() {}

    /// Adds bytes; throws if bytes other than zeros come before the first start code.
    public mutating func append(_ bytes: some Sequence<UInt8>) throws(NALUnitError) {
        buffer.append(contentsOf: bytes)
        try scan()
    }

    /// The next complete NAL unit (header bytes first), or nil if more bytes (or `finish()`) are needed.
    public mutating func next() -> [UInt8]? {
        guard readyIndex < ready.count else { return nil }
        defer {
            readyIndex += 1
            if readyIndex == ready.count {
                ready.removeAll(keepingCapacity: true)
                readyIndex = 0
            }
        }
        return ready[readyIndex]
    }

    /// Ends the stream: the bytes after the last start code become the final NAL unit.
    public mutating func finish() throws(NALUnitError) {
        guard let start = unitStart else {
            guard buffer.allSatisfy({ $0 == 0 }) else { throw .missingStartCode }
            buffer.removeAll()
            return
        }
        let end = Self.endTrimmingTrailingZeros(buffer, from: start, to: buffer.count)
        if end > start {
            ready.append(try Self.unit(buffer[start..<end]))
        }
        buffer.removeAll()
        unitStart = nil
        scanIndex = 0
    }

    /// Every NAL unit of a complete Annex-B stream, of either codec.
    public static func units(in bytes: some Sequence<UInt8>) throws(NALUnitError) -> [[UInt8]] {
        var parser = AnnexBNALUnitParser()
        try parser.append(bytes)
        try parser.finish()
        var units: [[UInt8]] = []
        while let unit = parser.next() { units.append(unit) }
        return units
    }

    /// Every NAL unit of a complete H.264 Annex-B stream, typed.
    public static func parse(_ bytes: some Sequence<UInt8>) throws(NALUnitError) -> [NALUnit] {
        var units: [NALUnit] = []
        for unit in try Self.units(in: bytes) { units.append(try NALUnit(bytes: unit)) }
        return units
    }

    /// One unit's bytes; the forbidden bit is 0 in both codecs' first header byte.
    private static func unit(_ bytes: ArraySlice<UInt8>) throws(NALUnitError) -> [UInt8] {
        guard let header = bytes.first else { throw .empty }
        guard header & 0x80 == 0 else { throw .forbiddenBitSet(header: header) }
        return Array(bytes)
    }

    private mutating func scan() throws(NALUnitError) {
        var index = scanIndex
        while index + 2 < buffer.count {
            guard buffer[index + 2] <= 1 else {
                index += 3  // no start code can end at index+2, nor begin at index, index+1 or index+2 with it
                continue
            }
            guard buffer[index] == 0, buffer[index + 1] == 0, buffer[index + 2] == 1 else {
                index += 1
                continue
            }
            if let start = unitStart {
                let end = Self.endTrimmingTrailingZeros(buffer, from: start, to: index)
                if end > start {
                    ready.append(try Self.unit(buffer[start..<end]))
                }
            } else if !buffer[0..<index].allSatisfy({ $0 == 0 }) {
                throw .missingStartCode
            }
            index += 3
            unitStart = index
        }
        scanIndex = index
        compact()
    }

    /// Drops bytes of NAL units already returned, keeping indices consistent.
    private mutating func compact() {
        guard let start = unitStart, start > 0, start >= buffer.count / 2 else { return }
        buffer.removeFirst(start)
        scanIndex -= start
        unitStart = 0
    }

    private static func endTrimmingTrailingZeros(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
        var end = end
        while end > start && bytes[end - 1] == 0 { end -= 1 }
        return end
    }
}
