extension CamcastConfig {
    /// `source:` — where frames come from.
    public struct SourceConfig: Sendable, Equatable {
        /// `source.type`: which kind of source produces frames.
        public enum Kind: String, Sendable, CaseIterable {
            /// The built-in moving test pattern; needs no hardware.
            case testpattern
            /// A V4L2 capture device.
            case device
            /// A file played as a camera would send it: a YUV4MPEG2 (.y4m) clip, an MJPEG recording,
            /// or raw frames in `pixel_format`.
            case file
        }

        public var type: Kind = .testpattern
        /// `source.device`: the V4L2 node; set exactly when `type` is `.device`.
        public var device: String?
        /// `source.file`: the clip or recording; set exactly when `type` is `.file`.
        public var file: String?
        /// `source.loop`: restart the clip at its end (file sources only).
        public var loop: Bool = true
        /// `source.pixel_format`: "auto" or a V4L2 FourCC such as "YUYV" or "MJPG". For a file, what
        /// it holds: "auto" goes by the name (.y4m, .mjpeg/.mjpg), a FourCC means raw frames of it.
        public var pixelFormat: String = "auto"
        public var size: Size = Size(width: 1280, height: 720)
        public var fps: FrameRate = FrameRate(numerator: 30, denominator: 1)
        /// `source.buffers`: how many V4L2 capture buffers to queue.
        public var buffers: Int = 4

        public init() {}

        /// What a file source holds, from `pixel_format` and the file's name; nil if neither says.
        public var fileFormat: FileFormat? {
            let name = (file ?? "").lowercased()
            if pixelFormat == "MJPG" { return .mjpeg }
            if pixelFormat != "auto" { return .raw(pixelFormat) }
            if name == "-" || name.hasSuffix(".y4m") { return .y4m }
            if name.hasSuffix(".mjpeg") || name.hasSuffix(".mjpg") { return .mjpeg }
            return nil
        }

        public enum FileFormat: Sendable, Equatable {
            case y4m
            case mjpeg
            /// Raw frames of this V4L2 FourCC.
            case raw(String)
        }

        /// The names `source.pixel_format` accepts besides "auto" (V4L2 FourCCs).
        public static let pixelFormats = ["YUYV", "UYVY", "NV12", "NV21", "YU12", "YV12", "RGB3", "BGR3", "AR24", "MJPG"]
    }
}
