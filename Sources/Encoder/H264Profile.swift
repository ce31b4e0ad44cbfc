/// The H.264 profile an encoder session aims for (ITU-T H.264 Annex A.2), named as x264's
/// `x264_param_apply_profile` spells it.
///
/// The profile is a ceiling: x264 signals the lowest profile that covers the tools it actually used,
/// so `.high` with the `ultrafast` preset (no 8x8 transform, no CABAC) comes out as Constrained Baseline.
public enum H264Profile: String, Sendable, Hashable, CaseIterable {
    case baseline
    case main
    case high
}
