internal import CYAML

/// Composes a config file's single YAML document into a `YAMLNode` tree from libyaml's event
/// parser, keeping each node's line and column.
///
/// libyaml itself (Debian's libyaml-dev) scans and parses; this type only builds the tree, as
/// libyaml's own `yaml_parser_load` would, but into Swift values with marks. Work is bounded
/// before it runs: `YAMLEventScan` has refused files too large, too deep or too many-valued, and
/// anchors on maps and lists. Recursion follows the nesting, which that scan bounds.
final class YAMLComposer {
    private var parser = yaml_parser_t()
    /// The input, owned here: libyaml reads it through a pointer for as long as the parser lives.
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let text: String
    private var anchors: [String: YAMLNode] = [:]

    /// The root of the file's one document, or nil for a file without any (empty, only comments).
    static func compose(_ text: String) throws(YAMLSyntaxError) -> YAMLNode? {
        let composer = YAMLComposer(text)
        return try composer.singleDocument()
    }

    private init(_ text: String) {
        self.text = text
        let bytes = Array(text.utf8)
        input = .allocate(capacity: max(bytes.count, 1))
        _ = input.initialize(from: bytes)
        yaml_parser_initialize(&parser)
        yaml_parser_set_input_string(&parser, input.baseAddress, bytes.count)
    }

    deinit {
        yaml_parser_delete(&parser)
        input.deallocate()
    }

    private func singleDocument() throws(YAMLSyntaxError) -> YAMLNode? {
        _ = try next()  // the stream's start
        guard try next().type != YAML_STREAM_END_EVENT else { return nil }  // else the document's start
        let root = try node(from: try next())
        _ = try next()  // the document's end
        let after = try next()
        guard after.type == YAML_STREAM_END_EVENT else {
            throw .grammar(context: .init(text: "expected a single document in the stream", mark: .init(line: 1, column: 1)),
                           problem: "but found another document", mark: after.mark)
        }
        return root
    }

    /// Builds the node that starts with `event`, consuming its events up to its end.
    private func node(from event: Event) throws(YAMLSyntaxError) -> YAMLNode {
        let mark = event.mark
        switch event.type {
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.raw.data.alias.anchor) ?? ""
            guard let node = anchors[name] else {
                throw .grammar(context: nil, problem: "found undefined alias", mark: mark)
            }
            return node
        case YAML_SCALAR_EVENT:
            let scalar = event.raw.data.scalar
            let bytes = UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length))
            let node = YAMLNode.scalar(.init(string: String(decoding: bytes, as: UTF8.self), style: Self.style(scalar.style), mark: mark))
            register(Self.string(scalar.anchor), node)
            return node
        case YAML_SEQUENCE_START_EVENT:
            var items: [YAMLNode] = []
            while case let item = try next(), item.type != YAML_SEQUENCE_END_EVENT {
                items.append(try node(from: item))
            }
            let node = YAMLNode.sequence(.init(items: items, mark: mark))
            register(Self.string(event.raw.data.sequence_start.anchor), node)
            return node
        case YAML_MAPPING_START_EVENT:
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            while case let keyEvent = try next(), keyEvent.type != YAML_MAPPING_END_EVENT {
                let key = try node(from: keyEvent)
                pairs.append((key, try node(from: try next())))
            }
            try Self.checkDuplicates(pairs.map(\.key))
            let node = YAMLNode.mapping(.init(pairs: pairs, mark: mark))
            register(Self.string(event.raw.data.mapping_start.anchor), node)
            return node
        default:
            // libyaml's grammar allows no other event where a value starts.
            throw .grammar(context: nil, problem: "found an unexpected event", mark: mark)
        }
    }

    private func register(_ anchor: String?, _ node: YAMLNode) {
        if let anchor { anchors[anchor] = node }
    }

    /// A key written twice in one map: every such key, sorted, and the first one's first place.
    /// Text keys are found by hashing, so a map of many keys costs no more than reading it.
    private static func checkDuplicates(_ keys: [YAMLNode]) throws(YAMLSyntaxError) {
        var firstByText: [String: YAMLNode] = [:]
        var otherFirsts: [YAMLNode] = []
        var repeated: [(name: String, first: YAMLNode)] = []
        for key in keys {
            if let text = key.scalar?.string {
                guard let first = firstByText[text] else { firstByText[text] = key; continue }
                if !repeated.contains(where: { $0.name == text }) { repeated.append((text, first)) }
            } else if let first = otherFirsts.first(where: { $0 == key }) {
                if !repeated.contains(where: { $0.first == first }) { repeated.append(("<uncovertable>", first)) }
            } else {
                otherFirsts.append(key)
            }
        }
        guard !repeated.isEmpty else { return }
        let sorted = repeated.sorted { $0.name < $1.name }
        throw .duplicateKeys(keys: sorted.map(\.name), first: sorted[0].first.mark ?? .init(line: 0, column: 0))
    }

    private func next() throws(YAMLSyntaxError) -> Event {
        let event = Event()
        guard yaml_parser_parse(&parser, &event.raw) == 1 else { throw error() }
        return event
    }

    private func error() -> YAMLSyntaxError {
        func mark(_ raw: yaml_mark_t) -> YAMLNode.Mark { .init(line: Int(raw.line) + 1, column: Int(raw.column) + 1) }
        let problem = Self.string(parser.problem) ?? "unknown error"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return .outOfMemory
        case YAML_READER_ERROR:
            // libyaml counts bytes; a problem is reported by Character, as an editor shows it.
            let utf8 = text.utf8
            let offset = utf8.index(utf8.startIndex, offsetBy: Int(parser.problem_offset), limitedBy: utf8.endIndex)?
                .samePosition(in: text).map { text.distance(from: text.startIndex, to: $0) }
            return .reader(problem: problem, characterOffset: offset)
        default:
            let context = Self.string(parser.context).map { YAMLSyntaxError.Context(text: $0, mark: mark(parser.context_mark)) }
            return .grammar(context: context, problem: problem, mark: mark(parser.problem_mark))
        }
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLNode.Scalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// One libyaml event; its strings are libyaml's until it is deleted, when this goes.
    private final class Event {
        var raw = yaml_event_t()

        var type: yaml_event_type_t { raw.type }
        var mark: YAMLNode.Mark { .init(line: Int(raw.start_mark.line) + 1, column: Int(raw.start_mark.column) + 1) }

        deinit { yaml_event_delete(&raw) }
    }
}
