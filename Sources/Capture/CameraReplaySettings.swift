import Media

/// What a `CameraReplaySource` plays: a recording of what a camera sends, and how to play it.
public struct CameraReplaySettings: Sendable, Hashable {
    public enum Format: Sendable, Hashable, CustomStringConvertible {
        /// JPEG images back to back (`ffmpeg -f mjpeg`, a UVC camera's MJPG).
        case mjpeg
        /// Frames of one V4L2 pixel format back to back, tightly packed (`ffmpeg -f rawvideo`).
        case raw(PixelFormat)

        public var description: String {
            switch self {
            case .mjpeg: "MJPG"
            case .raw(let format): format.rawValue
            }
        }
    }

    /// A file or named pipe, or `-` for standard input.
    public var path: String
    public var format: Format
    /// The frame size: for MJPEG what the JPEG headers say (frames of another size are dropped).
    public var size: VideoSize
    /// The rate frames are stamped and, in realtime pace, played at (the file does not say).
    public var frameRate: FrameRate
    /// Start again at the first frame at the end of the file (not for a pipe: playback ends there).
    public var loop: Bool
    public var pace: PlaybackPace

    public init(
        path: String, format: Format, size: VideoSize, frameRate: FrameRate, loop: Bool = true,
        pace: PlaybackPace = .realtime
    ) {
        self.path = path
        self.format = format
        self.size = size
        self.frameRate = frameRate
        self.loop = loop
        self.pace = pace
    }

    public var isStandardInput: Bool { path == "-" }
}
