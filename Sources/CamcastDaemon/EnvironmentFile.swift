import Config
import Media
#if canImport(Glibc)
import Glibc
#endif

/// A systemd `EnvironmentFile=` read the way systemd reads it (systemd.exec(5)): `KEY=VALUE` lines;
/// blank lines and lines starting with `#` or `;` ignored; whitespace around the key and the
/// value dropped; a value in double or single quotes taken without them (double quotes honour
/// backslash escapes); a backslash at the end of a line joins the next. So `camcast check-config
/// --env-file /etc/camcast/NAME.env` sees exactly what the unit will run with.
enum EnvironmentFile {
    static func load(path: String) throws(ConfigError) -> [String: String] {
        func refuse(_ reason: String) -> ConfigError {
            ConfigError(problems: [ConfigProblem(origin: "command line", keyPath: "--env-file", message: "\(path): \(reason)")])
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw refuse(errno == ENOENT || errno == ENOTDIR ? "no such file" : "cannot be read (permissions?)") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        // An environment file is a few lines; a device node or a huge file is not one.
        while bytes.count <= maxBytes {
            let count = chunk.withUnsafeMutableBytes { buffer in (try? SystemCall.run("read") { read(descriptor, buffer.baseAddress, buffer.count) }) ?? -1 }
            guard count >= 0 else { throw refuse("cannot be read (permissions?)") }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        guard bytes.count <= maxBytes else { throw refuse("is larger than \(maxBytes) bytes; an environment file holds a few lines") }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw refuse("is not UTF-8 text") }
        return try parse(text, path: path)
    }

    static let maxBytes = 1 << 20

    /// Blanks and tabs off both ends (systemd drops the whitespace around keys and values).
    private static func trimmed(_ text: some StringProtocol) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }

    static func parse(_ text: String, path: String) throws(ConfigError) -> [String: String] {
        var variables: [String: String] = [:]
        var problems: [ConfigProblem] = []
        var pending = ""
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = pending + rawLine
            if line.hasSuffix("\\") {
                line.removeLast()
                pending = line
                continue
            }
            pending = ""
            let trimmed = Self.trimmed(line)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !trimmed.hasPrefix(";") else { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                problems.append(ConfigProblem(origin: "\(path):\(index + 1)", keyPath: "--env-file", message: "not KEY=VALUE"))
                continue
            }
            let key = Self.trimmed(trimmed[..<equals])
            let value = Self.trimmed(trimmed[trimmed.index(after: equals)...])
            variables[key] = unquoted(value)
        }
        guard problems.isEmpty else { throw ConfigError(problems: problems) }
        return variables
    }

    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, let first = value.first, first == value.last, first == "\"" || first == "'" else { return value }
        let inner = value.dropFirst().dropLast()
        guard first == "\"" else { return String(inner) }
        var result = ""
        var escaped = false
        for character in inner {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
