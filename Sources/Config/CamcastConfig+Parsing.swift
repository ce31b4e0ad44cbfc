import Foundation
internal import Yams

extension CamcastConfig {
    /// Parses and validates a config file's text. Throws every problem at once, each with its key
    /// path and line; a file with any problem gives no config at all.
    ///
    /// - Parameter fileName: how problems name the file (`camcast.yaml:12:3: …`).
    public static func parse(yaml: String, fileName: String) throws(ConfigError) -> CamcastConfig {
        if let finding = YAMLEventScan.check(yaml) {
            throw ConfigError(problems: [
                tabExplained(
                    ConfigProblem(origin: fileName, keyPath: "", line: finding.line, column: finding.column, message: finding.message),
                    in: yaml)
            ])
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw ConfigError(problems: [tabExplained(syntaxProblem(error, fileName: fileName), in: yaml)])
        }
        var decoder = ConfigDecoder(origin: fileName)
        decoder.decode(document: root)
        decoder.checkCombinations()
        guard decoder.problems.isEmpty else { throw ConfigError(problems: decoder.sortedProblems) }
        return decoder.config
    }

    /// The same as `parse(yaml:fileName:)`, for callers that build values with initializers.
    public init(yaml: String, fileName: String) throws(ConfigError) {
        self = try Self.parse(yaml: yaml, fileName: fileName)
    }

    /// Reads and parses the file at `path`; a missing or unreadable file is a problem naming it.
    public static func load(path: String) throws(ConfigError) -> CamcastConfig {
        let text: String
        do {
            text = try readText(path: path)
        } catch {
            throw ConfigError(problems: [ConfigProblem(origin: path, keyPath: "", message: error.message)])
        }
        return try parse(yaml: text, fileName: path)
    }

    private struct ReadFailure: Error {
        var message: String
    }

    private static func readText(path: String) throws(ReadFailure) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReadFailure(message: "no such file (give the config file with --config, or copy Config/camcast.yaml there)")
        }
        guard !isDirectory.boolValue else { throw ReadFailure(message: "is a directory, not a config file") }
        // Checked before reading: a device node or a huge file must not be read into memory.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > YAMLEventScan.maxBytes {
            throw ReadFailure(message: "is \(size) bytes; a config file may hold at most \(YAMLEventScan.maxBytes) (1 MiB)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadFailure(message: "cannot be read (check its permissions)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ReadFailure(message: "is not UTF-8 text")
        }
        return text
    }

    /// libyaml says "found character that cannot start any token" for a tab in the indentation,
    /// which does not name the tab: when the faulty line is indented with one, say so.
    static func tabExplained(_ problem: ConfigProblem, in yaml: String) -> ConfigProblem {
        guard let line = problem.line, line >= 1 else { return problem }
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        guard line <= lines.count else { return problem }
        let indentation = lines[line - 1].prefix(while: { $0 == " " || $0 == "\t" })
        guard let tab = indentation.firstIndex(of: "\t") else { return problem }
        var explained = problem
        explained.column = indentation.distance(from: indentation.startIndex, to: tab) + 1
        explained.message = "invalid YAML: a tab in the indentation; YAML indents with spaces only (replace the tab with spaces)"
        return explained
    }

    /// Turns a Yams/libyaml error into one problem with the line of the fault. Yams' own
    /// description quotes the offending line (and, for duplicate keys, the whole file), which can
    /// hold a stream key, so only libyaml's short problem text is used.
    private static func syntaxProblem(_ error: any Error, fileName: String) -> ConfigProblem {
        func problem(_ mark: (line: Int, column: Int)?, _ message: String) -> ConfigProblem {
            ConfigProblem(origin: fileName, keyPath: "", line: mark?.line, column: mark?.column, message: message)
        }
        func while_(_ context: YamlError.Context?) -> String {
            guard let context else { return "" }
            return " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
        }
        guard let error = error as? YamlError else { return problem(nil, "is not valid YAML") }
        switch error {
        case .scanner(let context, let text, let mark, _),
             .parser(let context, let text, let mark, _),
             .composer(let context, let text, let mark, _):
            if text.hasPrefix("but found another document") {
                return problem((mark.line, mark.column), "invalid YAML: the file holds more than one YAML document (a `---` line); keep one")
            }
            return problem((mark.line, mark.column), "invalid YAML: \(text)\(while_(context))")
        case .reader(let text, let offset, _, let yaml):
            let mark = offset.map { lineAndColumn(ofCharacter: $0, in: yaml) }
            return problem(mark, "invalid YAML: \(text)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            // libyaml points at the first occurrence; the repeat is the line to fix.
            let first = context.mark
            let keys = ValueText.list(duplicates.map(ValueText.quoted))
            let repeatLine = duplicates.count == 1
                ? repeatedKeyLine(duplicates[0], after: first.line, column: first.column, in: context.text) : nil
            return problem((repeatLine ?? first.line, first.column),
                           "invalid YAML: \(keys) appears more than once in the same map (first at line \(first.line))")
        default:
            return problem(nil, "is not valid YAML")
        }
    }

    /// The next line after `line` that starts `key:` at the same column, if any.
    private static func repeatedKeyLine(_ key: String, after line: Int, column: Int, in text: String) -> Int? {
        let prefix = String(repeating: " ", count: column - 1) + key
        for (index, candidate) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where index + 1 > line && candidate.hasPrefix(prefix) {
            let rest = candidate.dropFirst(prefix.count).drop { $0 == " " }
            if rest.first == ":" { return index + 1 }
        }
        return nil
    }

    private static func lineAndColumn(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for character in text.prefix(offset) {
            if character == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }
}
