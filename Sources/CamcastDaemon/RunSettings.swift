import Config
import Schedule
import AudioPath
import Capture
import Encoder
import Media
import Overlay
import RTMP

/// Everything one `camcast run` needs, resolved from flags and the config file and validated.
public struct RunSettings: Sendable {
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The built-in moving test pattern.
        case testPattern
        /// A V4L2 camera.
        case device(V4L2SourceSettings)
        /// A .y4m clip (or standard input), played in real time or flat out.
        case file(Y4MSourceSettings)
        /// A recording of what a camera sends (MJPEG or raw frames), decoded as from the camera.
        case replay(CameraReplaySettings)

        /// How a file source plays; nil for live sources.
        public var pace: PlaybackPace? {
            switch self {
            case .file(let settings): settings.pace
            case .replay(let settings): settings.pace
            case .testPattern, .device: nil
            }
        }

        public var description: String {
            switch self {
            case .testPattern: "testpattern"
            case .device(let settings): settings.devicePath
            case .file(let settings): settings.isStandardInput ? "stdin (y4m)" : settings.path
            case .replay(let settings): "\(settings.isStandardInput ? "stdin" : settings.path) (\(settings.format))"
            }
        }
    }

    public var source: Source
    public var encoder: EncoderSettings
    public var outputs: [OutputTarget]
    /// Stop after this much media time (seconds); nil streams until a signal.
    public var durationSeconds: Double?
    /// How much media the send queue of each RTMP output may hold before it drops to the next IDR
    /// (config `queue.max_seconds` × 1000).
    public var sendQueueMilliseconds: Int64 = 2000
    /// Socket timeouts: `connectTimeoutSeconds` (config `network.connect_timeout_seconds`) and
    /// `sendTimeoutSeconds` (`network.send_timeout_seconds`: also how long a connection may make
    /// no progress before it is cut and retried).
    public var rtmp = RTMPPublisherOptions()
    /// What an RTMP output does after a failed or lost connection (config `reconnect:`).
    public var reconnect = ReconnectPolicy()
    /// On stop, how long outputs may take to send what they still hold.
    public var stopDrainSeconds: Double = 5
    /// Adaptive bitrate's floor (config `encoder.min_bitrate_kbps`); nil when adaptive bitrate is
    /// off (`encoder.adaptive_bitrate: false`). The ceiling is `encoder.bitrateKbps`.
    public var adaptiveBitrateFloorKbps: Int?
    /// How often the one-line status is logged.
    public var statusIntervalSeconds: Double = 30
    /// The sound beside the video; nil sends video only (config `audio.source: none`).
    public var audio: AudioSettings?
    /// Text and a clock burned into the picture between the source and the encoder; nil for none.
    public var overlay: OverlaySettings?
    /// Names the config gave outputs (`outputs[].name`); the others are named by kind and position.
    public var outputNames: [OutputTarget: String] = [:]
    /// The uplink a network output is bound to (`outputs[].interface` / `source_address`), if any.
    public var outputUplinks: [OutputTarget: Uplink] = [:]
    /// When each scheduled output is wanted (config `schedule:`, the stream's or the output's own);
    /// outputs not listed run all the time.
    public var outputSchedules: [OutputTarget: Schedule] = [:]
    /// What a wall clock that has not been set means for a schedule (config `unset_clock:`).
    public var unsetClock = CamcastConfig.ScheduleConfig.UnsetClock.stream
    /// Whether the source and the encoder rest while every output rests by its schedule (config
    /// `idle:`; `IdleRest`).
    public var idle = CamcastConfig.ScheduleConfig.Idle.close
    /// The operator's HTTP endpoint (config `http:`); nil turns it off.
    public var http: HTTPSettings?

    public init(source: Source, encoder: EncoderSettings, outputs: [OutputTarget], durationSeconds: Double? = nil) {
        self.source = source
        self.encoder = encoder
        self.outputs = outputs
        self.durationSeconds = durationSeconds
    }
}
