/// A value in Action Message Format version 0 (Adobe, "AMF 0 Specification", 2007), the encoding
/// of FLV script data and of RTMP commands.
///
/// References, typed objects, record sets and the AMF3 switch are not modelled; the decoder refuses
/// them (`FLVError.badAMF0Marker`).
public enum AMF0Value: Equatable, Sendable {
    /// §2.2: an IEEE-754 double.
    case number(Double)
    /// §2.3
    case boolean(Bool)
    /// §2.4: UTF-8, at most 65535 bytes.
    case string(String)
    /// §2.14: UTF-8 with a 32-bit length.
    case longString(String)
    /// §2.5: anonymous object, properties in order.
    case object([AMF0Property])
    /// §2.10: associative array, properties in order.
    case ecmaArray([AMF0Property])
    /// §2.12: dense array.
    case strictArray([AMF0Value])
    /// §2.7
    case null
    /// §2.8
    case undefined
    /// §2.15: a value of a type the sender could not serialise.
    case unsupported
    /// §2.17: an XML document as UTF-8 text with a 32-bit length.
    case xmlDocument(String)
    /// §2.13: milliseconds since 1970-01-01 UTC; the time-zone field is reserved and written 0.
    case date(millisecondsSince1970: Double, timeZone: Int16)

    /// The value under `key`, if this is an object or ECMA array that has it (first match).
    public subscript(key: String) -> AMF0Value? {
        switch self {
        case .object(let properties), .ecmaArray(let properties):
            properties.first { $0.key == key }?.value
        default:
            nil
        }
    }

    public var numberValue: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    /// The text of a `.string`, `.longString` or `.xmlDocument`.
    public var stringValue: String? {
        switch self {
        case .string(let value), .longString(let value), .xmlDocument(let value): value
        default: nil
        }
    }
}
