/// One key/value pair of an AMF0 object or ECMA array (AMF0 spec §2.5, §2.10).
///
/// Objects are kept as ordered lists of these, not dictionaries: AMF0 preserves order, and
/// onMetaData readers and golden tests depend on it.
public struct AMF0Property: Equatable, Sendable {
    public var key: String
    public var value: AMF0Value

    public init(_ key: String, _ value: AMF0Value) {
        self.key = key
        self.value = value
    }
}
