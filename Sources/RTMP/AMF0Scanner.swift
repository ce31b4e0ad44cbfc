/// Checks an AMF0 command body (AMF0 spec, Adobe 2007) before librtmp decodes it, without
/// recursion: librtmp's `AMF_Decode` and `AMF_Dump` recurse once per nesting level and crashed
/// the publisher thread on 20 000 levels, and dump every property through the log (33 s of CPU
/// for 2 000 000). Here the nesting is a counter and a small stack of open containers, so no
/// input can exhaust our stack either; depth and value count are bounded by `RTMPServerLimits`.
///
/// Only the types a server has any reason to send a publisher are accepted; references, typed
/// objects, record sets and AMF3 switches are refused (librtmp would recurse into AMF3 too).
///
/// While scanning it picks up what Camcast itself needs from a command: its name, and the string
/// properties of the top-level objects (an onStatus info object's `code`, `level`, `description`).
enum AMF0Scanner {
    struct Summary: Sendable, Equatable {
        /// The first value when it is a string: the command name (`_result`, `onStatus`, …).
        var command: String?
        /// String-valued properties of top-level objects, first occurrence of each name.
        var properties: [String: String] = [:]
        /// Values seen (every nested value counts).
        var values = 0
        /// Deepest nesting seen (a top-level object's properties are at depth 1).
        var depth = 0
    }

    private enum Container {
        /// Object or ECMA array: name/value pairs up to the empty name + object-end marker.
        case object
        /// Strict array with this many values still to come.
        case array(remaining: UInt32)
    }

    static func scan(_ bytes: some Collection<UInt8>, limits: RTMPServerLimits = RTMPServerLimits())
        throws(RTMPProtocolViolation) -> Summary {
        let body = Array(bytes)
        var summary = Summary()
        var stack: [Container] = []
        var cursor = 0
        var topLevelValues = 0

        func need(_ count: Int, _ what: String) throws(RTMPProtocolViolation) -> Range<Int> {
            guard count <= body.count - cursor else { throw .amfMalformed("\(what) runs past the end") }
            defer { cursor += count }
            return cursor..<cursor + count
        }
        func integer(_ count: Int, _ what: String) throws(RTMPProtocolViolation) -> UInt32 {
            body[try need(count, what)].reduce(0) { $0 << 8 | UInt32($1) }
        }
        func text(_ range: Range<Int>) -> String { String(decoding: body[range], as: UTF8.self) }

        while cursor < body.count || !stack.isEmpty {
            // Where the next value sits: close finished containers, read a property name.
            var name: String?
            switch stack.last {
            case .object?:
                if body.count - cursor >= 3, body[cursor] == 0, body[cursor + 1] == 0, body[cursor + 2] == 0x09 {
                    cursor += 3
                    stack.removeLast()
                    continue
                }
                let length = Int(try integer(2, "property name length"))
                name = text(try need(length, "property name"))
            case .array(let remaining)?:
                if remaining == 0 {
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1] = .array(remaining: remaining - 1)
            case nil:
                topLevelValues += 1
            }

            summary.values += 1
            guard summary.values <= limits.maximumAMFValues else { throw .amfTooManyValues(limit: limits.maximumAMFValues) }
            let marker = body[try need(1, "value marker")].first!
            let depth = stack.count
            // A property of a top-level object: Camcast reads onStatus's `code` and `description`.
            let topLevelProperty = depth == 1 ? name : nil

            switch marker {
            case 0x00: _ = try need(8, "number")
            case 0x01: _ = try need(1, "boolean")
            case 0x02, 0x0C, 0x0F:  // string, long string, XML document
                let length = Int(try integer(marker == 0x02 ? 2 : 4, "string length"))
                let value = text(try need(length, "string"))
                if depth == 0, topLevelValues == 1, marker == 0x02 { summary.command = value }
                if let key = topLevelProperty, summary.properties[key] == nil { summary.properties[key] = value }
            case 0x03, 0x08:  // object, ECMA array (its count is advisory: read to the end marker)
                if marker == 0x08 { _ = try need(4, "ECMA array count") }
                stack.append(.object)
            case 0x0A:  // strict array: each element is at least one byte
                let count = try integer(4, "strict array count")
                guard Int(count) <= body.count - cursor else { throw .amfMalformed("strict array count exceeds the data") }
                stack.append(.array(remaining: count))
            case 0x05, 0x06, 0x0D: break  // null, undefined, unsupported
            case 0x0B: _ = try need(10, "date")
            default:
                throw .amfMalformed("value type \(marker) is not accepted")
            }
            guard stack.count <= limits.maximumAMFDepth else { throw .amfTooDeep(limit: limits.maximumAMFDepth) }
            summary.depth = max(summary.depth, stack.count)
        }
        return summary
    }
}
