extension AMF0Value {
    /// The value's AMF0 bytes: type marker then payload.
    ///
    /// Throws `stringTooLong` if a `.string` value or an object key exceeds 65535 UTF-8 bytes
    /// (use `.longString` for long values; keys have no long form).
    public func encoded() throws(FLVError) -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(into: &bytes)
        return bytes
    }

    public func encode(into bytes: inout [UInt8]) throws(FLVError) {
        switch self {
        case .number(let value):
            bytes.append(AMF0Marker.number.rawValue)
            bytes.appendDouble(value)
        case .boolean(let value):
            bytes.append(AMF0Marker.boolean.rawValue)
            bytes.append(value ? 1 : 0)
        case .string(let value):
            bytes.append(AMF0Marker.string.rawValue)
            try Self.appendShortString(value, to: &bytes)
        case .longString(let value):
            try Self.appendLongString(value, marker: .longString, to: &bytes)
        case .xmlDocument(let value):
            try Self.appendLongString(value, marker: .xmlDocument, to: &bytes)
        case .object(let properties):
            bytes.append(AMF0Marker.object.rawValue)
            try Self.appendProperties(properties, to: &bytes)
        case .ecmaArray(let properties):
            bytes.append(AMF0Marker.ecmaArray.rawValue)
            // The count is only a hint to readers; the list still ends with the end marker.
            bytes.appendU32(UInt32(truncatingIfNeeded: properties.count))
            try Self.appendProperties(properties, to: &bytes)
        case .strictArray(let values):
            bytes.append(AMF0Marker.strictArray.rawValue)
            bytes.appendU32(UInt32(truncatingIfNeeded: values.count))
            for value in values {
                try value.encode(into: &bytes)
            }
        case .null:
            bytes.append(AMF0Marker.null.rawValue)
        case .undefined:
            bytes.append(AMF0Marker.undefined.rawValue)
        case .unsupported:
            bytes.append(AMF0Marker.unsupported.rawValue)
        case .date(let milliseconds, let timeZone):
            bytes.append(AMF0Marker.date.rawValue)
            bytes.appendDouble(milliseconds)
            bytes.appendU16(UInt16(bitPattern: timeZone))
        }
    }

    /// UTF-8 with a 16-bit length and no marker: AMF0's "UTF-8" type, used for keys and `.string`.
    static func appendShortString(_ value: String, to bytes: inout [UInt8]) throws(FLVError) {
        let utf8 = Array(value.utf8)
        guard utf8.count <= Int(UInt16.max) else { throw .stringTooLong(utf8.count) }
        bytes.appendU16(UInt16(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A marker, then UTF-8 with a 32-bit length: long strings and XML documents.
    private static func appendLongString(_ value: String, marker: AMF0Marker, to bytes: inout [UInt8]) throws(FLVError) {
        let utf8 = Array(value.utf8)
        guard utf8.count <= Int(UInt32.max) else { throw .stringTooLong(utf8.count) }
        bytes.append(marker.rawValue)
        bytes.appendU32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Key/value pairs, then the empty key and object-end marker (00 00 09) that close them.
    private static func appendProperties(_ properties: [AMF0Property], to bytes: inout [UInt8]) throws(FLVError) {
        for property in properties {
            try appendShortString(property.key, to: &bytes)
            try property.value.encode(into: &bytes)
        }
        bytes.appendU16(0)
        bytes.append(AMF0Marker.objectEnd.rawValue)
    }
}
