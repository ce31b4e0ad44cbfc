#if canImport(Glibc)
import Glibc
#endif
import Capture
import Config
import Schedule
import Encoder
import Logging
import Media

/// Builds a run's settings from, in rising precedence, the config file, `CAMCAST_*` environment
/// variables and command-line flags — all through the Config module, so a flag is checked by
/// exactly the rules its key has in the file — then maps them onto the stages' own settings.
/// Every problem is collected and thrown together.
enum SettingsResolver {
    /// `CAMCAST_TEST_*` variables belong to the test suite and are not settings; every other
    /// `CAMCAST_*` name must be a setting, so a misspelt one is an error instead of being ignored.
    static let testVariablePrefix = "CAMCAST_TEST_"

    /// `--duration`: above 0 and at most a year, so the pipeline's nanosecond arithmetic on it
    /// (`Int64(seconds × 10⁹)`) stays far from overflow; NaN is outside every range.
    static let durationRange: ClosedRange<Double> = 0...31_536_000

    static func resolve(_ flags: CommandLineSettings, environment: [String: String]) throws(ConfigError) -> ResolvedRun {
        var config = CamcastConfig.default
        var warnings: [String] = []
        if let path = flags.configPath {
            config = try CamcastConfig.load(path: path)
            if let warning = config.worldReadableKeyWarning(path: path) { warnings.append(warning) }
        }
        // A variable an SRT output's passphrase_env names is the passphrase, not a setting.
        try config.apply(
            environment: environment.filter { !$0.key.hasPrefix(testVariablePrefix) },
            ignoring: CamcastConfig.environmentVariablesNotSettings.union(config.passphraseVariables))
        try config.apply(overrides: overrides(from: flags), outputs: flags.outputs.isEmpty ? nil : flags.outputs)
        if let directory = flags.recordDirectory {
            try addRecording(directory, to: &config)
        }
        if let duration = flags.durationSeconds, !durationRange.contains(duration) || duration == 0 {
            throw ConfigError(problems: [
                ConfigProblem(
                    origin: "command line", keyPath: "--duration",
                    message: "\(duration) is out of range (a number of seconds above 0 and at most \(Int(durationRange.upperBound)), one year)")
            ])
        }
        return try runSettings(
            from: config, durationSeconds: flags.durationSeconds, pace: flags.pace, reconnectEnabled: !flags.noReconnect,
            warnings: warnings, environment: environment)
    }

    /// The flags that name a config key, as key-path overrides.
    static func overrides(from flags: CommandLineSettings) -> [String: String] {
        var overrides: [String: String] = [:]
        if let source = flags.source {
            if source == "testpattern" {
                overrides["source.type"] = "testpattern"
            } else if source.hasPrefix("/dev/") {
                overrides["source.type"] = "device"
                overrides["source.device"] = source
            } else {
                overrides["source.type"] = "file"
                overrides["source.file"] = source
            }
        }
        overrides["source.pixel_format"] = flags.pixelFormat
        overrides["source.size"] = flags.size
        overrides["source.fps"] = flags.fps
        overrides["encoder.codec"] = flags.codec
        overrides["encoder.backend"] = flags.encoderBackend
        overrides["encoder.bitrate_kbps"] = flags.bitrateKbps.map(String.init)
        overrides["encoder.min_bitrate_kbps"] = flags.minBitrateKbps.map(String.init)
        if flags.noAdaptiveBitrate { overrides["encoder.adaptive_bitrate"] = "false" }
        overrides["encoder.keyframe_interval_seconds"] = flags.keyframeIntervalSeconds.map { "\($0)" }
        overrides["encoder.preset"] = flags.preset
        overrides["encoder.profile"] = flags.profile
        overrides["logging.level"] = flags.logLevel
        overrides["reconnect.max_attempts"] = flags.reconnectAttempts.map(String.init)
        overrides["reconnect.healthy_after_seconds"] = flags.reconnectHealthyAfterSeconds.map { "\($0)" }
        overrides["network.connect_timeout_seconds"] = flags.connectTimeoutSeconds.map { "\($0)" }
        overrides["network.send_timeout_seconds"] = flags.sendTimeoutSeconds.map(String.init)
        overrides["network.tls_ca_file"] = flags.tlsCAFile
        if let audio = flags.audio {
            // --audio silent|none|FILE.wav|alsa:DEVICE
            if audio == "silent" || audio == "none" {
                overrides["audio.source"] = audio
            } else if audio.hasPrefix("alsa:") {
                overrides["audio.source"] = "device"
                overrides["audio.device"] = String(audio.dropFirst(5))
            } else {
                overrides["audio.source"] = "file"
                overrides["audio.file"] = audio
            }
        }
        return overrides
    }

