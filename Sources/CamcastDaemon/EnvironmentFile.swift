import Config
import Foundation

/// A systemd `EnvironmentFile=` read the way systemd reads it (systemd.exec(5)): `KEY=VALUE` lines;
/// blank lines and lines starting with `#` or `;` ignored; whitespace around the key and the
/// value dropped; a value in double or single quotes taken without them (double quotes honour
/// backslash escapes); a backslash at the end of a line joins the next. So `camcast check-config
/// --env-file /etc/camcast/NAME.env` sees exactly what the unit will run with.
enum EnvironmentFile {
    static func load(path: String) throws(ConfigError) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read (permissions?)" : "no such file"
            throw ConfigError(problems: [ConfigProblem(origin: "command line", keyPath: "--env-file", message: "\(path): \(reason)")])
        }
        return try parse(text, path: path)
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
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !trimmed.hasPrefix(";") else { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                problems.append(ConfigProblem(origin: "\(path):\(index + 1)", keyPath: "--env-file", message: "not KEY=VALUE"))
                continue
            }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
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
