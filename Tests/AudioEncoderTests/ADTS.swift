/// Wraps raw AAC frames in ADTS headers (ISO 14496-3 1.A.2), the framing ffmpeg reads from a
/// bare .aac file, so a decoder nobody here wrote can judge the session's packets.
enum ADTS {
    /// `config` is the AudioSpecificConfig: its object type, rate index and channels go in the header.
    static func file(frames: [[UInt8]], config: [UInt8]) -> [UInt8] {
        let objectType = Int(config[0] >> 3)
        let rateIndex = Int((config[0] & 0x07) << 1 | config[1] >> 7)
        let channels = Int((config[1] >> 3) & 0x0F)
        var out: [UInt8] = []
        for frame in frames {
            let length = frame.count + 7
            out += [
                0xFF, 0xF1,  // syncword, MPEG-4, layer 0, no CRC
                UInt8((objectType - 1) << 6 | rateIndex << 2 | channels >> 2),
                UInt8((channels & 3) << 6 | length >> 11),
                UInt8((length >> 3) & 0xFF),
                UInt8((length & 7) << 5 | 0x1F),
                0xFC,  // buffer fullness 0x7FF (VBR), one raw data block
            ]
            out += frame
        }
        return out
    }
}
