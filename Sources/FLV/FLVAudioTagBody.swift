/// The body of an AAC audio tag (FLV spec v10.1, annex E.4.2.1, AUDIODATA with AACAUDIODATA):
///
/// | bits | field |
/// |---|---|
/// | 4 | SoundFormat, 10 = AAC |
/// | 2 | SoundRate, 3 = 44 kHz (the spec fixes it for AAC; the real rate is in the config) |
/// | 1 | SoundSize, 1 = 16-bit |
/// | 1 | SoundType, 1 = stereo (fixed for AAC likewise) |
/// | 8 | AACPacketType: 0 = AudioSpecificConfig, 1 = raw frame |
/// | … | data |
///
/// So every AAC tag Camcast writes starts 0xAF, as ffmpeg's flvenc writes it whatever the real
/// rate and channel count. A reader accepts any SoundRate/SoundSize/SoundType bits with AAC (the
/// decoder takes the real values from the AudioSpecificConfig), and keeps them; only AAC is
/// modelled, so a parse of another format fails.
public struct FLVAudioTagBody: Equatable, Sendable {
    /// SoundRate (2 bits).
    public enum SoundRate: UInt8, Sendable, CaseIterable {
        case kHz5_5 = 0
        case kHz11 = 1
        case kHz22 = 2
        case kHz44 = 3
    }

    /// SoundSize (1 bit): bits per sample of the uncompressed audio.
    public enum SoundSize: UInt8, Sendable, CaseIterable {
        case bits8 = 0
        case bits16 = 1
    }

    /// SoundType (1 bit).
    public enum SoundType: UInt8, Sendable, CaseIterable {
        case mono = 0
        case stereo = 1
    }

    /// Bytes before `data`.
    public static let headerSize = 2

    public var soundFormat: FLVSoundFormat { .aac }
    public var soundRate: SoundRate
    public var soundSize: SoundSize
    public var soundType: SoundType
    public var aacPacketType: AACPacketType
    public var data: [UInt8]

    /// The header values the spec requires for AAC: 44 kHz, 16-bit, stereo (0xAF).
    public init(
        aacPacketType: AACPacketType, data: [UInt8], soundRate: SoundRate = .kHz44, soundSize: SoundSize = .bits16,
        soundType: SoundType = .stereo
    ) {
        self.aacPacketType = aacPacketType
        self.data = data
        self.soundRate = soundRate
        self.soundSize = soundSize
        self.soundType = soundType
    }

    /// The first byte: SoundFormat, SoundRate, SoundSize, SoundType.
    public var flags: UInt8 {
        soundFormat.rawValue << 4 | soundRate.rawValue << 2 | soundSize.rawValue << 1 | soundType.rawValue
    }

    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize + data.count)
        bytes.append(flags)
        bytes.append(aacPacketType.rawValue)
        bytes.append(contentsOf: data)
        return bytes
    }

    public init(parsing bytes: some Collection<UInt8>) throws(FLVError) {
        var reader = ByteReader(Array(bytes))
        let first = try reader.readU8()
        guard first >> 4 == FLVSoundFormat.aac.rawValue else { throw .unsupportedSoundFormat(first >> 4) }
        let packetByte = try reader.readU8()
        guard let packetType = AACPacketType(rawValue: packetByte) else { throw .unknownAACPacketType(packetByte) }
        // Every value of these 2 + 1 + 1 bits is defined, so the force-unwraps cannot fail.
        self.init(
            aacPacketType: packetType, data: reader.readRest(), soundRate: SoundRate(rawValue: first >> 2 & 0x03)!,
            soundSize: SoundSize(rawValue: first >> 1 & 0x01)!, soundType: SoundType(rawValue: first & 0x01)!)
    }
}
