import AudioPath
import Encoder

/// What a reload changes, worked out from the running settings and the new ones before anything
/// is touched: the least that has to restart for the new file to take effect.
///
/// - bitrate and keyframe interval: applied to the running encoder (`x264_encoder_reconfig`);
///   no output reconnects. With adaptive bitrate on, the bitrate is the adapter's new ceiling.
/// - outputs: the ones removed or changed are closed (with their end-of-sequence tag), new ones
///   are opened; the others keep streaming. A change to the RTMP network, queue or reconnect
///   settings counts as a change to every RTMP output (each is reopened with them).
/// - source (device, pixel format, buffers, test pattern ↔ device): the source restarts; the
///   encoder and outputs keep running.
/// - audio (source, device, file, rate, channels, bit rate): the audio source restarts (and its
///   encoder, if the format or bit rate changed); the video runs on. Adding or removing the audio
///   track (`none` ↔ another source) changes what every output announced: a restart.
/// - codec or backend: a new encoder session of the other codec, or on the other encoder,
///   replaces the running one (the old one is flushed first); outputs go on and see a new decoder
///   configuration at its first IDR.
/// - size, frame rate, scaling and the other encoder properties shape the stream itself:
///   they need a restart of the daemon and are reported, not applied.
struct ReloadPlan: Equatable {
    var bitrateKbps: Int?
    var keyframeInterval: KeyframeInterval?
    /// The codec to switch to (`encoder.codec`).
    var codec: VideoCodec?
    /// The encoder to switch to (`encoder.backend`), with `codec` or alone.
    var implementation: EncoderImplementation?
    var restartSource = false
    /// The audio settings changed: the audio stage restarts with these.
    var restartAudio: AudioSettings?
    var outputsToClose: [OutputTarget] = []
    var outputsToOpen: [OutputTarget] = []
    var statusIntervalSeconds: Double?
    /// `encoder.adaptive_bitrate` or its floor changed: the new values go into the running
    /// settings, where the bitrate adapter reads them.
    var adaptiveBitrateFloorKbps: Int??
    /// `reconnect.*` changed (applied by reopening every RTMP output).
    var reconnectChanged = false
    /// Changed keys that take effect only when the daemon restarts.
    var needsRestart: [String] = []

    struct KeyframeInterval: Equatable {
        var seconds: Double
        var frames: Int?
    }

    init(from old: RunSettings, to new: RunSettings) {
        let before = old.encoder
        let after = new.encoder
        if after.bitrateKbps != before.bitrateKbps { bitrateKbps = after.bitrateKbps }
        if after.codec != before.codec { codec = after.codec }
        if after.implementation != before.implementation { implementation = after.implementation }
        if after.keyframeIntervalSeconds != before.keyframeIntervalSeconds
            || after.keyframeIntervalFrames != before.keyframeIntervalFrames
        {
            keyframeInterval = KeyframeInterval(seconds: after.keyframeIntervalSeconds, frames: after.keyframeIntervalFrames)
        }
        needsRestart = Self.restartOnlyChanges(before, after)
        if new.adaptiveBitrateFloorKbps != old.adaptiveBitrateFloorKbps {
            adaptiveBitrateFloorKbps = .some(new.adaptiveBitrateFloorKbps)
        }

        if old.source != new.source && !needsRestart.contains("source.size") && !needsRestart.contains("source.fps") {
            restartSource = true
        }

        if old.audio != new.audio {
            if let audio = new.audio, old.audio != nil {
                restartAudio = audio
            } else {
                needsRestart.append("audio.source")
            }
        }

        reconnectChanged = old.reconnect != new.reconnect
        let transportChanged = old.rtmp != new.rtmp || old.sendQueueMilliseconds != new.sendQueueMilliseconds
            || reconnectChanged
        func mustClose(_ target: OutputTarget) -> Bool {
            if !new.outputs.contains(target) { return true }
            // A changed schedule applies at once: the output is made again under the new one.
            if old.outputSchedules[target] != new.outputSchedules[target] || (new.outputSchedules[target] != nil && old.unsetClock != new.unsetClock) {
                return true
            }
            switch target {
            case .rtmp, .srt: return transportChanged || old.outputUplinks[target] != new.outputUplinks[target]
            case .group(let legs, _):
                return transportChanged || ([target] + legs).contains { old.outputUplinks[$0] != new.outputUplinks[$0] }
            default: return false
            }
        }
        outputsToClose = old.outputs.filter(mustClose)
        outputsToOpen = new.outputs.filter { !old.outputs.contains($0) || outputsToClose.contains($0) }

        if new.statusIntervalSeconds != old.statusIntervalSeconds { statusIntervalSeconds = new.statusIntervalSeconds }
    }

    var isEmpty: Bool {
        bitrateKbps == nil && keyframeInterval == nil && codec == nil && implementation == nil && !restartSource && restartAudio == nil && outputsToClose.isEmpty
            && outputsToOpen.isEmpty && statusIntervalSeconds == nil && needsRestart.isEmpty && !reconnectChanged
            && adaptiveBitrateFloorKbps == nil
    }

    /// The encoder properties that cannot change in a running x264 session, by config key.
    private static func restartOnlyChanges(_ before: EncoderSettings, _ after: EncoderSettings) -> [String] {
        var keys: [String] = []
        func check(_ key: String, _ changed: Bool) { if changed { keys.append(key) } }
        check("source.size", before.size != after.size)
        check("source.fps", before.frameRate != after.frameRate)
        check("encoder.max_rate_factor", before.maxRateFactor != after.maxRateFactor)
        check("encoder.rate_window_seconds", before.rateWindowSeconds != after.rateWindowSeconds)
        check("encoder.preset", before.preset != after.preset)
        check("encoder.realtime", before.zeroLatency != after.zeroLatency)
        check("encoder.profile", before.profile != after.profile)
        check("encoder.level", before.level != after.level)
        check("encoder.bframes", before.bFrames != after.bFrames)
        check("encoder.entropy", before.entropy != after.entropy)
        check("encoder.threads", before.threads != after.threads)
        check("encoder.max_frame_delay", before.maxFrameDelay != after.maxFrameDelay)
        // The session keeps the settings it was opened with; scaling has no live setter.
        check("encoder.scaling", before.scaling != after.scaling)
        // libavcodec reads its options at open only.
        check("encoder.options", before.codecOptions != after.codecOptions)
        return keys
    }
}
