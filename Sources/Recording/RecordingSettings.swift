import Media

/// A segmented MP4 recording (`outputs: - record: DIR`, `--record DIR`): files of
/// `segmentSeconds` each under `directory`, named by `namePattern` (strftime, local time), the
/// oldest deleted first to keep within the retention limits. Hashable, so a reload that changes
/// any of it closes the old recorder and opens a new one.
public struct RecordingSettings: Sendable, Hashable, CustomStringConvertible {
    public static let defaultSegmentSeconds = 600.0
    /// Local time with its UTC offset: a daylight-saving fall-back never repeats a name.
    public static let defaultNamePattern = "%Y-%m-%d/%H-%M-%S%z.mp4"

    public var directory: String
    /// A segment ends at the first keyframe at or after this much stream time.
    public var segmentSeconds: Double
    /// strftime(3) pattern, relative to `directory`; `/` makes subdirectories.
    public var namePattern: String
    public var maxAgeSeconds: Int64?
    /// All of this recorder's segments together.
    public var maxBytes: Int64?
    /// Free space the file system keeps; the oldest segments go first to keep it.
    public var minFreeBytes: Int64?
    /// `mode: outage`: record only around the times an RTMP output is down; nil records always.
    public var outage: OutagePolicy?
    public var container = RecordingContainer.mp4

    public init(
        directory: String, segmentSeconds: Double = Self.defaultSegmentSeconds, namePattern: String = Self.defaultNamePattern,
        maxAgeSeconds: Int64? = nil, maxBytes: Int64? = nil, minFreeBytes: Int64? = nil
    ) {
        self.directory = directory
        self.segmentSeconds = segmentSeconds
        self.namePattern = namePattern
        self.maxAgeSeconds = maxAgeSeconds
        self.maxBytes = maxBytes
        self.minFreeBytes = minFreeBytes
    }

    public var description: String { "record \(directory)" }
}

/// `mode: outage`: the last `preSeconds` (never more than `preBytes`) wait in memory; when an RTMP
/// output stops streaming, segments are written from that far back until `postSeconds` after every
/// RTMP output streams again.
public struct OutagePolicy: Sendable, Hashable {
    public static let defaultPreSeconds = 30.0
    public static let defaultPreBytes: Int64 = 64 << 20
    public static let defaultPostSeconds = 10.0

    public var preSeconds: Double
    public var preBytes: Int64
    public var postSeconds: Double

    public init(preSeconds: Double = Self.defaultPreSeconds, preBytes: Int64 = Self.defaultPreBytes, postSeconds: Double = Self.defaultPostSeconds) {
        self.preSeconds = preSeconds
        self.preBytes = preBytes
        self.postSeconds = postSeconds
    }
}

/// The file format of a recording's segments (`container:`).
public enum RecordingContainer: String, Sendable, Hashable {
    /// Fragmented MP4 (the default): a fragment per keyframe, synced before the next.
    case mp4
    /// MPEG-TS, through libavformat's mpegts muxer: synced at every keyframe too.
    case ts
}

/// What the recorder needs to know of the stream before its first packet: the picture size for
/// the MP4 track header, and the sound's format if there is an AAC track.
public struct RecordedStream: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var audioSampleRate: Int?
    public var audioChannels: Int?
    public var container: RecordingContainer
    /// The pictures' rate: the last picture of a recording lasts one interval of it (every other
    /// lasts until the next).
    public var frameRate: FrameRate

    public init(
        width: Int, height: Int, frameRate: FrameRate, audioSampleRate: Int? = nil, audioChannels: Int? = nil,
        container: RecordingContainer = .mp4
    ) {
        self.container = container
        self.frameRate = frameRate
        self.width = width
        self.height = height
        self.audioSampleRate = audioSampleRate
        self.audioChannels = audioChannels
    }
}
