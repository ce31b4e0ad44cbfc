/// `enum v4l2_field` values an output buffer may carry: how the rows of the frame we queue are
/// ordered in time (Linux media API, "Field Order"). Camcast writes progressive frames; the
/// interlaced orders are here for a source that keeps them.
public enum V4L2Field: UInt32, Sendable {
    /// `V4L2_FIELD_NONE`: a progressive frame.
    case progressive = 1
    /// `V4L2_FIELD_TOP` / `BOTTOM`: one field alone.
    case top = 2
    case bottom = 3
    /// `V4L2_FIELD_INTERLACED`: both fields interleaved in one buffer.
    case interlaced = 4
}
