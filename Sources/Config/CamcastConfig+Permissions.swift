#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CamcastConfig {
    /// A warning when the file at `path` holds an RTMP stream key and every user on the machine
    /// can read it (mode & 0o004). Nil when there is no RTMP output, the file is private, or its
    /// mode cannot be read. The warning names the file, never the key.
    public func worldReadableKeyWarning(path: String) -> String? {
        let hasKey = outputs.contains { output in
            if case .rtmp = output { true } else { false }
        }
        guard hasKey else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = Int(info.st_mode) & 0o7777
        guard mode & 0o004 != 0 else { return nil }
        return "\(path) contains an RTMP stream key and is readable by every user (mode \(String(mode, radix: 8))); "
            + "run `chmod 600 \(path)` (or `chmod 640` with the daemon's group), or move the URL to a private EnvironmentFile as \(Self.outputsEnvironmentVariable)"
    }
}
