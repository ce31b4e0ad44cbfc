extension CamcastConfig {
    /// `outputs: - record: DIR` — segmented MP4 recording with retention (see README, "Recording").
    public struct RecordConfig: Sendable, Hashable, CustomStringConvertible {
        public static let defaultSegmentSeconds = 600.0
        public static let defaultName = "%Y-%m-%d/%H-%M-%S%z.mp4"
        /// The default name of `container: ts` segments.
        public static let defaultTSName = "%Y-%m-%d/%H-%M-%S%z.ts"

        /// `container:` — `mp4` (fragmented, the default) or `ts` (MPEG-TS).
        public enum Container: String, Sendable, Hashable, CaseIterable {
            case mp4, ts
        }

        public var directory: String
        public var segmentSeconds: Double
        /// strftime(3) pattern relative to `directory`, local time.
        public var name: String
        public var maxAgeSeconds: Int?
        public var maxBytes: Int64?
        public var minFreeBytes: Int64?
        /// `mode: outage` with its keys; nil is `mode: continuous` (the default).
        public var outage: Outage?
        public var container = Container.mp4

        /// `pre_seconds` [30], `pre_bytes` [64M], `post_seconds` [10].
        public struct Outage: Sendable, Hashable {
            public var preSeconds: Double = 30
            public var preBytes: Int64 = 64 << 20
            public var postSeconds: Double = 10

            public init(preSeconds: Double = 30, preBytes: Int64 = 64 << 20, postSeconds: Double = 10) {
                self.preSeconds = preSeconds
                self.preBytes = preBytes
                self.postSeconds = postSeconds
            }
        }

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
