/// Reads a sequence of AMF0 values from bytes, bounds-checking every length. The one AMF0 reader:
/// FLV script data and the RTMP publisher's check of what a server sends (`RTMPCommandSummary`)
/// both use it.
///
/// Hostile input can neither crash it nor make it allocate beyond the input: lengths are checked
/// against the bytes present before anything is read, nesting is capped at `limits.depth` (so the
/// recursion is too) and the number of values at `limits.values`.
///
/// Liberal where librtmp and FFmpeg are: string bytes that are not UTF-8 are read with U+FFFD in
/// place of the bad sequences, an empty property name that is not followed by the object-end
/// marker is a property like any other, and XML documents and the "unsupported" marker are
/// values. References, typed objects, record sets and the AMF3 switch are refused (librtmp would
/// recurse into AMF3).
public struct AMF0Decoder {
    /// How much a decoder reads before it refuses.
    public struct Limits: Sendable, Hashable {
        /// Deepest object/array nesting (a top-level object is at depth 1).
        public var depth: Int
        /// Values, counting every property and array element, across everything decoded.
        public var values: Int

        public init(depth: Int = AMF0Decoder.maxDepth, values: Int = .max) {
            self.depth = depth
            self.values = values
        }
    }

    /// Deeper nesting than this is refused by default; FLV metadata is never more than a few
    /// levels deep.
    public static let maxDepth = 32

    private var reader: ByteReader
    private let limits: Limits
    /// Values decoded so far (every nested value counts).
    public private(set) var valuesDecoded = 0
    /// The deepest nesting seen so far.
    public private(set) var deepestNesting = 0

    public init(_ bytes: some Collection<UInt8>, limits: Limits = Limits()) {
        reader = ByteReader(Array(bytes))
        self.limits = limits
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
        return Self.string(from: try reader.readBytes(length))
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
        let at = reader.offset
        guard reader.remaining >= 3, reader.bytes[at] == 0, reader.bytes[at + 1] == 0,
            reader.bytes[at + 2] == AMF0Marker.objectEnd.rawValue
        else { return false }
        _ = try reader.readBytes(3)
        return true
    }

    private mutating func decodeValue(depth: Int) throws(FLVError) -> AMF0Value {
        valuesDecoded += 1
        guard valuesDecoded <= limits.values else { throw .amf0TooManyValues(limits.values) }
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
            return .longString(Self.string(from: try reader.readBytes(Int(try reader.readU32()))))
        case .xmlDocument:
            return .xmlDocument(Self.string(from: try reader.readBytes(Int(try reader.readU32()))))
        case .object:
            try enterContainer(at: depth)
            return .object(try decodeProperties(depth: depth))
        case .ecmaArray:
            try skipU32()
            try enterContainer(at: depth)
            return .ecmaArray(try decodeProperties(depth: depth))
        case .strictArray:
            let count = Int(try reader.readU32())
            // Every element takes at least its marker byte: a count beyond the remaining bytes
            // is a lie, and believing it would reserve memory the input never paid for.
            try reader.require(count)
            try enterContainer(at: depth)
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
        case .unsupported:
            return .unsupported
        case .date:
            let milliseconds = try reader.readDouble()
            let timeZone = Int16(bitPattern: try reader.readU16())
            return .date(millisecondsSince1970: milliseconds, timeZone: timeZone)
        case .movieclip, .reference, .objectEnd, .recordset, .typedObject, .avmplusObject:
            throw .badAMF0Marker(byte)
        }
    }

    /// A container opened by a value at `depth` puts its contents one level deeper.
    private mutating func enterContainer(at depth: Int) throws(FLVError) {
        guard depth + 1 <= limits.depth else { throw .amf0NestingTooDeep(limits.depth) }
        deepestNesting = max(deepestNesting, depth + 1)
    }

    private mutating func decodeProperties(depth: Int) throws(FLVError) -> [AMF0Property] {
        var properties: [AMF0Property] = []
        while try !consumeObjectEnd() {
            let key = try decodeKey()
            properties.append(AMF0Property(key, try decodeValue(depth: depth + 1)))
        }
        return properties
    }

    /// UTF-8, with U+FFFD for what is not: a player shows such metadata and librtmp passes such a
    /// description on, so refusing it would be stricter than the peers Camcast talks to.
    static func string(from bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
