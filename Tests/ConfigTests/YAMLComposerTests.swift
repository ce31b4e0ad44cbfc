@testable import Config
import Testing

/// The node tree Config reads: libyaml's events composed with each value's line and column. The
/// problems a bad file gets must read as they did when the tree came from Yams (checked then on a
/// corpus of 29 broken files, byte for byte).
@Suite struct YAMLComposerTests {
    @Test func valuesKeepTheirPlaceStyleAndOrder() throws {
        let root = try #require(try YAMLComposer.compose("b: 1\na:\n  - 'x'\n  - \"y\"\n  - z\n"))
        guard case .mapping(let mapping) = root else { Issue.record("not a map: \(root)"); return }
        #expect(mapping.map { $0.key.scalar?.string } == ["b", "a"])
        #expect(mapping[0].value.mark == .init(line: 1, column: 4))
        guard case .sequence(let items) = mapping[1].value else { Issue.record("not a list"); return }
        #expect(items.map { $0.scalar?.string } == ["x", "y", "z"])
        #expect(items.map { $0.scalar?.style } == [.singleQuoted, .doubleQuoted, .plain])
        #expect(items.map { $0.mark?.line } == [3, 4, 5])
        #expect(items[2].mark?.column == 5)
    }

    @Test(arguments: ["", "# only a comment\n", "\n\n"])
    func aFileWithoutADocumentHasNoRoot(text: String) throws {
        #expect(try YAMLComposer.compose(text) == nil)
    }

    @Test func anAliasOfAScalarRepeatsItsText() throws {
        let root = try #require(try YAMLComposer.compose("a: &t 7\nb: *t\n"))
        guard case .mapping(let mapping) = root else { Issue.record("not a map"); return }
        #expect(mapping[1].value.scalar?.string == "7")
    }

    @Test func anUndefinedAliasIsNamedWhereItStands() {
        #expect(throws: YAMLSyntaxError.grammar(context: nil, problem: "found undefined alias", mark: .init(line: 2, column: 4))) {
            try YAMLComposer.compose("a: 1\nb: *nope\n")
        }
    }

    @Test func duplicateKeysAreSortedAndPointAtTheFirstOnesFirstPlace() {
        // Quoting does not make a key another key.
        #expect(throws: YAMLSyntaxError.duplicateKeys(keys: ["a", "b"], first: .init(line: 2, column: 1))) {
            try YAMLComposer.compose("b: 1\na: 2\n\"b\": 3\na: 4\n")
        }
    }

    @Test func aSecondDocumentIsRefused() {
        #expect(throws: YAMLSyntaxError.grammar(
            context: .init(text: "expected a single document in the stream", mark: .init(line: 1, column: 1)),
            problem: "but found another document", mark: .init(line: 2, column: 1))) {
            try YAMLComposer.compose("a: 1\n---\nb: 2\n")
        }
    }

    @Test func libyamlsOwnWordsAndMarksComeThrough() {
        #expect(throws: YAMLSyntaxError.grammar(
            context: .init(text: "while scanning for the next token", mark: .init(line: 2, column: 1)),
            problem: "found character that cannot start any token", mark: .init(line: 2, column: 1))) {
            try YAMLComposer.compose("source:\n\tdevice: x\n")
        }
    }

    @Test func bytesThatAreNotTextArePlacedByCharacter() {
        #expect(throws: YAMLSyntaxError.reader(problem: "control characters are not allowed", characterOffset: 8)) {
            try YAMLComposer.compose("a: 'é'\nb\u{0}\n")
        }
    }
}
