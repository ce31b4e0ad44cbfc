#if canImport(Glibc)
import Glibc
#endif
import AudioCapture
import AudioPath
import Config
import Media
import Outputs
import RTMP
import Recording
import RTMPAddress

/// The checks `camcast run` would otherwise meet only while starting (and exit 1 on, with a file
/// half made), run where both `run` and `check-config` resolve their settings: whatever one
/// refuses, the other refuses with the same words, as a configuration problem (exit 78).
extension SettingsResolver {
    static let noOutputsMessage =
        "no output given: add --output with an rtmp:// URL or an .flv path, an `outputs:` list in the config file "
        + "(such as `- url: rtmp://host/app/key`), or CAMCAST_OUTPUTS in the environment (the unit's EnvironmentFile)"

    static func checkStart(
        outputs: [OutputTarget], tlsCAFile: String?, audio: AudioSettings?, problem: (String, String) -> Void
    ) {
        if outputs.isEmpty { problem("outputs", noOutputsMessage) }
        for (index, output) in outputs.enumerated() {
            let look: @Sendable () -> String?
            switch output {
            case .flvFile(let path), .annexBFile(let path, _):
                look = { directoryProblem(for: path).map { "\(path): \($0)" } }
            case .recording(let recording):
                look = {
                    // The recorder creates its folder: one that exists must take files, else its
                    // parent must take the folder.
                    var info = stat()
                    let path = stat(recording.directory, &info) == 0 ? recording.directory + "/" : recording.directory
                    return directoryProblem(for: path).map { "\(path): \($0)" }
                }
            case .rtmp: continue
            case .group(let legs, _) where !legs.contains(where: { if case .srt = $0 { true } else { false } }): continue
            case .srt, .group:
                // Its MPEG-TS comes from libavformat, loaded as a recording's is.
                if let reason = RecordingLibrary.loadProblem() { problem("outputs[\(index)]", reason) }
                continue
            }
            if let reason = answered(look) { problem("outputs[\(index)]", reason) }
            if case .recording = output, let reason = RecordingLibrary.loadProblem() { problem("outputs[\(index)]", reason) }
        }
        if let tlsCAFile, let reason = TLSTrust.problem(caFile: tlsCAFile) { problem("network.tls_ca_file", reason) }
        if let audio, case .file(let path) = audio.source {
            // The source's own opening: header, format and the resampler to the configured format.
            do {
                _ = try WAVFileAudioSource(path: path, format: audio.format)
            } catch {
                problem("audio.file", "\(error)")
            }
        }
    }

    /// A `?` in an RTMP URL starts a query: nothing is split off or dropped (librtmp publishes to
    /// `KEY?QUERY` as one stream name, which is how services take a token), but a user whose key
    /// holds `?` or `&` should know how it is read, and why the log masks both parts.
    static func queryNote(_ url: RTMPURL, index: Int) -> String {
        "outputs[\(index)]: `\(url.redacted)`: the text after `?` is read as a query; it is sent to the server "
            + "together with the stream key, as one stream name (KEY?QUERY), and masked in the log like the key. "
            + "A `?` or `&` that is part of the key itself is therefore sent unchanged"
    }

    /// A look at an output's folder (`directoryProblem`), on a thread of its own and waited for
    /// as long as a file output's open is (`ContainerWriter.openPatienceSeconds`). A folder that
    /// does not answer by then (a hung disk or NFS mount) is no configuration problem: the start
    /// or reload goes on, and the output's own thread opens the file when the folder answers.
    static func answered(_ look: @escaping @Sendable () -> String?) -> String? {
        let answer = Handoff<String?>()
        do {
            try DedicatedThread(name: "start check") { _ = answer.hand(look()) }.detach()
        } catch {
            return look()
        }
        return answer.value(within: ContainerWriter.openPatienceSeconds) ?? nil
    }

    /// Why a file output at `path` could not be created: its directory is missing, not a
    /// directory, or not writable by this process.
    static func directoryProblem(for path: String) -> String? {
        let directory = parentDirectory(of: path)
        var info = stat()
        guard stat(directory, &info) == 0 else {
            let code = errno
            return "the directory \(directory) does not exist: \(String(cString: strerror(code))) (errno \(code))"
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(directory) is not a directory" }
        guard access(directory, W_OK | X_OK) == 0 else {
            // The system's words: "Permission denied" (this user), "Read-only file system" (under
            // systemd's ProtectSystem=strict, anywhere but the unit's StateDirectory).
            let code = errno
            return "cannot create a file in \(directory): \(String(cString: strerror(code))) (errno \(code), uid \(geteuid()))"
        }
        return nil
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }
}
