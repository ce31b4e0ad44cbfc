import Encoder
import Logging
import Media

/// The settings of one run and the log level, after every check passed.
struct ResolvedRun: Sendable {
    var settings: RunSettings
    var logLevel: Logger.Level
}

/// Every problem found in the run's settings, reported together.
struct SettingsProblems: Error {
    var problems: [String]
}

/// Turns flags into validated `RunSettings`, collecting every problem instead of stopping at the first.
enum SettingsResolver {
    static func resolve(_ flags: CommandLineSettings) throws(SettingsProblems) -> ResolvedRun {
        var problems: [String] = []

        var source = RunSettings.Source.testPattern
        switch flags.source {
        case nil, "testpattern": source = .testPattern
        case let other?: problems.append("--source: '\(other)' is not supported (use testpattern)")
        }

        var size = VideoSize(width: 1280, height: 720)
        if let text = flags.size {
            if let parsed = VideoSize(parsing: text) { size = parsed } else {
                problems.append("--size: '\(text)' is not WIDTHxHEIGHT (e.g. 1280x720)")
            }
        }

        var frameRate = FrameRate(numerator: 30)
        if let text = flags.fps {
            if let parsed = parseFrameRate(text) { frameRate = parsed } else {
                problems.append("--fps: '\(text)' is not a frame rate (e.g. 30 or 30000/1001)")
            }
        }

        var encoder = EncoderSettings(size: size, frameRate: frameRate, bitrateKbps: flags.bitrateKbps ?? 2500)
        if let seconds = flags.keyframeIntervalSeconds { encoder.keyframeIntervalSeconds = seconds }
        if let preset = flags.preset { encoder.preset = preset }
        if let text = flags.profile {
            if let profile = H264Profile(rawValue: text) { encoder.profile = profile } else {
                problems.append("--profile: '\(text)' is not one of baseline, main, high")
            }
        }
        problems += encoder.validate().map { "\($0)" }

        var outputs: [OutputTarget] = []
        for text in flags.outputs {
            do {
                outputs.append(try OutputTarget(parsing: text))
            } catch {
                problems.append("--output: \(error)")
            }
        }
        if flags.outputs.isEmpty {
            problems.append("--output: at least one output is required (an rtmp:// URL or a .flv path)")
        }
        if Set(outputs).count != outputs.count {
            problems.append("--output: the same output is given twice")
        }

        if let duration = flags.durationSeconds, !(duration > 0 && duration.isFinite) {
            problems.append("--duration: must be a positive number of seconds")
        }

        var logLevel = Logger.Level.info
        if let text = flags.logLevel {
            if let level = Logger.Level(rawValue: text) { logLevel = level } else {
                problems.append("--log-level: '\(text)' is not one of trace, debug, info, notice, warning, error, critical")
            }
        }

        var reconnect = ReconnectPolicy()
        reconnect.isEnabled = !flags.noReconnect
        if let attempts = flags.reconnectAttempts {
            if attempts >= 0 { reconnect.maxAttempts = attempts } else {
                problems.append("--reconnect-attempts: must be 0 (retry forever) or more")
            }
        }
        if let seconds = flags.reconnectHealthyAfterSeconds {
            if seconds >= 0 && seconds.isFinite { reconnect.healthyAfterSeconds = seconds } else {
                problems.append("--reconnect-healthy-after: must be 0 seconds or more")
            }
        }
        if let seconds = flags.sendTimeoutSeconds, !(1...120).contains(seconds) {
            problems.append("--send-timeout: must be 1 … 120 seconds")
        }

        guard problems.isEmpty else { throw SettingsProblems(problems: problems) }
        var settings = RunSettings(source: source, encoder: encoder, outputs: outputs, durationSeconds: flags.durationSeconds)
        settings.statusIntervalSeconds = 30
        settings.reconnect = reconnect
        if let seconds = flags.sendTimeoutSeconds { settings.rtmp.sendTimeoutSeconds = seconds }
        return ResolvedRun(settings: settings, logLevel: logLevel)
    }

    /// `30`, `29.97` or `30000/1001`.
    static func parseFrameRate(_ text: String) -> FrameRate? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]), numerator > 0, denominator > 0 {
            return FrameRate(numerator: numerator, denominator: denominator)
        }
        if parts.count == 1, let value = Double(text), value > 0, value.isFinite {
            if value == value.rounded() { return FrameRate(numerator: Int(value)) }
            return FrameRate(numerator: Int((value * 1000).rounded()), denominator: 1000)
        }
        return nil
    }
}
