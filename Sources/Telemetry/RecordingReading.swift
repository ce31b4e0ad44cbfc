/// What a segmented recording (`- record: DIR`) has done and where it stands, read at report
/// time from the recorder's own counters: /status shows it, /metrics exports it
/// (`camcast_recording_*`), and its `paused` makes the output's phase `paused`, which /healthz
/// reports.
public struct RecordingReading: Sendable, Equatable, Codable {
    /// The folder it records into (a path the operator configured; never a secret).
    public var directory: String
    /// Bytes that reached its files, headers and index included.
    public var bytesWritten: Int
    /// Segments begun since the output opened.
    public var segmentsStarted: Int
    /// Segments retention deleted since the output opened.
    public var filesDeleted: Int
    /// All of its segments on the disk now, the one in progress included.
    public var keptBytes: Int
    /// Free space on the file system holding `directory`, for an unprivileged writer; nil when it
    /// cannot be examined (the folder was removed).
    public var freeBytes: Int?
    /// Waiting for disk space; `pauseReason` says what failed.
    public var paused: Bool
    public var pauseReason: String?
    /// The segment being written (relative to `directory`) and the wall-clock time it is named
    /// by; nil between segments, while paused, and in outage mode outside an outage.
    public var currentSegment: String?
    public var currentSegmentStartUnixSeconds: Double?

    public init(
        directory: String, bytesWritten: Int = 0, segmentsStarted: Int = 0, filesDeleted: Int = 0, keptBytes: Int = 0,
        freeBytes: Int? = nil, paused: Bool = false, pauseReason: String? = nil, currentSegment: String? = nil,
        currentSegmentStartUnixSeconds: Double? = nil
    ) {
        self.directory = directory
        self.bytesWritten = bytesWritten
        self.segmentsStarted = segmentsStarted
        self.filesDeleted = filesDeleted
        self.keptBytes = keptBytes
        self.freeBytes = freeBytes
        self.paused = paused
        self.pauseReason = pauseReason
        self.currentSegment = currentSegment
        self.currentSegmentStartUnixSeconds = currentSegmentStartUnixSeconds
    }
}
