/// One V4L2 device node as `camcast devices` reports it: identity, where to find it again after a
/// reboot, and every format, size and frame rate it offers.
public struct V4L2DeviceInfo: Codable, Sendable, Hashable {
    /// The node, e.g. `/dev/video0`.
    public var path: String
    /// `/dev/v4l/by-id/…` and `/dev/v4l/by-path/…` links to this node (udev makes them); the by-id
    /// link survives re-plugging into another port and is what a config file should name.
    public var stablePaths: [String]
    public var driver: String
    public var card: String
    public var busInfo: String
    /// Capability names of the node (`video-capture`, `streaming`, …).
    public var capabilities: [String]
    /// Whether Camcast can stream from the node (video capture, single- or multi-planar, with streaming I/O).
    public var canCapture: Bool
    /// Formats offered, in the driver's order; empty for nodes that cannot capture.
    public var formats: [V4L2FormatInfo]
    /// Why the node could not be queried (busy, permission), if it could not.
    public var error: String?

    public init(
        path: String, stablePaths: [String], driver: String, card: String, busInfo: String,
        capabilities: [String], canCapture: Bool, formats: [V4L2FormatInfo], error: String? = nil
    ) {
        self.path = path
        self.stablePaths = stablePaths
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.capabilities = capabilities
        self.canCapture = canCapture
        self.formats = formats
        self.error = error
    }
}
