import Media

/// What a `Y4MFileSource` plays and how.
public struct Y4MSourceSettings: Sendable, Hashable {
    /// A .y4m file, or `-` for standard input.
    public var path: String
    /// Start again at the first frame at the end of the file (ignored for standard input, which
    /// cannot rewind: playback ends there).
    public var loop: Bool
    public var pace: PlaybackPace
    /// A reader whose header was already read (a pipe's, by the settings check): the source plays
    /// on from it instead of opening the path again, which would wait for a new writer.
    public var opened: Y4MOpenedReader?

    public init(path: String, loop: Bool = true, pace: PlaybackPace = .realtime) {
        self.path = path
        self.loop = loop
        self.pace = pace
    }

    public var isStandardInput: Bool { path == "-" }
}

/// A y4m reader handed from whoever read the header to the source that plays it, once.
/// Compared by identity: two settings are the same only if they hand over the same reader.
public final class Y4MOpenedReader: Sendable, Hashable {
    private let reader: Lock<Y4MReader<Y4MFileInput>?>

    init(_ reader: Y4MReader<Y4MFileInput>) {
        self.reader = Lock(reader)
    }

    /// The reader, the first time only.
    func take() -> Y4MReader<Y4MFileInput>? {
        reader.withLock { reader in
            defer { reader = nil }
            return reader
        }
    }

    public static func == (lhs: Y4MOpenedReader, rhs: Y4MOpenedReader) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
