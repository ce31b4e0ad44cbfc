internal import CYAML

/// Bounds the work a config file can cause before `YAMLComposer` builds its node tree.
///
/// A composer resolves an alias by repeating the anchored node and compares every mapping key to
/// find duplicates, so an alias of a list used as a key is compared in full: eight lines of
/// `&a [*b, *b, …]` cost ten times more per level (a 432-byte file kept `check-config` busy for
/// over a minute with the YAML library used before). A config has no use for a shared map or list, so anchors on maps and lists are
/// refused; an anchored scalar (`connect_timeout_seconds: &t 7`, `send_timeout_seconds: *t`)
/// stays allowed, with the text its aliases repeat bounded like the file itself. Files, node
/// counts and nesting no config comes near are refused too.
///
/// The scan runs libyaml's own event parser (the one `YAMLComposer` builds on), so what it calls
/// an anchor is exactly what the composer would resolve — a text search would be fooled
/// by quotes, comments and `&` inside URLs. Each event is dropped at once: the cost is linear in
/// the file's size. A syntax error ends the scan; the composer then reports it, having seen only the
/// bounded text before it.
enum YAMLEventScan {
    /// 1 MiB: the documented camcast.yaml is 8 KiB with every key and comment.
    static let maxBytes = 1 << 20
    /// Scalars, sequences and maps: the full schema has about 60.
    static let maxNodes = 10_000
    /// Maps and lists inside each other: the schema needs 3 (`outputs`, an item, its keys).
    static let maxDepth = 32

    struct Finding: Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    /// The first reason the text must not be composed, or nil when it may be.
    static func check(_ yaml: String) -> Finding? {
        let byteCount = yaml.utf8.count
        guard byteCount <= maxBytes else {
            return Finding(line: 1, column: 1,
                           message: "the file is \(byteCount) bytes; a config file may hold at most \(maxBytes) (1 MiB)")
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(yaml.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var nodes = 0
            var depth = 0
            /// The length of each anchored scalar, and the bytes aliases have repeated so far.
            var anchoredLengths: [String: Int] = [:]
            var repeatedBytes = 0
            while true {
                var event = yaml_event_t()
                // A syntax error: the composer stops at the same place and says what is wrong.
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                let at = (line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
                func finding(_ message: String) -> Finding { Finding(line: at.line, column: at.column, message: message) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_ALIAS_EVENT:
                    // An undefined alias is the composer's to report; it stops there.
                    let name = text(event.data.alias.anchor)
                    repeatedBytes += anchoredLengths[name] ?? 0
                    nodes += 1
                    if repeatedBytes > maxBytes {
                        return finding("aliases repeat more than \(maxBytes) bytes of text; write the values out")
                    }
                case YAML_SCALAR_EVENT:
                    nodes += 1
                    if let anchor = event.data.scalar.anchor {
                        anchoredLengths[text(anchor)] = Int(event.data.scalar.length)
                    }
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    nodes += 1
                    depth += 1
                    let isList = event.type == YAML_SEQUENCE_START_EVENT
                    let anchor = isList ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
                    if anchor != nil {
                        return finding("YAML anchors on a \(isList ? "list" : "map") (`&name`) are not supported in a camcast config; "
                                       + "write its values out (an anchor on a single value is fine)")
                    }
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    depth -= 1
                default:
                    break
                }
                if depth > maxDepth {
                    return finding("maps and lists are nested more than \(maxDepth) deep; a camcast config needs 3")
                }
                if nodes > maxNodes {
                    return finding("the file holds more than \(maxNodes) values; a camcast config needs fewer than 100")
                }
            }
        }
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>) -> String {
        String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
    }
}
