/// How V4L2 enumerates sizes and intervals: `V4L2_FRMSIZE_TYPE_*` / `V4L2_FRMIVAL_TYPE_*`
/// (Linux media API, "ioctl VIDIOC_ENUM_FRAMESIZES"), named for JSON.
public enum V4L2RangeKind: String, Codable, Sendable, Hashable {
    case discrete
    case continuous
    case stepwise

    /// From the on-wire value, which is the same for sizes and intervals: 1, 2, 3.
    public init?(rawType: UInt32) {
        switch rawType {
        case 1: self = .discrete
        case 2: self = .continuous
        case 3: self = .stepwise
        default: return nil
        }
    }
}
