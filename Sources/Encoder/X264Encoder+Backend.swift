import Logging

/// x264 as a session backend: its own `encode`/`headers` wrapped in the codec-neutral
/// send/receive shape. A send is one `x264_encoder_encode` call; the picture it returned (if any)
/// waits in the `OnePictureSlot` for the next receive.
extension X264Encoder: EncoderBackend {
    func streamHeaders() throws(EncoderError) -> [[UInt8]] {
        let sets = try headers()
        return [sets.sps, sets.pps]
    }

    func send(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderSendStatus {
        try slot.send { () throws(EncoderError) in try encode(image, pts: pts, forceIDR: forceIDR).map(Self.neutral) }
    }

    func sendEndOfStream() throws(EncoderError) {
        slot.end()
    }

    func receive() throws(EncoderError) -> EncoderReceiveStatus {
        try slot.receive(draining: drainOne)
    }

    /// The next delayed picture, nil once x264 holds none. x264 may return nothing for a drain
    /// call while frames remain: keep asking until it holds none.
    private func drainOne() throws(EncoderError) -> EncoderBackendOutput? {
        while delayedFrames > 0 {
            if let output = try encode(nil, pts: 0, forceIDR: false) { return Self.neutral(output) }
        }
        return nil
    }

    private static func neutral(_ output: Output) -> EncoderBackendOutput {
        EncoderBackendOutput(
            units: output.nalUnits.map(\.bytes), isKeyframe: output.isKeyframe, pts: output.pts, dts: output.dts)
    }
}
