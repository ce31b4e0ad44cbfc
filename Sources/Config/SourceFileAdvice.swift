#if canImport(Glibc)
import Glibc
#endif

/// What to tell a user whose `source.file` Camcast cannot tell the format of (issue 23 #3, issue
/// 25): a container or compressed file gets the conversion that works; a name that is no file at
/// all (`--source testpatern`) gets "no such file", with the built-in source it is close to.
enum SourceFileAdvice {
    /// Extensions of containers and compressed streams, which Camcast does not read.
    static let containerExtensions: Set<String> = [
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "flv", "ts", "m2ts", "mts", "mpg", "mpeg", "wmv", "3gp", "ogv",
        "h264", "264", "h265", "265", "hevc", "gif",
    ]
    /// Built-in sources a mistyped `--source` may have meant.
    static let builtInSources = ["testpattern"]

    /// The problem with `file`, whose format neither its name nor `source.pixel_format` gives; nil
    /// when it exists and may hold raw frames (then `source.pixel_format` must say which).
    static func problem(for file: String) -> String? {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let ext = dot.map { String(name[name.index(after: $0)...]).lowercased() } ?? ""
        if containerExtensions.contains(ext) {
            let y4m = String(file.dropLast(ext.count + 1)) + ".y4m"
            return "\(ValueText.quoted(file)) is a .\(ext) file: Camcast does not read containers or compressed video. "
                + "Convert it to a y4m clip once, `ffmpeg -i \(file) -pix_fmt yuv420p \(y4m)`, then play \(y4m)"
        }
        guard access(file, F_OK) != 0 else { return nil }
        var message = "no such file \(ValueText.quoted(file))"
        if !file.contains("/"), let guess = KeySuggestion.closest(to: file, among: builtInSources) {
            message += "; did you mean \(guess) (the built-in test pattern)?"
        }
        return message
    }
}
