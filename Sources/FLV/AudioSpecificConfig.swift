/// The AAC decoder configuration an FLV AAC sequence header carries (ISO/IEC 14496-3 §1.6.2.1,
/// AudioSpecificConfig), for the AAC-LC streams Camcast sends:
///
/// | bits | field |
/// |---|---|
/// | 5 (+6) | audioObjectType (2 = AAC LC; 31 escapes to 32 + the next 6 bits) |
/// | 4 (+24) | samplingFrequencyIndex (15 escapes to an explicit 24-bit samplingFrequency) |
/// | 4 | channelConfiguration (1 = mono, 2 = stereo, …) |
/// | 3 | GASpecificConfig (§4.4.1): frameLengthFlag, dependsOnCoreCoder, extensionFlag |
///
/// A parse reads these fields and ignores anything after them (extensions such as SBR
/// signalling); `encoded()` writes the fields with dependsOnCoreCoder and extensionFlag 0, zero
/// padded to a whole byte: AAC-LC 48 kHz mono is 0x11 0x88.
public struct AudioSpecificConfig: Equatable, Sendable {
    /// audioObjectType 2.
    public static let aacLC: UInt8 = 2
    /// The rates samplingFrequencyIndex 0…12 stand for (§1.6.3.4); 13 and 14 are reserved.
    public static let samplingFrequencies = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
    /// samplingFrequencyIndex 15: the rate follows in 24 bits.
    static let explicitFrequencyIndex: UInt8 = 15

    public var audioObjectType: UInt8
    /// The table index, or 15 with `explicitSamplingFrequency` set.
    public var samplingFrequencyIndex: UInt8
    public var explicitSamplingFrequency: UInt32?
    public var channelConfiguration: UInt8
    /// GASpecificConfig's frameLengthFlag: 960-sample frames instead of 1024.
    public var frameLengthFlag: Bool

    /// A configuration for `sampleRate` Hz and `channels` (1…6, which channelConfiguration 1…6
    /// name directly); the rate goes by table index when it has one, explicitly otherwise.
    public init(audioObjectType: UInt8 = Self.aacLC, sampleRate: Int, channels: Int) throws(FLVError) {
        guard (1...30).contains(audioObjectType) else { throw .malformedAudioSpecificConfig("audioObjectType \(audioObjectType) is not 1…30") }
        guard (1...6).contains(channels) else { throw .malformedAudioSpecificConfig("\(channels) channels (1…6 supported)") }
        guard (1...0xFF_FFFF).contains(sampleRate) else { throw .malformedAudioSpecificConfig("sample rate \(sampleRate) Hz") }
        self.audioObjectType = audioObjectType
        if let index = Self.samplingFrequencies.firstIndex(of: sampleRate) {
            samplingFrequencyIndex = UInt8(index)
            explicitSamplingFrequency = nil
        } else {
            samplingFrequencyIndex = Self.explicitFrequencyIndex
            explicitSamplingFrequency = UInt32(sampleRate)
        }
        channelConfiguration = UInt8(channels)
        frameLengthFlag = false
    }

    /// The sampling rate in Hz.
    public var sampleRate: Int {
        if let explicitSamplingFrequency { return Int(explicitSamplingFrequency) }
        return Self.samplingFrequencies[Int(samplingFrequencyIndex)]
    }

    /// Samples per channel in one AAC frame.
    public var samplesPerFrame: Int { frameLengthFlag ? 960 : 1024 }

    public func encoded() -> [UInt8] {
        var writer = BitWriter()
        if audioObjectType >= 31 {
            writer.write(31, bits: 5)
            writer.write(UInt32(audioObjectType - 32), bits: 6)
        } else {
            writer.write(UInt32(audioObjectType), bits: 5)
        }
        writer.write(UInt32(samplingFrequencyIndex), bits: 4)
        if let explicitSamplingFrequency { writer.write(explicitSamplingFrequency, bits: 24) }
        writer.write(UInt32(channelConfiguration), bits: 4)
        // GASpecificConfig: frameLengthFlag, dependsOnCoreCoder 0, extensionFlag 0.
        writer.write(frameLengthFlag ? 1 : 0, bits: 1)
        writer.write(0, bits: 2)
        return writer.bytes
    }

    public init(parsing bytes: some Collection<UInt8>) throws(FLVError) {
        var reader = BitReader(Array(bytes))
        var objectType = try reader.read(5)
        if objectType == 31 { objectType = 32 + (try reader.read(6)) }
        guard objectType != 0 else { throw .malformedAudioSpecificConfig("audioObjectType 0 (null)") }
        let index = UInt8(try reader.read(4))
        var explicit: UInt32?
        if index == Self.explicitFrequencyIndex {
            explicit = try reader.read(24)
            guard explicit != 0 else { throw .malformedAudioSpecificConfig("explicit sampling frequency 0") }
        } else if Int(index) >= Self.samplingFrequencies.count {
            throw .malformedAudioSpecificConfig("reserved samplingFrequencyIndex \(index)")
        }
        audioObjectType = UInt8(objectType)
        samplingFrequencyIndex = index
        explicitSamplingFrequency = explicit
        channelConfiguration = UInt8(try reader.read(4))
        // GASpecificConfig follows for the general-audio object types (AAC Main, LC, SSR, LTP,
        // scalable, TwinVQ and their ER forms); for the others its first bit means something else.
        let generalAudio: Set<UInt32> = [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23]
        frameLengthFlag = generalAudio.contains(objectType) ? try reader.read(1) == 1 : false
    }
}

/// MSB-first bit fields for the AudioSpecificConfig; running off the end is an error, not zeros.
private struct BitReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(_ count: Int) throws(FLVError) -> UInt32 {
        guard offset + count <= bytes.count * 8 else {
            throw .malformedAudioSpecificConfig("ends inside a field (\(bytes.count) bytes)")
        }
        var value: UInt32 = 0
        for _ in 0..<count {
            value = value << 1 | UInt32(bytes[offset / 8] >> (7 - UInt8(offset % 8)) & 1)
            offset += 1
        }
        return value
    }
}

private struct BitWriter {
    var bytes: [UInt8] = []
    var used = 0  // bits used in the last byte; 0 = start a new one

    mutating func write(_ value: UInt32, bits count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            if used == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8(value >> UInt32(shift) & 1) << (7 - UInt8(used))
            used = (used + 1) % 8
        }
    }
}