    /// Maps a valid config onto the stages' settings; the stages' own checks run too, and their
    /// problems are reported under the config's key names.
    static func runSettings(
        from config: CamcastConfig, durationSeconds: Double?, pace: String? = nil, reconnectEnabled: Bool = true,
        warnings: [String], environment: [String: String] = [:]
    ) throws(ConfigError) -> ResolvedRun {
        var problems: [ConfigProblem] = []
        var warnings = warnings
        func problem(_ keyPath: String, _ message: String) {
            problems.append(ConfigProblem(origin: "settings", keyPath: keyPath, message: message))
        }

        var size = config.source.size
        var frameRate = config.source.fps
        let file = fileSource(config.source, pace: pace, problem: problem)
        if let file {
            // A clip says what it is: its own size and rate set the encoder up, whatever source.size says.
            size = file.size
            frameRate = file.frameRate
        }
        let encoder = encoderSettings(config.encoder, size: size, frameRate: frameRate)
        for issue in encoder.validate() {
            problem(issue.setting, issue.message + backendSuggestion(issue, encoder))
        }

        var source = RunSettings.Source.testPattern
        switch config.source.type {
        case .testpattern:
            source = .testPattern
        case .device:
            var pixelFormat: PixelFormat?
            if config.source.pixelFormat != "auto" {
                pixelFormat = PixelFormat(rawValue: config.source.pixelFormat)
                if pixelFormat == nil { problem("source.pixel_format", "'\(config.source.pixelFormat)' is not supported") }
            }
            let path = config.source.device ?? ""
            switch FileKind.devicePathProblem(path) {
            case .neverADevice(let why)?: problem("source.device", why)
            case .notThereYet(let note)?: warnings.append(note)
            case nil: break
            }
            source = .device(
                V4L2SourceSettings(
                    devicePath: path, pixelFormat: pixelFormat, size: size, frameRate: frameRate,
                    bufferCount: config.source.buffers))
        case .file:
            if let file { source = file.source }
        }

        var outputs: [OutputTarget] = []
        var outputNames: [OutputTarget: String] = [:]
        var outputUplinks: [OutputTarget: Uplink] = [:]
        var outputSchedules: [OutputTarget: Schedule] = [:]
        for (index, output) in config.outputs.enumerated() {
            do {
                let target = try OutputTarget(output, environment: environment)
                outputs.append(target)
                if let name = config.outputNames[output] { outputNames[target] = name }
                if let uplink = config.outputUplinks[output] { outputUplinks[target] = uplink }
                if let schedule = config.schedule.schedule(for: output), Self.followsSchedules(target) { outputSchedules[target] = schedule }
                // A group's legs may each leave by an uplink of their own.
                if case .group(let legConfigs) = output, case .group(let legs, _) = target {
                    for (legConfig, leg) in zip(legConfigs.legs, legs) {
                        if let uplink = config.outputUplinks[legConfig] { outputUplinks[leg] = uplink }
                    }
                }
                if case .rtmp(let url) = target, url.query != nil {
                    warnings.append(queryNote(url, index: index))
                }
            } catch {
                problem("outputs[\(index)]", error.description)
            }
        }

        let audio = audioSettings(config.audio, problem: problem)
        let overlay = overlaySettings(config.overlay, problem: problem)
        source = withSlate(config.overlay, source, problem: problem)
        let http: HTTPSettings?
        do {
            http = try HTTPSettings(config.http)
        } catch {
            http = nil
            problem(error.keyPath, error.message)
        }
        if problems.isEmpty {
            checkStart(outputs: outputs, tlsCAFile: config.network.tlsCAFile, audio: audio, problem: problem)
        }
        guard problems.isEmpty else { throw ConfigError(problems: problems) }
        var settings = RunSettings(source: source, encoder: encoder, outputs: outputs, durationSeconds: durationSeconds)
        settings.encoder.burstLimitSeconds = Self.burstLimitSeconds(for: outputs)
        settings.sendQueueMilliseconds = Int64(config.queue.maxSeconds * 1000)
        settings.rtmp.connectTimeoutSeconds = Int(config.network.connectTimeoutSeconds.rounded(.up))
        settings.rtmp.sendTimeoutSeconds = Int(config.network.sendTimeoutSeconds.rounded(.up))
        settings.rtmp.tlsCAFile = config.network.tlsCAFile
        settings.reconnect = ReconnectPolicy(
            isEnabled: reconnectEnabled, initialDelaySeconds: config.reconnect.initialDelaySeconds,
            factor: config.reconnect.factor, maxDelaySeconds: config.reconnect.maxDelaySeconds,
            maxAttempts: config.reconnect.maxAttempts, healthyAfterSeconds: config.reconnect.healthyAfterSeconds)
        settings.statusIntervalSeconds = config.status.intervalSeconds
        settings.adaptiveBitrateFloorKbps = config.encoder.adaptiveBitrate ? config.encoder.effectiveMinBitrateKbps : nil
        if settings.adaptiveBitrateFloorKbps != nil, !encoder.changesBitrateLive {
            // It would only log a refusal at every change it tried.
            settings.adaptiveBitrateFloorKbps = nil
            warnings.append("adaptive bitrate is off: \(encoder.encoderName) cannot change its bitrate while it runs (it keeps \(encoder.bitrateKbps) kbit/s)")
        }
        settings.audio = audio
        settings.overlay = overlay
        settings.http = http
        settings.outputNames = outputNames
        settings.outputUplinks = outputUplinks
        settings.outputSchedules = outputSchedules
        settings.unsetClock = config.schedule.unsetClock
        if audio != nil, source.pace == .fast {
            // The sound is paced by the clock; a clip played flat out would leave it behind.
            settings.audio = nil
            warnings.append("no audio track with --pace fast: the sound is paced in real time and cannot keep up with a clip played flat out")
        }
        settings.idle = config.schedule.idle
        if !config.schedule.isEmpty {
            for (index, output) in config.outputs.enumerated() where config.schedule.schedule(for: output) != nil {
                if case .file = output {
                    warnings.append("outputs[\(index)]: a .flv or .h264 file output runs all the time; a schedule applies to network outputs and recordings")
                }
            }
        }
        let level = Logger.Level(rawValue: config.logging.level.rawValue) ?? .info
        // librtmp formats every property of every server reply at its debug level, at a CPU cost
        // the server controls: only when the user asked for the most detailed log.
        settings.rtmp.librtmpDebugLogging = level == .trace
        return ResolvedRun(
            settings: settings, logLevel: level, warnings: warnings, schedule: config.schedule,
            scheduledOutputs: config.outputs.map { ($0, config.outputNames[$0]) })
    }

