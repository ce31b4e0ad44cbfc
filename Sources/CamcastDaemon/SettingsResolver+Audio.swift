import Config
import Foundation
import Media

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
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 12)) ?? Data()
        guard head.count == 12, head.prefix(4) == Data("RIFF".utf8), head.suffix(4) == Data("WAVE".utf8) else {
            return "is not a WAV file (no RIFF/WAVE header)"
        }
        return nil
    }
}
