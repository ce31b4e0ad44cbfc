import Media

/// A frame size a format offers (`VIDIOC_ENUM_FRAMESIZES`, `struct v4l2_frmsizeenum`): one
/// discrete size, or a range (stepwise, or continuous with step 1).
public struct V4L2FrameSizeInfo: Codable, Sendable, Hashable {
    public var kind: V4L2RangeKind
    /// The size, or the smallest one of a range.
    public var width: Int
    public var height: Int
    /// For ranges: the largest size and the step.
    public var maxWidth: Int?
    public var maxHeight: Int?
    public var stepWidth: Int?
    public var stepHeight: Int?
    /// Frame intervals offered at this size (at the largest size, for a range).
    public var frameIntervals: [V4L2FrameIntervalInfo]

    public init(
        kind: V4L2RangeKind, width: Int, height: Int, maxWidth: Int? = nil, maxHeight: Int? = nil,
        stepWidth: Int? = nil, stepHeight: Int? = nil, frameIntervals: [V4L2FrameIntervalInfo]
    ) {
        self.kind = kind
        self.width = width
        self.height = height
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.stepWidth = stepWidth
        self.stepHeight = stepHeight
        self.frameIntervals = frameIntervals
    }

    /// Whether a device can produce exactly `size` in this entry.
    public func contains(_ size: VideoSize) -> Bool {
        switch kind {
        case .discrete:
            return size.width == width && size.height == height
        case .stepwise, .continuous:
            let maxW = maxWidth ?? width
            let maxH = maxHeight ?? height
            let stepW = max(1, stepWidth ?? 1)
            let stepH = max(1, stepHeight ?? 1)
            return (width...maxW).contains(size.width) && (height...maxH).contains(size.height)
                && (size.width - width) % stepW == 0 && (size.height - height) % stepH == 0
        }
    }
}
