import Logging
import Media
import Synchronization

/// A live x264 encoding session: frames in, `EncodedPicture`s out through the output handler.
///
/// The x264 handle sits behind one `Mutex`, so `encode`, `requestKeyframe`, `reconfigure`, `flush`
/// and `close` may be called from any thread at any time (the lock of seeds 000/004). Pictures are
/// delivered synchronously, on the thread that called `encode` or `flush`, while the lock is held:
/// they come out in order, and the output handler must not call back into the session (that
/// would deadlock).
public final class X264EncoderSession: Sendable {
    /// The settings the session was opened with (the bitrate may since have been reconfigured).
    public let settings: EncoderSettings
    let logger: Logger
    let recovery: EncoderRecoveryPolicy
    private let output: @Sendable (EncodedPicture) -> Void
    let state: Mutex<State>

    /// Opens x264 with `settings`. Throws `EncoderError.invalidSettings` listing every problem, or
    /// `.openFailed` if x264 refuses them.
    public init(
        settings: EncoderSettings,
        logger: Logger,
        recovery: EncoderRecoveryPolicy = .standard,
        output: @escaping @Sendable (EncodedPicture) -> Void
    ) throws(EncoderError) {
        let problems = settings.validate()
        guard problems.isEmpty else { throw .invalidSettings(problems) }
        let encoder = try X264Encoder(settings: settings, logger: logger)
        let headers = try encoder.headers()
        self.settings = settings
        self.logger = logger
        self.recovery = recovery
        self.output = output
        self.state = Mutex(State(encoder: encoder, bitrateKbps: settings.bitrateKbps, parameterSets: headers))
        logger.info(
            "encoder opened",
            metadata: [
                "size": "\(settings.size)", "fps": "\(settings.frameRate)", "kbps": "\(settings.bitrateKbps)",
                "profile": "\(settings.profile.rawValue)", "preset": "\(settings.preset)",
                "keyint": "\(settings.keyframeIntervalInFrames)",
            ])
    }

    /// Encodes one frame; any pictures it completes are delivered before this returns.
    ///
    /// The PTS is the frame's capture time in milliseconds. x264 must never see a PTS that does not
    /// increase, so a frame stamped at or before the previous one is moved to previous + 1 ms.
    public func encode(_ frame: VideoFrame) throws(EncoderError) {
        try state.withLock { (state) throws(EncoderError) in
            guard let encoder = state.encoder else { throw .closed }
            let pts = state.presentationTime(for: frame)
            let converter = state.converter
            let forceIDR = state.keyframeRequested || state.keyframeIntervalReached
            let result = try converter.withImage(of: frame, size: settings.size) { (image) throws(EncoderError) in
                try encodeRecovering(image, pts: pts, forceIDR: forceIDR, encoder: encoder, state: &state)
            }
            // Only a frame x264 took consumes the keyframe request and advances the PTS.
            state.keyframeRequested = false
            state.accept(pts: pts, of: frame, logger: logger)
            if let result { deliver(result, state: &state) }
        }
    }

    /// Makes the next frame passed to `encode` an IDR picture (e.g. for a new RTMP connection).
    public func requestKeyframe() {
        state.withLock { $0.keyframeRequested = true }
    }

    /// Changes the average bitrate live (`x264_encoder_reconfig`); the VBV peak and buffer follow
    /// with the session's factor and window.
    public func reconfigure(bitrateKbps: Int) throws(EncoderError) {
        guard EncoderSettings.bitrateRangeKbps.contains(bitrateKbps) else {
            let range = EncoderSettings.bitrateRangeKbps
            throw .invalidSettings([
                EncoderSettingsProblem(
                    setting: "encoder.bitrateKbps", value: "\(bitrateKbps)",
                    allowed: "\(range.lowerBound)...\(range.upperBound) kbit/s")
            ])
        }
        try state.withLock { (state) throws(EncoderError) in
            guard let encoder = state.encoder else { throw .closed }
            try encoder.reconfigure(bitrateKbps: bitrateKbps)
            state.bitrateKbps = bitrateKbps
        }
        logger.debug("encoder bitrate changed", metadata: ["kbps": "\(bitrateKbps)"])
    }

