import FLV

/// What Camcast reads from a server's AMF0 command, checked before librtmp decodes it.
///
/// librtmp's `AMF_Decode` and `AMF_Dump` recurse once per nesting level and crashed the publisher
/// thread on 20 000 levels, and dump every property through the log (33 s of CPU for 2 000 000).
/// So the body goes through FLV's `AMF0Decoder` first, with the depth and value count bounded by
/// `RTMPServerLimits`; only a body within them reaches librtmp.
struct RTMPCommandSummary: Sendable, Equatable {
    /// The first value when it is a string: the command name (`_result`, `onStatus`, …).
    var command: String?
    /// String-valued properties of top-level objects, first occurrence of each name (an onStatus
    /// info object's `code`, `level`, `description`).
    var properties: [String: String] = [:]
    /// Values seen (every nested value counts).
    var values = 0
    /// Deepest nesting seen (a top-level object's properties are at depth 1).
    var depth = 0

    /// Reads a command body (AMF0 values back to back), refusing one past `limits`.
    init(body: some Collection<UInt8>, limits: RTMPServerLimits = RTMPServerLimits()) throws(RTMPProtocolViolation) {
        var decoder = AMF0Decoder(body, limits: AMF0Decoder.Limits(depth: limits.maximumAMFDepth, values: limits.maximumAMFValues))
        let values: [AMF0Value]
        do {
            values = try decoder.decodeAll()
        } catch {
            switch error {
            case .amf0NestingTooDeep(let limit): throw .amfTooDeep(limit: limit)
            case .amf0TooManyValues(let limit): throw .amfTooManyValues(limit: limit)
            default: throw .amfMalformed(error.description)
            }
        }
        if case .string(let name)? = values.first { command = name }
        for case .object(let members) in values.map(Self.asObject) {
            for member in members where properties[member.key] == nil {
                if let text = member.value.stringValue { properties[member.key] = text }
            }
        }
        self.values = decoder.valuesDecoded
        depth = decoder.deepestNesting
    }

    /// An object or ECMA array as its properties (both are name/value lists on the wire).
    private static func asObject(_ value: AMF0Value) -> AMF0Value {
        if case .ecmaArray(let properties) = value { .object(properties) } else { value }
    }
}
