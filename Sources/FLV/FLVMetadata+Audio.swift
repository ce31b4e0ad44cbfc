extension FLVMetadata {
    /// onMetaData's audio fields, written after `videocodecid` in the order ffmpeg's flvenc
    /// writes them: audiodatarate, audiosamplerate, audiosamplesize, stereo, audiocodecid.
    public struct Audio: Equatable, Sendable {
        /// Kilobits per second.
        public var dataRate: Double
        /// Hz (the real rate; the tags' SoundRate field says 44 kHz for any AAC stream).
        public var sampleRate: Int
        /// Bits per sample before compression: 16.
        public var sampleSize: Int
        public var isStereo: Bool
        public var codecID: FLVSoundFormat

        public init(dataRate: Double, sampleRate: Int, isStereo: Bool, sampleSize: Int = 16, codecID: FLVSoundFormat = .aac) {
            self.dataRate = dataRate
            self.sampleRate = sampleRate
            self.sampleSize = sampleSize
            self.isStereo = isStereo
            self.codecID = codecID
        }

        static let keys: Set<String> = ["audiodatarate", "audiosamplerate", "audiosamplesize", "stereo", "audiocodecid"]

        var properties: [AMF0Property] {
            [
                AMF0Property("audiodatarate", .number(dataRate)),
                AMF0Property("audiosamplerate", .number(Double(sampleRate))),
                AMF0Property("audiosamplesize", .number(Double(sampleSize))),
                AMF0Property("stereo", .boolean(isStereo)),
                AMF0Property("audiocodecid", .number(Double(codecID.rawValue))),
            ]
        }

        /// From an onMetaData table that has `audiocodecid`; every field is then required.
        init(table: AMF0Value) throws(FLVError) {
            func number(_ key: String) throws(FLVError) -> Double {
                guard let value = table[key]?.numberValue, value.isFinite, value >= 0 else { throw .badMetadataField(key) }
                return value
            }
            func integer(_ key: String) throws(FLVError) -> Int {
                let value = try number(key)
                guard value <= Double(Int32.max), value.rounded() == value else { throw .badMetadataField(key) }
                return Int(value)
            }
            let codec = try integer("audiocodecid")
            guard codec <= 0xFF, let format = FLVSoundFormat(rawValue: UInt8(codec)) else { throw .badMetadataField("audiocodecid") }
            guard case .boolean(let stereo) = table["stereo"] else { throw .badMetadataField("stereo") }
            self.init(
                dataRate: try number("audiodatarate"), sampleRate: try integer("audiosamplerate"), isStereo: stereo,
                sampleSize: try integer("audiosamplesize"), codecID: format)
        }
    }
}
