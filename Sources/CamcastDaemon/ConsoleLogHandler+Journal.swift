#if canImport(Glibc)
import Glibc
#endif
import Logging

extension ConsoleLogHandler.Style {
    /// `.journal` when stderr is the journal stream systemd connected, else `.terminal`.
    public static var current: Self {
        detect(journalStream: getenv("JOURNAL_STREAM").map { String(cString: $0) }, descriptor: 2)
    }

    /// systemd sets JOURNAL_STREAM to the `device:inode` of the stream it connected to stdout or
    /// stderr (systemd.exec(5)). A child that inherited the variable but whose stderr now goes to
    /// a file or a pipe must not get journal prefixes, so the descriptor's own identity must match.
    static func detect(journalStream: String?, descriptor: Int32) -> Self {
        guard let journalStream else { return .terminal }
        let parts = journalStream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return .terminal }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .terminal }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode ? .journal : .terminal
    }
}

extension Logger.Level {
    /// The sd-daemon(3) prefix journald reads as the line's syslog priority.
    var journalPrefix: String {
        switch self {
        case .trace, .debug: "<7>"
        case .info: "<6>"
        case .notice: "<5>"
        case .warning: "<4>"
        case .error: "<3>"
        case .critical: "<2>"
        }
    }
}
