import Media

/// The audio stage of a run (config `audio:`); `RunSettings.audio` is nil for `audio.source: none`.
public struct AudioSettings: Sendable, Hashable, CustomStringConvertible {
    public enum Source: Sendable, Hashable {
        /// Digital silence.
        case silent
        /// An ALSA capture device by name.
        case device(String)
        /// A PCM WAV file, looped in real time.
        case file(String)
    }

    public var source: Source
    public var format: AudioFormat
    public var bitrateKbps: Int

    public init(source: Source, format: AudioFormat, bitrateKbps: Int) {
        self.source = source
        self.format = format
        self.bitrateKbps = bitrateKbps
    }

    public var description: String {
        "\(sourceWithoutFormat) (\(format), AAC \(bitrateKbps) kbit/s)"
    }

    /// Where the sound comes from and in what format: `alsa:hw:1 (48000 Hz, stereo)`.
    public var sourceDescription: String {
        "\(sourceWithoutFormat) (\(format))"
    }

    private var sourceWithoutFormat: String {
        switch source {
        case .silent: "silent"
        case .device(let name): "alsa:\(name)"
        case .file(let path): path
        }
    }
}
