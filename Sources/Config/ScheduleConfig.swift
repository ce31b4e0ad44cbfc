import Schedule

extension CamcastConfig {
    /// `schedule:`, `location:`, `schedule_timezone:`, `unset_clock:`, `idle:` and each output's
    /// `schedule:` — when the stream, an output or a recording is wanted (README, "Schedules").
    public struct ScheduleConfig: Sendable, Equatable {
        /// `unset_clock:` — what a clock that has not been set yet (1970 before NTP's first sync)
        /// means: stream anyway (fail open, the default) or rest until it is set.
        public enum UnsetClock: String, Sendable, CaseIterable {
            case stream, rest
        }

        /// `idle:` — between windows, close the source and encoder (the default) or keep them warm.
        public enum Idle: String, Sendable, CaseIterable {
            case close, keep
        }

        /// An output's own `schedule:`, which overrides the stream's.
        public enum OutputSchedule: Sendable, Equatable {
            /// `schedule: always`.
            case always
            case windows(Schedule)
        }

        /// The stream's `schedule:`; nil streams always.
        public var stream: Schedule?
        /// `outputs[].schedule`, for the outputs that have one.
        public var outputs: [OutputConfig: OutputSchedule] = [:]
        public var location: GeoLocation?
        /// `schedule_timezone:`; nil is the system's zone ($TZ, /etc/localtime).
        public var timeZoneName: String?
        public var unsetClock = UnsetClock.stream
        public var idle = Idle.close

        public init() {}

        /// The schedule `output` follows; nil: always. An output's own `schedule:` wins; without
        /// one a recording records always and the other outputs follow the stream's.
        public func schedule(for output: OutputConfig) -> Schedule? {
            switch outputs[output] {
            case .always: return nil
            case .windows(let schedule): return schedule
            case nil:
                if case .record = output { return nil }
                return stream
            }
        }

        /// Whether any schedule is set at all (the stream's or an output's).
        public var isEmpty: Bool {
            stream == nil && !outputs.values.contains { if case .windows = $0 { true } else { false } }
        }
    }
}
