/// The AACPacketType byte of an AAC audio tag (FLV spec v10.1, annex E.4.2.1, AACAUDIODATA).
public enum AACPacketType: UInt8, Sendable, CaseIterable {
    /// The body is an AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1).
    case sequenceHeader = 0
    /// The body is one raw AAC frame (no ADTS header).
    case raw = 1
}
