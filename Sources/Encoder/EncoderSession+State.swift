import Logging
import Media

extension EncoderSession {
    /// `state.withLock`, annotated so ThreadSanitizer sees the lock (see `ThreadSanitizer`). Every
    /// access to `state` goes through here.
    func withState<R: Sendable, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        let address = Unmanaged.passUnretained(self).toOpaque()
        return try state.withLock { (state) throws(E) -> R in
            ThreadSanitizer.acquire(address)
            defer { ThreadSanitizer.release(address) }
            return try body(&state)
        }
    }

    /// Everything the session's lock guards.
    struct State {
        /// nil once closed, flushed, or given up after failed recovery, and while recovery waits.
        var encoder: (any EncoderBackend)?
        /// `close` or `flush` ran: recovery must not bring the encoder back.
        var isShutDown = false
        var bitrateKbps: Int
        /// The parameter sets in force ([SPS, PPS] or [VPS, SPS, PPS]): from the stream headers,
        /// then from each keyframe's own NALs.
        var parameterSets: [[UInt8]]
        /// Camcast, not the library, places scheduled IDRs, so the interval can change while the session runs.
        var keyframes: KeyframeSchedule
        /// Frames the encoder has accepted: the input index the next accepted frame will get.
        var acceptedFrames: Int64 = 0
        /// Input index of each frame the encoder holds, by PTS, to learn where its own IDRs fall (scene cuts).
        var inFlight: [Int64: Int64] = [:]
        var lastPTS: Int64?
        var adjustedTimestamps = 0

        init(encoder: any EncoderBackend, bitrateKbps: Int, keyframes: KeyframeSchedule, parameterSets: [[UInt8]]) {
            self.encoder = encoder
            self.bitrateKbps = bitrateKbps
            self.keyframes = keyframes
            self.parameterSets = parameterSets
        }

        /// Whether the next frame, at `pts`, must be an IDR by the schedule: the first, or a full
        /// interval after the last one (so a forced IDR restarts the interval, as x264's keyint
        /// would). Requests are the session's `keyframeRequests`.
        func keyframeDue(pts: Int64) -> Bool {
            keyframes.isDue(input: acceptedFrames, pts: pts)
        }

        /// The frame's capture time in ms, bumped past the previous PTS if it does not increase.
        func presentationTime(for frame: VideoFrame) -> Int64 {
            let pts = frame.timestamp.milliseconds
            guard let last = lastPTS, pts <= last else { return pts }
            return last + 1
        }

        /// Records the PTS of a frame the encoder accepted; warns the first time one had to be bumped.
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
            inFlight[pts] = acceptedFrames
            acceptedFrames += 1
        }

        /// Wraps a backend's result, tracking parameter-set changes and numbering pictures.
        mutating func picture(from result: EncoderBackendOutput, codec: VideoCodec) -> EncodedPicture {
            if let input = inFlight.removeValue(forKey: result.pts), result.isKeyframe {
                keyframes.recordKeyframe(input: input, pts: result.pts)
            }
            if let sets = codec.parameterSets(in: result.units) {
                parameterSets = sets
            }
            return EncodedPicture(
                codec: codec, units: result.units, isKeyframe: result.isKeyframe, pts: result.pts, dts: result.dts,
                decoderConfiguration: DecoderConfiguration(parameterSets: parameterSets))
        }
    }
}
