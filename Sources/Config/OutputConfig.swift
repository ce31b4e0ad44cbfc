import RTMPAddress

extension CamcastConfig {
    /// One item of `outputs:` — an RTMP server to publish to, or a file to record.
    public enum OutputConfig: Sendable, Hashable, CustomStringConvertible {
        /// `- url: rtmp://host[:port]/app/key`. The URL holds the stream key: log `description`, never this.
        case rtmp(url: String)
        /// `- path: …flv` or `…h264` (raw Annex-B; `max_frames` stops the recording after that many frames).
        case file(path: String, maxFrames: Int?)
        /// `- record: DIR` with its segment and retention keys.
        case record(RecordConfig)
        /// `- url: srt://host:port` with its SRT keys (latency_ms, passphrase_file, pbkeylen, streamid).
        case srt(SRTOutputConfig)
        /// `- urls: [primary, backup]` with `mode: both|failover`: a group of network legs.
        case group(OutputGroupConfig)

        /// Safe to log: the stream key of an RTMP URL is shown as `****`.
        public var description: String {
            switch self {
            case .rtmp(let url): RTMPURL.redact(url)
            case .file(let path, let maxFrames):
                maxFrames.map { "\(path) (max \($0) frames)" } ?? path
            case .record(let record): record.description
            case .srt(let srt): srt.description
            case .group(let group): group.description
            }
        }
    }
}

extension CamcastConfig {
    /// `- url: srt://host:port` and its keys. The passphrase is read from its file when the run is
    /// resolved (as `http.credentials_file` is), so the config holds only the file's path.
    public struct SRTOutputConfig: Sendable, Hashable, CustomStringConvertible {
        public var url: SRTURL
        /// `latency_ms`: SRT's receive latency, 20 … 8000.
        public var latencyMilliseconds = 500
        /// `passphrase_file`: an absolute path to a file (mode 0600) holding the passphrase.
        public var passphraseFile: String?
        /// `passphrase_env`: the environment variable holding the passphrase (a systemd
        /// EnvironmentFile's, mode 0600 as the stream key's); read when the run is resolved.
        public var passphraseVariable: String?
        /// `pbkeylen`: the AES key length in bytes, 16, 24 or 32.
        public var keyLength = 16
        /// `streamid`: shown as `publish:****`.
        public var streamID: String?

        public init(url: SRTURL) { self.url = url }

        /// Safe to log: `srt://host:port (streamid publish:****)`.
        public var description: String {
            "\(url)" + (streamID.map { " (streamid \(SRTURL.redactStreamID($0)))" } ?? "")
        }
    }
}

extension CamcastConfig {
    /// `- urls: [primary, backup, …]` with `mode:` — one output made of several legs (issue 43).
    public struct OutputGroupConfig: Sendable, Hashable, CustomStringConvertible {
        public enum Mode: String, Sendable, Hashable, CaseIterable {
            /// Dual ingest: every leg carries the stream.
            case both
            /// The first leg that works carries it; the next takes over when it fails.
            case failover
        }

        /// The legs in order, the first the primary: `.rtmp` or `.srt` outputs.
        public var legs: [OutputConfig]
        public var mode: Mode
        /// `failover_after_seconds`: how long the active leg may be down before the next takes over.
        public var failoverAfterSeconds = 5
        /// `return_after_seconds`: how long an earlier leg's server must answer before it takes over again.
        public var returnAfterSeconds = 30

        public init(legs: [OutputConfig], mode: Mode) {
            self.legs = legs
            self.mode = mode
        }

        /// Safe to log: each leg as its own description masks it.
        public var description: String {
            "\(mode.rawValue) [" + legs.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

extension CamcastConfig {
    /// The environment variables the SRT outputs' `passphrase_env` name (a group's legs included).
    public var passphraseVariables: Set<String> {
        func names(_ output: OutputConfig) -> [String] {
            switch output {
            case .srt(let srt): srt.passphraseVariable.map { [$0] } ?? []
            case .group(let group): group.legs.flatMap(names)
            default: []
            }
        }
        return Set(outputs.flatMap(names))
    }
}
