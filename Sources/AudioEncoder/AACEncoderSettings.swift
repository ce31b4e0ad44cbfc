import Media

/// What an AAC-LC session encodes: the PCM format it is fed and the average bitrate.
public struct AACEncoderSettings: Sendable, Hashable {
    /// Rate and channels of the `AudioFrame`s the session takes; every frame must match.
    public var format: AudioFormat
    /// Average bitrate in kbit/s (libavcodec's native encoder keeps close to it, not exactly).
    public var bitrateKbps: Int

    public init(format: AudioFormat = AudioFormat(sampleRate: 48_000, channels: 1), bitrateKbps: Int = 128) {
        self.format = format
        self.bitrateKbps = bitrateKbps
    }

    /// The sampling frequencies an AudioSpecificConfig can name by index (ISO 14496-3, 1.6.3.4);
    /// FLV and every ingest expect one of them.
    public static let sampleRates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000]
    /// Mono and stereo: what FLV's audio tag header can say (its sound-type bit).
    public static let channelRange = 1...2
    public static let bitrateRangeKbps = 16...320

    /// Every problem with these settings, empty when they are usable.
    public func problems() -> [String] {
        var problems: [String] = []
        if !Self.sampleRates.contains(format.sampleRate) {
            problems.append(
                "sample rate \(format.sampleRate) Hz is not an AAC rate (one of \(Self.sampleRates.map(String.init).joined(separator: ", ")))")
        }
        if !Self.channelRange.contains(format.channels) {
            problems.append("\(format.channels) channels: AAC in FLV carries 1 (mono) or 2 (stereo)")
        }
        if !Self.bitrateRangeKbps.contains(bitrateKbps) {
            problems.append("bitrate \(bitrateKbps) kbit/s is outside \(Self.bitrateRangeKbps.lowerBound)...\(Self.bitrateRangeKbps.upperBound)")
        }
        return problems
    }
}