    /// A file source's settings, with the size and rate it sets the encoder up with: a y4m clip's
    /// header and an MJPEG file's first image are read now, unless the input is standard input or a
    /// pipe (which can be read only once, by the source itself). Nil for other sources or when the
    /// file cannot be played.
    private static func fileSource(
        _ config: CamcastConfig.SourceConfig, pace: String?, problem: (String, String) -> Void
    ) -> (source: RunSettings.Source, size: VideoSize, frameRate: FrameRate)? {
        var chosenPace = PlaybackPace.realtime
        if let pace {
            if let known = PlaybackPace(rawValue: pace) {
                chosenPace = known
            } else {
                problem("--pace", "'\(pace)' is not a pace (expected realtime or fast)")
            }
            if config.type != .file { problem("--pace", "only applies to a file source") }
        }
        guard config.type == .file, let path = config.file, let format = config.fileFormat else { return nil }
        let regularFileSize = FileKind.regularFileSize(path)
        switch format {
        case .y4m:
            let settings = Y4MSourceSettings(path: path, loop: config.loop, pace: chosenPace)
            if settings.isStandardInput { return (.file(settings), config.size, config.fps) }
            do {
                let probe = try Y4MFileSource(settings: settings)
                if let bytes = regularFileSize, bytes <= probe.headerByteCount {
                    problem("source.file", "\(path): \(Y4MError.noFrames)")
                    return nil
                }
                // A pipe's header is read once: the source plays on from the reader the probe opened.
                let played = regularFileSize == nil ? probe.settingsKeepingInput : settings
                return (.file(played), probe.size, probe.frameRate)
            } catch {
                problem("source.file", "\(path): \(error)")
                return nil
            }
        case .mjpeg:
            var size = config.size
            if regularFileSize != nil {
                do {
                    size = try CameraReplaySource.mjpegSize(path: path)
                } catch {
                    problem("source.file", "\(path): \(error)")
                    return nil
                }
            }
            let settings = CameraReplaySettings(
                path: path, format: .mjpeg, size: size, frameRate: config.fps, loop: config.loop, pace: chosenPace)
            return (.replay(settings), size, config.fps)
        case .raw(let name):
            guard let pixelFormat = PixelFormat(rawValue: name), pixelFormat != .mjpeg else {
                problem("source.pixel_format", "'\(name)' is not a raw pixel format")
                return nil
            }
            let settings = CameraReplaySettings(
                path: path, format: .raw(pixelFormat), size: config.size, frameRate: config.fps, loop: config.loop,
                pace: chosenPace)
            if let bytes = regularFileSize, let frameBytes = CameraReplaySource.rawFrameByteCount(pixelFormat, size: config.size) {
                guard bytes > 0 else {
                    problem("source.file", "\(path) is empty")
                    return nil
                }
                guard bytes % frameBytes == 0 else {
                    problem("source.file", "\(path) is \(bytes) bytes, not a whole number of \(config.size) \(name) frames (\(frameBytes) bytes each); check --size and --pixel-format")
                    return nil
                }
            }
            return (.replay(settings), config.size, config.fps)
        }
    }
}
