/// Why a V4L2 source is sending placeholders. The log and status tell "gone" (unplugged: wait for
/// it to come back) from "failing" (present but erroring, silent or changed: someone should look).
public enum V4L2DeviceFault: Sendable, Hashable, CustomStringConvertible {
    /// ENODEV/ENOENT: the device node disappeared.
    case gone(String)
    /// The device is there but errors (EIO, …), sends nothing (no signal), or cannot be set up again.
    case failing(String)

    public var description: String {
        switch self {
        case .gone(let reason): "gone (\(reason))"
        case .failing(let reason): "failing (\(reason))"
        }
    }

    init(_ error: CaptureError) {
        if case .deviceNotFound = error {
            self = .gone(error.description)
        } else {
            self = .failing(error.description)
        }
    }
}
