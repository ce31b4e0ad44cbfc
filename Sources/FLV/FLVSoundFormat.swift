/// The SoundFormat field of an audio tag (FLV spec v10.1, annex E.4.2.1, AUDIODATA): the high
/// four bits of the body's first byte. Camcast writes only AAC; the others are named so a reader
/// can say which format it met.
public enum FLVSoundFormat: UInt8, Sendable, CaseIterable {
    case linearPCMPlatformEndian = 0
    case adpcm = 1
    case mp3 = 2
    case linearPCMLittleEndian = 3
    case nellymoser16kHzMono = 4
    case nellymoser8kHzMono = 5
    case nellymoser = 6
    case g711ALaw = 7
    case g711MuLaw = 8
    case aac = 10
    case speex = 11
    case mp3At8kHz = 14
    case deviceSpecific = 15
}
