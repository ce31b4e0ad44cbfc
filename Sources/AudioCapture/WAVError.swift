/// What is wrong with a WAV file, specifically enough to fix it (`ffmpeg -i in -c:a pcm_s16le out.wav`).
public enum WAVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first 12 bytes are not "RIFF", size, "WAVE".
    case notRIFFWAVE
    /// The file ends inside its header (`needed` bytes for the next structure, `available` left).
    case truncatedHeader(at: Int)
    /// The data chunk declares more bytes than the file holds.
    case truncatedData(declared: Int, available: Int)
    /// No "fmt " chunk before the "data" chunk.
    case missingFormatChunk
    /// The file ended without a "data" chunk.
    case missingDataChunk
    /// The "fmt " chunk is shorter than the 16 bytes of a PCMWAVEFORMAT.
    case formatChunkTooShort(Int)
    /// Not integer PCM (e.g. 3 = IEEE float, 6 = A-law, 0x55 = MP3).
    case notPCM(formatTag: Int)
    /// PCM, but not 16-bit.
    case unsupportedBitDepth(Int)
    /// No channels, no rate, or a block size that does not match them.
    case inconsistentFormat(String)
    /// The data chunk holds no whole sample frame.
    case noSamples

    public var description: String {
        switch self {
        case .notRIFFWAVE: "not a WAV file (no RIFF/WAVE header)"
        case .truncatedHeader(let offset): "truncated: the file ends inside its header at byte \(offset)"
        case .truncatedData(let declared, let available):
            "truncated: the data chunk declares \(declared) bytes but the file holds \(available)"
        case .missingFormatChunk: "no 'fmt ' chunk before the 'data' chunk"
        case .missingDataChunk: "no 'data' chunk"
        case .formatChunkTooShort(let size): "'fmt ' chunk of \(size) bytes is too short (16 at least)"
        case .notPCM(let tag):
            "not PCM (format tag \(tag)\(tag == 3 ? ", IEEE float" : "")); Camcast plays 16-bit PCM WAV files"
        case .unsupportedBitDepth(let bits): "\(bits)-bit PCM; Camcast plays 16-bit PCM WAV files"
        case .inconsistentFormat(let why): "inconsistent format: \(why)"
        case .noSamples: "the data chunk holds no samples"
        }
    }
}
