import Logging
import Media

extension X264EncoderSession {
    /// Everything the session's lock guards.
    struct State {
        /// nil once closed, flushed, or given up after failed recovery.
        var encoder: X264Encoder?
        let converter = FrameConverter()
        var bitrateKbps: Int
        /// The keyframe interval given to `reconfigure(keyframeIntervalSeconds:frames:)`; nil while
        /// the session's settings still hold.
        var keyframeInterval: (seconds: Double, frames: Int?)?
        /// A keyframe interval shorter than x264's own, enforced by forcing IDRs; nil when x264's applies.
        var forcedKeyframeInterval: Int?
        /// Pictures delivered since the last keyframe.
        var picturesSinceKeyframe = 0
        /// The SPS/PPS in force: from `x264_encoder_headers`, then from each keyframe's own NALs.
        var parameterSets: H264ParameterSets
        /// What the last delivered picture carried; nil before the first.
        var deliveredParameterSets: H264ParameterSets?
        var keyframeRequested = false
        var lastPTS: Int64?
        var adjustedTimestamps = 0
        var nextFrameNumber: Int64 = 0
        /// Test seam: make the next encode calls or encoder creations fail.
        var injectedFaults = InjectedFaults()

        init(encoder: X264Encoder, bitrateKbps: Int, parameterSets: H264ParameterSets) {
            self.encoder = encoder
            self.bitrateKbps = bitrateKbps
            self.parameterSets = parameterSets
        }

        /// The frame's capture time in ms, bumped past the previous PTS if it does not increase.
        func presentationTime(for frame: VideoFrame) -> Int64 {
            let pts = frame.timestamp.milliseconds
            guard let last = lastPTS, pts <= last else { return pts }
            return last + 1
        }

        /// Whether the next picture would be `forcedKeyframeInterval` pictures past the last keyframe.
        var keyframeIntervalReached: Bool {
            guard let interval = forcedKeyframeInterval else { return false }
            return picturesSinceKeyframe + 1 >= interval
        }

        /// Records the PTS of a frame x264 accepted; warns the first time one had to be bumped.
        mutating func accept(pts: Int64, of frame: VideoFrame, logger: Logger) {
            if pts != frame.timestamp.milliseconds {
                adjustedTimestamps += 1
                if adjustedTimestamps == 1 {
                    logger.warning(
                        "capture timestamp did not increase; moving it 1 ms past the previous (logged once)",
                        metadata: ["previousMs": "\(pts - 1)", "frameMs": "\(frame.timestamp.milliseconds)", "sequence": "\(frame.sequence)"])
                }
            }
            lastPTS = pts
        }

        /// Wraps an x264 result, tracking SPS/PPS changes and numbering pictures.
        mutating func picture(from result: X264Encoder.Output) -> EncodedPicture {
            if let sps = result.nalUnits.first(where: { $0.type == .sps }),
                let pps = result.nalUnits.first(where: { $0.type == .pps })
            {
                parameterSets = H264ParameterSets(sps: sps.bytes, pps: pps.bytes)
            }
            let changed = deliveredParameterSets != parameterSets
            deliveredParameterSets = parameterSets
            picturesSinceKeyframe = result.isKeyframe ? 0 : picturesSinceKeyframe + 1
            defer { nextFrameNumber += 1 }
            return EncodedPicture(
                nalUnits: result.nalUnits, isKeyframe: result.isKeyframe, pts: result.pts, dts: result.dts,
                parameterSets: parameterSets, parameterSetsChanged: changed, frameNumber: nextFrameNumber)
        }
    }

    /// Failures a test can schedule, to exercise recovery without a broken libx264.
    struct InjectedFaults {
        var encodeFailures = 0
        var openFailures = 0
    }
}
