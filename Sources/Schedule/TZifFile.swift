/// A compiled zoneinfo file (TZif, RFC 8536) as read from /usr/share/zoneinfo: its transitions,
/// the UTC offset after each, and the footer rule for the instants after the last.
struct TZifFile: Sendable, Equatable {
    /// Ascending instants at which the offset changes.
    var transitions: [Int64]
    /// Seconds east of UTC from `transitions[i]` on.
    var offsetsAfter: [Int]
    /// Before the first transition (the file's local time type 0).
    var initialOffset: Int
    var footer: POSIXZoneRule?

    enum ReadError: Error { case notTZif, truncated }

    init(transitions: [Int64], offsetsAfter: [Int], initialOffset: Int, footer: POSIXZoneRule?) {
        self.transitions = transitions
        self.offsetsAfter = offsetsAfter
        self.initialOffset = initialOffset
        self.footer = footer
    }

    init(bytes: [UInt8]) throws(ReadError) {
        var reader = ByteReader(bytes: bytes)
        let header = try Header(&reader)
        if header.version == 0 {
            // Version 1 only: 32-bit transition times and no footer.
            (transitions, offsetsAfter, initialOffset) = try Self.dataBlock(&reader, header, timeSize: 4)
            footer = nil
            return
        }
        // Version 2+: skip the 32-bit block, read the 64-bit one and the footer after it.
        try reader.skip(header.dataLength(timeSize: 4))
        let header64 = try Header(&reader)
        (transitions, offsetsAfter, initialOffset) = try Self.dataBlock(&reader, header64, timeSize: 8)
        var footerText = ""
        if reader.remaining > 1, try reader.byte() == UInt8(ascii: "\n") {
            while reader.remaining > 0 {
                let byte = try reader.byte()
                if byte == UInt8(ascii: "\n") { break }
                footerText.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        footer = footerText.isEmpty ? nil : POSIXZoneRule(parsing: footerText)
    }

    func offset(at instant: Int64) -> Int {
        guard let first = transitions.first, instant >= first else { return initialOffset }
        if let last = transitions.last, instant >= last, let footer { return footer.offset(at: instant) }
        // The last transition at or before `instant`.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return offsetsAfter[low]
    }

    private struct Header {
        var version: UInt8
        var isUTCCount, isStandardCount, leapCount, timeCount, typeCount, charCount: Int

        init(_ reader: inout ByteReader) throws(ReadError) {
            guard try reader.bytes(4) == Array("TZif".utf8) else { throw .notTZif }
            let versionByte = try reader.byte()
            version = versionByte == 0 ? 0 : versionByte - UInt8(ascii: "0")
            try reader.skip(15)
            isUTCCount = Int(try reader.uint32())
            isStandardCount = Int(try reader.uint32())
            leapCount = Int(try reader.uint32())
            timeCount = Int(try reader.uint32())
            typeCount = Int(try reader.uint32())
            charCount = Int(try reader.uint32())
        }

        func dataLength(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4)
                + isStandardCount + isUTCCount
        }
    }

    private static func dataBlock(_ reader: inout ByteReader, _ header: Header, timeSize: Int) throws(ReadError)
        -> ([Int64], [Int], Int)
    {
        var times: [Int64] = []
        for _ in 0..<header.timeCount {
            times.append(timeSize == 8 ? Int64(bitPattern: try reader.uint64()) : Int64(Int32(bitPattern: try reader.uint32())))
        }
        var typeIndices: [Int] = []
        for _ in 0..<header.timeCount { typeIndices.append(Int(try reader.byte())) }
        var typeOffsets: [Int] = []
        for _ in 0..<header.typeCount {
            typeOffsets.append(Int(Int32(bitPattern: try reader.uint32())))
            try reader.skip(2)  // isdst, abbreviation index
        }
        guard !typeOffsets.isEmpty, typeIndices.allSatisfy({ $0 < typeOffsets.count }) else { throw .truncated }
        try reader.skip(header.charCount + header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount)
        return (times, typeIndices.map { typeOffsets[$0] }, typeOffsets[0])
    }

    private struct ByteReader {
        let bytes: [UInt8]
        var index = 0

        var remaining: Int { bytes.count - index }

        mutating func byte() throws(ReadError) -> UInt8 {
            guard index < bytes.count else { throw .truncated }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func bytes(_ count: Int) throws(ReadError) -> [UInt8] {
            guard remaining >= count else { throw .truncated }
            defer { index += count }
            return Array(bytes[index..<index + count])
        }

        mutating func skip(_ count: Int) throws(ReadError) {
            guard count >= 0, remaining >= count else { throw .truncated }
            index += count
        }

        mutating func uint32() throws(ReadError) -> UInt32 {
            try bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func uint64() throws(ReadError) -> UInt64 {
            try bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
