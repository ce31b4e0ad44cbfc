/// What a V4L2 source is doing, for status lines.
public enum V4L2CaptureState: Sendable, Hashable, CustomStringConvertible {
    case stopped
    /// Delivering frames from the device.
    case live
    /// Delivering placeholder frames at the configured rate while the device is gone or failing.
    case placeholder(V4L2DeviceFault)

    public var description: String {
        switch self {
        case .stopped: "stopped"
        case .live: "live"
        case .placeholder(let fault): "placeholder: camera \(fault)"
        }
    }
}
