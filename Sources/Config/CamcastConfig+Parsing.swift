#if canImport(Glibc)
import Glibc
#endif

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
        let root: YAMLNode?
        do {
            root = try YAMLComposer.compose(yaml)
        } catch {
            throw ConfigError(problems: [tabExplained(syntaxProblem(error, fileName: fileName, text: yaml), in: yaml)])
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
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR:
                throw ReadFailure(message: "no such file (give the config file with --config, or copy Config/camcast.yaml there)")
            case EISDIR: throw ReadFailure(message: "is a directory, not a config file")
            default: throw ReadFailure(message: "cannot be read (check its permissions)")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ReadFailure(message: "cannot be read (check its permissions)") }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw ReadFailure(message: "is a directory, not a config file") }
        // Checked before reading: a device node or a huge file must not be read into memory.
        let size = Int(status.st_size)
        if size > YAMLEventScan.maxBytes {
            throw ReadFailure(message: "is \(size) bytes; a config file may hold at most \(YAMLEventScan.maxBytes) (1 MiB)")
        }
        guard let bytes = readAll(descriptor, limit: YAMLEventScan.maxBytes + 1) else {
            throw ReadFailure(message: "cannot be read (check its permissions)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ReadFailure(message: "is not UTF-8 text")
        }
        return text
    }

    /// Every byte up to end of file (at most `limit`), or nil on a read error.
    private static func readAll(_ descriptor: Int32, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
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

    /// Turns a libyaml error into one problem with the line of the fault. Only libyaml's short
    /// problem text is used, never the offending line: it can hold a stream key.
    private static func syntaxProblem(_ error: YAMLSyntaxError, fileName: String, text: String) -> ConfigProblem {
        func problem(_ mark: (line: Int, column: Int)?, _ message: String) -> ConfigProblem {
            ConfigProblem(origin: fileName, keyPath: "", line: mark?.line, column: mark?.column, message: message)
        }
        switch error {
        case .grammar(let context, let problemText, let mark):
            if problemText.hasPrefix("but found another document") {
                return problem((mark.line, mark.column), "invalid YAML: the file holds more than one YAML document (a `---` line); keep one")
            }
            let during = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            return problem((mark.line, mark.column), "invalid YAML: \(problemText)\(during)")
        case .reader(let problemText, let offset):
            return problem(offset.map { lineAndColumn(ofCharacter: $0, in: text) }, "invalid YAML: \(problemText)")
        case .duplicateKeys(let duplicates, let first):
            // libyaml points at the first occurrence; the repeat is the line to fix.
            let keys = ValueText.list(duplicates.map(ValueText.quoted))
            let repeatLine = duplicates.count == 1
                ? repeatedKeyLine(duplicates[0], after: first.line, column: first.column, in: text) : nil
            return problem((repeatLine ?? first.line, first.column),
                           "invalid YAML: \(keys) appears more than once in the same map (first at line \(first.line))")
        case .outOfMemory:
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
