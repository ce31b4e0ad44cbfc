extension CamcastConfig {
    /// `outputs: - record: DIR` — segmented MP4 recording with retention (see README, "Recording").
    public struct RecordConfig: Sendable, Hashable, CustomStringConvertible {
        public static let defaultSegmentSeconds = 600.0
        public static let defaultName = "%Y-%m-%d/%H-%M-%S%z.mp4"

        public var directory: String
        public var segmentSeconds: Double
        /// strftime(3) pattern relative to `directory`, local time.
        public var name: String
        public var maxAgeSeconds: Int?
        public var maxBytes: Int64?
        public var minFreeBytes: Int64?

        public init(
            directory: String, segmentSeconds: Double = Self.defaultSegmentSeconds, name: String = Self.defaultName,
            maxAgeSeconds: Int? = nil, maxBytes: Int64? = nil, minFreeBytes: Int64? = nil
        ) {
            self.directory = directory
            self.segmentSeconds = segmentSeconds
            self.name = name
            self.maxAgeSeconds = maxAgeSeconds
            self.maxBytes = maxBytes
            self.minFreeBytes = minFreeBytes
        }

        public var description: String { "record \(directory)" }
    }
}
