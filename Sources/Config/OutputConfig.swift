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

        /// Safe to log: the stream key of an RTMP URL is shown as `****`.
        public var description: String {
            switch self {
            case .rtmp(let url): RTMPURL.redact(url)
            case .file(let path, let maxFrames):
                maxFrames.map { "\(path) (max \($0) frames)" } ?? path
            case .record(let record): record.description
            case .srt(let srt): srt.description
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
