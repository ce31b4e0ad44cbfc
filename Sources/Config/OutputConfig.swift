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

        /// Safe to log: the stream key of an RTMP URL is shown as `****`.
        public var description: String {
            switch self {
            case .rtmp(let url): RTMPURL.redact(url)
            case .file(let path, let maxFrames):
                maxFrames.map { "\(path) (max \($0) frames)" } ?? path
            case .record(let record): record.description
            }
        }
    }
}
