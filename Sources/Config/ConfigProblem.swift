/// One thing wrong with a config: which key, where in which file, and what is wrong with it.
///
/// Messages quote the bad value and say what is allowed, but never show an RTMP stream key:
/// URLs are always shown through `RTMPURL.redact`.
public struct ConfigProblem: Sendable, Equatable, CustomStringConvertible {
    /// Where the value came from: the file name, "command line", or "$CAMCAST_…" for the environment.
    public var origin: String
    /// The full key path, `encoder.bitrate_kbps` or `outputs[1].url`; empty for a YAML syntax error.
    public var keyPath: String
    /// 1-based line in `origin`, when the value came from a file.
    public var line: Int?
    /// 1-based column (in Unicode scalars), when known.
    public var column: Int?
    public var message: String

    public init(origin: String, keyPath: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.origin = origin
        self.keyPath = keyPath
        self.line = line
        self.column = column
        self.message = message
    }

    /// `camcast.yaml:12:3: encoder.bitrate_kbps: 20 is out of range (50…100000)` — the
    /// `file:line:column:` prefix editors and compilers use, so the position is clickable.
    public var description: String {
        var text = origin
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        if !keyPath.isEmpty { text += "\(keyPath): " }
        return text + message
    }
}
