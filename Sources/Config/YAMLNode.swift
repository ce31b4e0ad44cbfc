/// A YAML value as the config file wrote it, with where it was written (1-based line and column).
///
/// Composed by `YAMLComposer` from libyaml's events. Only what a config needs: text with its
/// quoting style, maps in file order and lists; no tags are resolved — the decoder reads every
/// value from its text, so it can say exactly which text was wrong and where.
enum YAMLNode {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    struct Mark: Equatable {
        var line: Int
        var column: Int
    }

    struct Scalar {
        enum Style: Equatable {
            case plain, singleQuoted, doubleQuoted, literal, folded
        }

        var string: String
        var style: Style
        var mark: Mark
    }

    /// A map's entries in file order (a config's messages follow the file).
    struct Mapping: RandomAccessCollection {
        var pairs: [(key: YAMLNode, value: YAMLNode)]
        var mark: Mark

        var startIndex: Int { pairs.startIndex }
        var endIndex: Int { pairs.endIndex }
        subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) { pairs[position] }
    }

    struct Sequence: RandomAccessCollection {
        var items: [YAMLNode]
        var mark: Mark

        var startIndex: Int { items.startIndex }
        var endIndex: Int { items.endIndex }
        subscript(position: Int) -> YAMLNode { items[position] }
    }

    var scalar: Scalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    var mark: Mark? {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .mapping(let mapping): mapping.mark
        case .sequence(let sequence): sequence.mark
        }
    }
}

extension YAMLNode: Equatable {
    /// Two keys are the same key when they hold the same text or the same structure, whatever
    /// their quoting and place: `"a":` and `a:` in one map are a duplicate.
    static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a), .scalar(let b)): a.string == b.string
        case (.sequence(let a), .sequence(let b)): a.items == b.items
        case (.mapping(let a), .mapping(let b)):
            a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}
