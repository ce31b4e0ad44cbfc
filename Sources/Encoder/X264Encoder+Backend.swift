import Logging

/// x264 as a session backend: its own `encode`/`headers` wrapped in the codec-neutral
/// send/receive shape. A send is one `x264_encoder_encode` call; the picture it returned (if any)
/// waits in `received` for the next receive.
extension X264Encoder: EncoderBackend {
    func streamHeaders() throws(EncoderError) -> [[UInt8]] {
        let sets = try headers()
        return [sets.sps, sets.pps]
    }

    func send(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderSendStatus {
        guard !inputEnded else { throw .closed }
        guard received == nil else { return .full }
        received = try encode(image, pts: pts, forceIDR: forceIDR).map(Self.neutral)
        return .accepted
    }

    func sendEndOfStream() throws(EncoderError) {
        inputEnded = true
    }

    func receive() throws(EncoderError) -> EncoderReceiveStatus {
        if let picture = received {
            received = nil
            return .picture(picture)
        }
        guard inputEnded else { return .needsInput }
        // x264 may return nothing for a drain call while frames remain: keep asking until it
        // holds none.
        while delayedFrames > 0 {
            if let output = try encode(nil, pts: 0, forceIDR: false) { return .picture(Self.neutral(output)) }
        }
        return .drained
    }

    private static func neutral(_ output: Output) -> EncoderBackendOutput {
        EncoderBackendOutput(
            units: output.nalUnits.map(\.bytes), isKeyframe: output.isKeyframe, pts: output.pts, dts: output.dts)
    }
}
