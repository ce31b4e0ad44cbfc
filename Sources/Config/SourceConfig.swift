extension CamcastConfig {
    /// `source:` — where frames come from.
    public struct SourceConfig: Sendable, Equatable {
        /// `source.type`: which kind of source produces frames.
        public enum Kind: String, Sendable, CaseIterable {
            /// The built-in moving test pattern; needs no hardware.
            case testpattern
            /// A V4L2 capture device.
            case device
            /// A YUV4MPEG2 (.y4m) clip, played in real time.
            case file
        }

        public var type: Kind = .testpattern
        /// `source.device`: the V4L2 node; set exactly when `type` is `.device`.
        public var device: String?
        /// `source.file`: the .y4m clip; set exactly when `type` is `.file`.
        public var file: String?
        /// `source.loop`: restart the clip at its end (file sources only).
        public var loop: Bool = true
        /// `source.pixel_format`: "auto" or a V4L2 FourCC such as "YUYV" or "MJPG".
        public var pixelFormat: String = "auto"
        public var size: Size = Size(width: 1280, height: 720)
        public var fps: FrameRate = FrameRate(numerator: 30, denominator: 1)
        /// `source.buffers`: how many V4L2 capture buffers to queue.
        public var buffers: Int = 4

        public init() {}

        /// The names `source.pixel_format` accepts besides "auto" (V4L2 FourCCs).
        public static let pixelFormats = ["YUYV", "UYVY", "NV12", "NV21", "YU12", "YV12", "RGB3", "BGR3", "AR24", "MJPG"]
    }
}
