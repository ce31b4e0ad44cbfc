/// Reads a sequence of AMF0 values from bytes, bounds-checking every length.
///
/// Hostile input can neither crash it nor make it allocate beyond the input: lengths are checked
/// against the bytes present before anything is read, and nesting is capped at `maxDepth`.
public struct AMF0Decoder {
    /// Deeper nesting than this is refused; FLV metadata is never more than a few levels deep.
    public static let maxDepth = 32

    private var reader: ByteReader

    public init(_ bytes: some Collection<UInt8>) {
        reader = ByteReader(Array(bytes))
    }

    /// Bytes consumed so far.
    public var offset: Int { reader.offset }
    public var isAtEnd: Bool { reader.isAtEnd }

    /// Decodes the next value.
    public mutating func decode() throws(FLVError) -> AMF0Value {
        try decodeValue(depth: 0)
    }

    /// Decodes values until the input is exhausted.
    public mutating func decodeAll() throws(FLVError) -> [AMF0Value] {
        var values: [AMF0Value] = []
        while !isAtEnd {
            values.append(try decode())
        }
        return values
    }

    /// Reads a bare 16-bit-length UTF-8 string (an object key); used by callers that walk an
    /// object property by property.
    mutating func decodeKey() throws(FLVError) -> String {
        let length = Int(try reader.readU16())
        return try Self.string(from: try reader.readBytes(length))
    }

    /// Reads a type marker without a value, failing unless it is `expected`.
    mutating func expectMarker(_ expected: AMF0Marker) throws(FLVError) {
        let marker = try reader.readU8()
        guard marker == expected.rawValue else { throw .badAMF0Marker(marker) }
    }

    /// Reads the ECMA array's advisory count (AMF0 §2.10); callers rely on the end marker instead.
    mutating func skipU32() throws(FLVError) {
        _ = try reader.readU32()
    }

    /// Whether the next three bytes are the empty key + object-end marker; consumes them if so.
    mutating func consumeObjectEnd() throws(FLVError) -> Bool {
        try reader.require(2)
        guard reader.bytes[reader.offset] == 0, reader.bytes[reader.offset + 1] == 0 else { return false }
        _ = try reader.readU16()
        try expectMarker(.objectEnd)
        return true
    }

    private mutating func decodeValue(depth: Int) throws(FLVError) -> AMF0Value {
        guard depth <= Self.maxDepth else { throw .amf0NestingTooDeep(Self.maxDepth) }
        let byte = try reader.readU8()
        guard let marker = AMF0Marker(rawValue: byte) else { throw .badAMF0Marker(byte) }
        switch marker {
        case .number:
            return .number(try reader.readDouble())
        case .boolean:
            return .boolean(try reader.readU8() != 0)
        case .string:
            return .string(try decodeKey())
        case .longString:
            let length = Int(try reader.readU32())
            return .longString(try Self.string(from: try reader.readBytes(length)))
        case .object:
            return .object(try decodeProperties(depth: depth))
        case .ecmaArray:
            try skipU32()
            return .ecmaArray(try decodeProperties(depth: depth))
        case .strictArray:
            let count = Int(try reader.readU32())
            // Every element takes at least its marker byte: a count beyond the remaining bytes
            // is a lie, and believing it would reserve memory the input never paid for.
            try reader.require(count)
            var values: [AMF0Value] = []
            values.reserveCapacity(count)
            for _ in 0..<count {
                values.append(try decodeValue(depth: depth + 1))
            }
            return .strictArray(values)
        case .null:
            return .null
        case .undefined:
            return .undefined
        case .date:
            let milliseconds = try reader.readDouble()
            let timeZone = Int16(bitPattern: try reader.readU16())
            return .date(millisecondsSince1970: milliseconds, timeZone: timeZone)
        case .movieclip, .reference, .objectEnd, .unsupported, .recordset, .xmlDocument, .typedObject,
             .avmplusObject:
            throw .badAMF0Marker(byte)
        }
    }

    private mutating func decodeProperties(depth: Int) throws(FLVError) -> [AMF0Property] {
        var properties: [AMF0Property] = []
        while try !consumeObjectEnd() {
            let key = try decodeKey()
            properties.append(AMF0Property(key, try decodeValue(depth: depth + 1)))
        }
        return properties
    }

    static func string(from bytes: [UInt8]) throws(FLVError) -> String {
        guard let string = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return string
    }
}