    /// Re-opens x264 with a new average bitrate, for a change that must hold (a config reload).
    ///
    /// `reconfigure(bitrateKbps:)` cannot do that in ABR mode: x264_encoder_reconfig moves only the
    /// VBV cap, never the average target (ratecontrol.c: "We don't support changing the ABR bitrate
    /// right now"; only CBR follows). So the session drains what x264 still holds, opens a new
    /// encoder with the new bitrate and makes the next picture an IDR. The stream goes on with the
    /// same SPS/PPS and timestamps; consumers see one extra keyframe.
    public func restart(bitrateKbps: Int) throws(EncoderError) {
        guard EncoderSettings.bitrateRangeKbps.contains(bitrateKbps) else {
            let range = EncoderSettings.bitrateRangeKbps
            throw .invalidSettings([
                EncoderSettingsProblem(
                    setting: "encoder.bitrateKbps", value: "\(bitrateKbps)",
                    allowed: "\(range.lowerBound)...\(range.upperBound) kbit/s")
            ])
        }
        var reopened = settings
        reopened.bitrateKbps = bitrateKbps
        try state.withLock { (state) throws(EncoderError) in
            guard let old = state.encoder else { throw .closed }
            while old.delayedFrames > 0 {
                if let result = try old.encode(nil, pts: 0, forceIDR: false) { deliver(result, state: &state) }
            }
            state.encoder = try X264Encoder(settings: reopened, logger: logger)
            state.bitrateKbps = bitrateKbps
            state.keyframeRequested = true
        }
        logger.info("encoder re-opened for a new bitrate", metadata: ["kbps": "\(bitrateKbps)"])
    }

    /// Changes the longest time between keyframes live; as at open, the shorter of `seconds` and
    /// `frames` wins.
    ///
    /// x264_encoder_reconfig does not take `i_keyint_max` (encoder.c copies only rate control,
    /// analysis and deblocking fields), so the session forces an IDR itself once a picture would
    /// be that far from the previous keyframe. x264's own interval still applies too, so a live
    /// change can only shorten the interval the session was opened with.
    public func reconfigure(keyframeIntervalSeconds seconds: Double, frames: Int?) throws(EncoderError) {
        var changed = settings
        changed.keyframeIntervalSeconds = seconds
        changed.keyframeIntervalFrames = frames
        var problems = changed.validate().filter { $0.setting.contains("keyframeInterval") }
        let intervalFrames = changed.keyframeIntervalInFrames
        if problems.isEmpty && intervalFrames > settings.keyframeIntervalInFrames {
            problems.append(
                EncoderSettingsProblem(
                    setting: "encoder.keyframeIntervalSeconds", value: "\(intervalFrames) frames",
                    allowed: "at most the \(settings.keyframeIntervalInFrames) frames the encoder was opened with (longer needs a restart)"))
        }
        guard problems.isEmpty else { throw .invalidSettings(problems) }
        try state.withLock { (state) throws(EncoderError) in
            guard state.encoder != nil else { throw .closed }
            state.keyframeInterval = (seconds, frames)
            state.forcedKeyframeInterval = intervalFrames < settings.keyframeIntervalInFrames ? intervalFrames : nil
        }
        logger.debug("encoder keyframe interval changed", metadata: ["frames": "\(intervalFrames)"])
    }

    /// Drains the pictures x264 still holds (lookahead, B-frames) and delivers them. x264 cannot
    /// take new frames after a drain, so the session is closed afterwards.
    public func flush() throws(EncoderError) {
        try state.withLock { (state) throws(EncoderError) in
            guard let encoder = state.encoder else { throw .closed }
            while encoder.delayedFrames > 0 {
                if let result = try encoder.encode(nil, pts: 0, forceIDR: false) {
                    deliver(result, state: &state)
                }
            }
            state.encoder = nil
        }
        logger.info("encoder flushed and closed")
    }

    /// Releases the encoder without draining it. Idempotent; `encode` throws `.closed` afterwards.
    public func close() {
        let wasOpen = state.withLock { state in
            defer { state.encoder = nil }
            return state.encoder != nil
        }
        if wasOpen { logger.info("encoder closed") }
    }

    /// Whether the session was closed, flushed, or gave up after failed recovery.
    public var isClosed: Bool {
        state.withLock { $0.encoder == nil }
    }

    /// The current average bitrate in kbit/s.
    public var bitrateKbps: Int {
        state.withLock { $0.bitrateKbps }
    }

    /// The SPS/PPS the next keyframe will carry (for a muxer that needs them before the first picture).
    public var parameterSets: H264ParameterSets {
        state.withLock { $0.parameterSets }
    }

    private func deliver(_ result: X264Encoder.Output, state: inout State) {
        output(state.picture(from: result))
    }
}
