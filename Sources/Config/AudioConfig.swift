extension CamcastConfig {
    /// `audio:` — the sound beside the video, sent as AAC-LC.
    public struct AudioConfig: Sendable, Equatable {
        /// `audio.source`: where the sound comes from.
        public enum Kind: String, Sendable, CaseIterable {
            /// Digital silence: an audio track for ingests that require one (YouTube, Facebook).
            case silent
            /// An ALSA capture device (needs `audio.device`).
            case device
            /// A PCM WAV file, looped (needs `audio.file`).
            case file
            /// No audio track: video only.
            case none
        }

        public var source: Kind = .silent
        /// `audio.device`: the ALSA device name; set exactly when `source` is `.device`.
        public var device: String?
        /// `audio.file`: the WAV file; set exactly when `source` is `.file`.
        public var file: String?
        public var sampleRate: Int = 48000
        public var channels: Int = 1
        public var bitrateKbps: Int = 128

        public init() {}

        /// The rates AAC has a sampling-frequency index for (ISO/IEC 14496-3 §1.6.3.4), which
        /// every player handles.
        public static let sampleRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]
    }
}
