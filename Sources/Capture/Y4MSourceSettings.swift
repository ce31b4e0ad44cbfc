/// What a `Y4MFileSource` plays and how.
public struct Y4MSourceSettings: Sendable, Hashable {
    /// A .y4m file, or `-` for standard input.
    public var path: String
    /// Start again at the first frame at the end of the file (ignored for standard input, which
    /// cannot rewind: playback ends there).
    public var loop: Bool
    public var pace: PlaybackPace

    public init(path: String, loop: Bool = true, pace: PlaybackPace = .realtime) {
        self.path = path
        self.loop = loop
        self.pace = pace
    }

    public var isStandardInput: Bool { path == "-" }
}
