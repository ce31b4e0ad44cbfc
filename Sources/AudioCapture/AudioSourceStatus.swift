/// What a source has delivered and what its device is doing, for the status line and the stop summary.
public struct AudioSourceStatus: Sendable, Equatable {
    public enum DeviceState: Sendable, Equatable, CustomStringConvertible {
        /// Samples come from the input (or the source has no device: silence, a file).
        case live
        /// The device is gone or failed: silence goes out in its place, reopened every second.
        case silenced(reason: String)
        /// Silence still goes out; the device is being opened again now.
        case reopening(reason: String)

        public var description: String {
            switch self {
            case .live: "live"
            case .silenced(let reason): "silenced: \(reason)"
            case .reopening(let reason): "reopening (\(reason))"
            }
        }
    }

    /// `AudioFrame`s handed to `deliver`.
    public var deliveredFrames: Int
    /// Sample frames (one sample per channel) in them, live and stand-in silence.
    public var deliveredSampleFrames: Int64
    /// Of those, silence sent in place of a missing device.
    public var substitutedSampleFrames: Int64
    /// Capture overruns the device reported (samples lost because they were not read in time),
    /// each recovered.
    public var xruns: Int
    /// Times the device came back after being lost.
    public var reopens: Int
    public var device: DeviceState

    public init(
        deliveredFrames: Int = 0, deliveredSampleFrames: Int64 = 0, substitutedSampleFrames: Int64 = 0, xruns: Int = 0,
        reopens: Int = 0, device: DeviceState = .live
    ) {
        self.deliveredFrames = deliveredFrames
        self.deliveredSampleFrames = deliveredSampleFrames
        self.substitutedSampleFrames = substitutedSampleFrames
        self.xruns = xruns
        self.reopens = reopens
        self.device = device
    }
}
