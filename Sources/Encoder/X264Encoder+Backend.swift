import Logging

/// x264 as a session backend: its own `encode`/`headers` wrapped in the codec-neutral shape.
extension X264Encoder: EncoderBackend {
    func streamHeaders() throws(EncoderError) -> [[UInt8]] {
        let sets = try headers()
        return [sets.sps, sets.pps]
    }

    func encodePicture(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderBackendOutput? {
        try encode(image, pts: pts, forceIDR: forceIDR).map(Self.neutral)
    }

    func drainPicture() throws(EncoderError) -> EncoderBackendOutput? {
        // x264 may return nothing for a drain call while frames remain: keep asking until it
        // holds none.
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
