internal import CX264

extension X264Encoder {
    /// Maps settings onto `x264_param_t` in the order x264.h prescribes: preset and tune, then
    /// custom fields, then the profile (which may only restrict).
    static func parameters(for settings: EncoderSettings) throws(EncoderError) -> x264_param_t {
        let problems = settings.validate()
        guard problems.isEmpty else { throw .invalidSettings(problems) }

        var p = x264_param_t()
        let tune = settings.zeroLatency ? "zerolatency" : nil
        guard x264_param_default_preset(&p, settings.preset, tune) == 0 else {
            throw .openFailed("x264 rejected preset \(settings.preset)")
        }

        p.i_width = Int32(settings.size.width)
        p.i_height = Int32(settings.size.height)
        p.i_csp = X264_CSP_I420
        p.i_threads = Int32(settings.threads)

        // PTS are the real capture timestamps in milliseconds (design.md invariant 2); x264 passes
        // them through to the output. VFR rate control (which follows those timestamps, so dropped
        // frames do not shrink the bitrate) makes x264 hold one frame back to learn its duration,
        // so with zeroLatency rate control uses the nominal frame rate instead.
        p.i_fps_num = UInt32(settings.frameRate.numerator)
        p.i_fps_den = UInt32(settings.frameRate.denominator)
        p.i_timebase_num = 1
        p.i_timebase_den = 1000
        p.b_vfr_input = settings.zeroLatency ? 0 : 1

        // The session forces every scheduled IDR (EncoderSession.State.keyframeDue), because
        // x264 cannot change i_keyint_max once open; x264 itself never ends a GOP. keyint_min is
        // what x264 would derive from the configured interval: scene cuts closer than that to the
        // last IDR get an I-frame, not an IDR.
        p.i_keyint_max = X264_KEYINT_MAX_INFINITE
        p.i_keyint_min = Int32(max(1, settings.keyframeIntervalInFrames / 10))
        if !settings.sceneCutKeyframes {
            p.i_scenecut_threshold = 0
        }

        // The VideoToolbox AverageBitRate + DataRateLimits pair, as x264's "CBR" (ABR with the VBV
        // drained at the average rate) and a VBV buffer sized so no window exceeds the limit.
        // Only in this mode does x264_encoder_reconfig change the average: with a VBV max rate above
        // the bitrate, x264 keeps aiming at the bitrate it was opened with and only the new VBV cap
        // holds it down (measured: 2000→800 kbit/s gave 1374 kbit/s over the next 5 s).
        p.rc.i_rc_method = X264_RC_ABR
        setRate(&p, averageKbps: settings.bitrateKbps, settings: settings)

        if let level = settings.level, let idc = EncoderSettings.levelIDC(parsing: level) {
            p.i_level_idc = idc
        }
        p.i_bframe = Int32(settings.bFrames)
        switch settings.forcedEntropy {
        case .cavlc: p.b_cabac = 0
        case .cabac: p.b_cabac = 1
        case nil: break
        }
        if let delay = settings.maxFrameDelay {
            p.rc.i_lookahead = Int32(delay)
            p.i_sync_lookahead = Int32(delay)
        }

        // AVCC output (4-byte lengths, what FLV carries) and SPS/PPS in front of every IDR, so any
        // keyframe is a place to start decoding.
        p.b_annexb = 0
        p.b_repeat_headers = 1
        p.b_aud = 0

        guard x264_param_apply_profile(&p, settings.profile.rawValue) == 0 else {
            throw .openFailed("x264 cannot apply profile \(settings.profile.rawValue) to these settings")
        }
        return p
    }

    /// The rate-control fields that follow the average bitrate, at open and on reconfigure.
    static func setRate(_ p: inout x264_param_t, averageKbps: Int, settings: EncoderSettings) {
        p.rc.i_bitrate = Int32(averageKbps)
        p.rc.i_vbv_max_bitrate = Int32(averageKbps)
        p.rc.i_vbv_buffer_size = Int32(settings.vbvBufferKbits(forAverage: averageKbps))
    }
}
