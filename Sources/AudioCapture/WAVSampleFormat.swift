/// How a WAV file stores each sample: integer PCM (format tag 1) of 8 (unsigned), 16, 24 or 32
/// bits, or IEEE float (format tag 3) of 32 or 64 bits, little-endian and interleaved.
public enum WAVSampleFormat: Sendable, Equatable, CustomStringConvertible {
    case unsigned8, signed16, signed24, signed32, float32, float64

    /// The format a WAVE_FORMAT_PCM (1) or WAVE_FORMAT_IEEE_FLOAT (3) tag and a bit depth name.
    init?(formatTag: Int, bits: Int) {
        switch (formatTag, bits) {
        case (1, 8): self = .unsigned8
        case (1, 16): self = .signed16
        case (1, 24): self = .signed24
        case (1, 32): self = .signed32
        case (3, 32): self = .float32
        case (3, 64): self = .float64
        default: return nil
        }
    }

    /// Bytes one sample of one channel takes in the file.
    public var bytes: Int {
        switch self {
        case .unsigned8: 1
        case .signed16: 2
        case .signed24: 3
        case .signed32, .float32: 4
        case .float64: 8
        }
    }

    public var description: String {
        switch self {
        case .unsigned8: "8-bit PCM"
        case .signed16: "16-bit PCM"
        case .signed24: "24-bit PCM"
        case .signed32: "32-bit PCM"
        case .float32: "32-bit float"
        case .float64: "64-bit float"
        }
    }
}
