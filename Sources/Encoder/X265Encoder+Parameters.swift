#if canImport(Glibc)
import Glibc
#endif
internal import CX265
import Logging

extension X265Encoder {
    /// Fills `p` in the order x265.h prescribes: preset and tune, then custom fields, then the
    /// profile (which may only restrict). Returns the `numaPools` string the caller must keep
    /// (and free) for as long as the encoder lives.
    static func configure(
        _ p: UnsafeMutablePointer<x265_param>, for settings: EncoderSettings, logger: Logger
    ) throws(EncoderError) -> UnsafeMutablePointer<CChar>? {
        let tune = settings.zeroLatency ? "zerolatency" : nil
        guard x265_param_default_preset(p, settings.preset, tune) == 0 else {
            throw .openFailed("x265 rejected preset \(settings.preset)")
        }
        // x265 3.5 has no log callback: it writes to standard error itself. Only warnings and
        // errors, unless the user asked for a debug log.
        p.pointee.logLevel = logger.logLevel <= .debug ? X265_LOG_INFO : X265_LOG_WARNING

        p.pointee.sourceWidth = Int32(settings.size.width)
        p.pointee.sourceHeight = Int32(settings.size.height)
        p.pointee.internalCsp = X265_CSP_I420
        p.pointee.fpsNum = UInt32(settings.frameRate.numerator)
        p.pointee.fpsDenom = UInt32(settings.frameRate.denominator)

        // Threads as the x264 session has them: 0 lets the library choose (a pool per NUMA node
        // with a thread per core). N > 0 sizes the worker pool to N; with zerolatency x265 runs
        // one frame thread (more would hold frames back), otherwise at most N.
        var pools: UnsafeMutablePointer<CChar>?
        if settings.threads > 0 {
            pools = strdup("\(settings.threads)")
            p.pointee.numaPools = UnsafePointer(pools)
            if !settings.zeroLatency { p.pointee.frameNumThreads = Int32(min(settings.threads, 16)) }
        }

        // The session forces every scheduled IDR (EncoderSession.State.keyframeDue), so it can
        // follow capture time and change the interval live; x265 itself never ends a GOP (-1 is
        // x265's infinite keyint). The GOP is closed: x265's default open GOP starts periodic
        // keyframes with CRA pictures, which a player joining there cannot always decode.
        p.pointee.keyframeMax = -1
        p.pointee.keyframeMin = Int32(max(1, settings.keyframeIntervalInFrames / 10))
        p.pointee.bOpenGOP = 0
        if !settings.sceneCutKeyframes {
            p.pointee.scenecutThreshold = 0
            p.pointee.bHistBasedSceneCut = 0
        }
        // No B-frames: validation keeps bFrames 0 for H.265 (zerolatency sets it anyway).
        p.pointee.bframes = 0
        if let delay = settings.maxFrameDelay {
            p.pointee.lookaheadDepth = Int32(delay)
        }
        // x265 turns lookahead slices off below 720p itself, with a warning on every open.
        if settings.size.height < 720 { p.pointee.lookaheadSlices = 0 }

        // ABR with the VBV drained at the average rate, as the x264 session does, so a live
        // bitrate change moves the average (see X264Encoder.parameters(for:)).
        p.pointee.rc.rateControlMode = Int32(X265_RC_ABR.rawValue)
        setRate(p, averageKbps: settings.bitrateKbps, settings: settings)

        // Length-prefixed output, VPS/SPS/PPS in front of every keyframe (any keyframe is a
        // place to start decoding), no AUDs, and no "x265 (build 199) - options: …" SEI: ~2.3 KB
        // in every stream that would also land in the decoder configuration record.
        p.pointee.bAnnexB = 0
        p.pointee.bRepeatHeaders = 1
        p.pointee.bEnableAccessUnitDelimiters = 0
        p.pointee.bEmitInfoSEI = 0

        // Main only: main10 would need 10-bit input or an up-shift of our 8-bit planes, and
        // Debian's libx265 decides the bit depth when it is built, not per encoder.
        guard x265_param_apply_profile(p, "main") == 0 else {
            throw .openFailed("x265 cannot apply profile main to these settings")
        }
        return pools
    }

    /// The rate-control fields that follow the average bitrate, at open and on reconfigure.
    static func setRate(_ p: UnsafeMutablePointer<x265_param>, averageKbps: Int, settings: EncoderSettings) {
        p.pointee.rc.bitrate = Int32(averageKbps)
        p.pointee.rc.vbvMaxBitrate = Int32(averageKbps)
        p.pointee.rc.vbvBufferSize = Int32(settings.vbvBufferKbits(forAverage: averageKbps))
    }
}
