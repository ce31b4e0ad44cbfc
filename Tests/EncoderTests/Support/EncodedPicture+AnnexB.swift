import Encoder

/// The encoder's pictures as an Annex-B byte stream, for ffmpeg and the parser in tests. The
/// product writes `MediaPacket`s (`AnnexBWriter.write`); tests look at the session's own output.
extension EncodedPicture {
    /// Its NAL units behind 4-byte start codes, with the picture's SPS and PPS put in front of a
    /// keyframe that does not carry them itself (after any access unit delimiter, which must come
    /// first, H.264 §7.4.1.2.3).
    var annexB: [UInt8] {
        var units = nalUnits.map(\.bytes)
        let types = Set(nalUnits.map(\.type))
        if isKeyframe && !(types.contains(.sps) && types.contains(.pps)) {
            let position = nalUnits.prefix { $0.type == .aud }.count
            units.insert(contentsOf: [parameterSets.sps, parameterSets.pps], at: position)
        }
        return AnnexBWriter.startCoded(units)
    }
}
