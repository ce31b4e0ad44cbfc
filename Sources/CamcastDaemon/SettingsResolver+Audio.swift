import AudioPath
import Config
import Media
#if canImport(Glibc)
import Glibc
#endif

extension SettingsResolver {
    /// The audio stage's settings, or nil for `none`. A WAV file is checked here, at start, so a
    /// missing or unreadable one is a configuration error (exit 78) rather than a failed run.
    static func audioSettings(_ config: CamcastConfig.AudioConfig, problem: (String, String) -> Void) -> AudioSettings? {
        let format = AudioFormat(sampleRate: config.sampleRate, channels: config.channels)
        let source: AudioSettings.Source
        switch config.source {
        case .none:
            return nil
        case .silent:
            source = .silent
        case .device:
            source = .device(config.device ?? "default")
        case .file:
            let path = config.file ?? ""
            if let reason = wavProblem(path) { problem("audio.file", "\(path): \(reason)") }
            source = .file(path)
        }
        return AudioSettings(source: source, format: format, bitrateKbps: config.bitrateKbps)
    }

    /// Why `path` cannot be a WAV source: missing, unreadable, or not a RIFF WAVE file.
    static func wavProblem(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT || errno == ENOTDIR ? "no such file" : "cannot be read" }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 12)
        let count = head.withUnsafeMutableBytes { buffer in (try? SystemCall.run("read") { read(descriptor, buffer.baseAddress, 12) }) ?? -1 }
        guard count == 12, head.prefix(4).elementsEqual("RIFF".utf8), head.suffix(4).elementsEqual("WAVE".utf8) else {
            return "is not a WAV file (no RIFF/WAVE header)"
        }
        return nil
    }
}
