/// The entropy coder of the slice data (H.264 §7.4.2.2 `entropy_coding_mode_flag`).
///
/// CABAC compresses roughly 10–15 % better; CAVLC costs less CPU and is the only choice in Baseline.
public enum H264Entropy: String, Sendable, Hashable, CaseIterable {
    case cavlc
    case cabac
}
