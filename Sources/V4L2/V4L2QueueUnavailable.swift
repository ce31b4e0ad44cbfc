/// The node has no queue of the kind asked for: a camera asked to take frames, or a node without
/// streaming I/O. Said before any request is made, because the kernel's own answer to a request
/// on a missing queue is a bare EINVAL that names neither the node nor what it is instead.
public struct V4L2QueueUnavailable: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    /// "video output", as in "… is not a video output device".
    public var kind: String
    public var reason: String

    public init(path: String, kind: String, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// Worded as Capture's `notACaptureDevice`: "/dev/video0 is not a video output device:
    /// capabilities are video-capture, streaming".
    public var description: String { "\(path) is not a \(kind) device: \(reason)" }
}
