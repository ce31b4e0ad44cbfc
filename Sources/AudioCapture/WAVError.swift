/// What is wrong with a WAV file, specifically enough to fix it (`ffmpeg -i in -c:a pcm_s16le out.wav`).
/// Integer PCM of 8, 16, 24 or 32 bits and IEEE float of 32 or 64 bits are played.
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
    /// Neither integer PCM nor IEEE float (e.g. 6 = A-law, 7 = µ-law, 0x55 = MP3).
    case notPCM(formatTag: Int)
    /// PCM or float at a bit depth no player expects (12-bit PCM, 16-bit float).
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
            "not PCM (format tag \(tag)\(Self.tagNames[tag].map { ", \($0)" } ?? "")); \(Self.playable) (convert it: ffmpeg -i IN -c:a pcm_s16le OUT.wav)"
        case .unsupportedBitDepth(let bits): "\(bits)-bit samples; \(Self.playable)"
        case .inconsistentFormat(let why): "inconsistent format: \(why)"
        case .noSamples: "the data chunk holds no samples"
        }
    }

    private static let playable = "Camcast plays 8-, 16-, 24- and 32-bit PCM and 32- and 64-bit float WAV files"
    private static let tagNames = [6: "A-law", 7: "µ-law", 2: "ADPCM", 0x11: "IMA ADPCM", 0x55: "MP3"]
}
