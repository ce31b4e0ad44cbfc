/// The two-byte AudioSpecificConfig (ISO 14496-3 1.6.2.1) of AAC-LC, for a segment that starts
/// before the first sound packet brought the encoder's own.
enum AudioSpecificConfig {
    static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    static func lowComplexity(sampleRate: Int, channels: Int) -> [UInt8]? {
        guard let rateIndex = sampleRates.firstIndex(of: sampleRate), (1...7).contains(channels) else { return nil }
        let objectType = 2  // AAC LC
        let bits = objectType << 11 | rateIndex << 7 | channels << 3
        return [UInt8(bits >> 8), UInt8(bits & 0xff)]
    }

    /// The sample rate an AudioSpecificConfig names (its 4-bit frequency index; not the escape
    /// form, which AAC-LC encoders here never write).
    static func sampleRate(of config: [UInt8]) -> Int? {
        guard config.count >= 2 else { return nil }
        let index = Int(config[0] & 0x07) << 1 | Int(config[1] >> 7)
        return index < sampleRates.count ? sampleRates[index] : nil
    }
}
