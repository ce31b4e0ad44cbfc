import Media

/// What the session has in force, read under its lock from any thread.
extension EncoderSession {
    /// Whether the session was closed, flushed, or gave up after failed recovery.
    public var isClosed: Bool {
        withState { $0.encoder == nil }
    }

    /// The IDR interval in force, in frames.
    public var keyframeIntervalInFrames: Int {
        withState { $0.keyframes.intervalFrames }
    }

    /// The current average bitrate in kbit/s.
    public var bitrateKbps: Int {
        withState { $0.bitrateKbps }
    }

    /// The parameter sets the next keyframe will carry (for a muxer that needs them before the
    /// first picture): [SPS, PPS] or [VPS, SPS, PPS].
    public var decoderConfiguration: DecoderConfiguration {
        DecoderConfiguration(parameterSets: withState { $0.parameterSets })
    }

    /// The H.264 SPS/PPS the next keyframe will carry (empty for H.265).
    public var parameterSets: H264ParameterSets {
        let sets = withState { $0.parameterSets }
        guard settings.codec == .h264, sets.count == 2 else { return H264ParameterSets(sps: [], pps: []) }
        return H264ParameterSets(sps: sets[0], pps: sets[1])
    }
}
