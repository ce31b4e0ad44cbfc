import Config
import Encoder
import Outputs
import RTMPAddress
import Recording
import SRT

/// Where the encoded stream goes. One run may have several.
public enum OutputTarget: Sendable, Hashable, CustomStringConvertible {
    /// Publish to an RTMP server.
    case rtmp(RTMPURL)
    /// Write an `.flv` file (duration patched when it is closed).
    case flvFile(path: String)
    /// Write a raw Annex-B `.h264` or `.h265` file, optionally only its first `maxFrames` pictures.
    case annexBFile(path: String, maxFrames: Int?)
    /// Record segmented MP4 files into a folder, with retention.
    case recording(RecordingSettings)
    /// Publish MPEG-TS to an SRT listener (caller mode); `options` holds the passphrase read
    /// from its file (network timeouts are the run's, set when the output is made).
    case srt(SRTURL, options: SRTCallerOptions)
    /// A primary and its backups (`rtmp` and `srt` legs) used as `policy` says: dual ingest or failover.
    indirect case group(legs: [OutputTarget], policy: OutputGroupPolicy)

    /// Maps an already validated config output onto its sink; `environment` holds what an SRT
    /// output's `passphrase_env` names.
    init(_ output: CamcastConfig.OutputConfig, environment: [String: String] = [:]) throws(OutputTargetError) {
        switch output {
        case .rtmp(let text):
            do {
                self = .rtmp(try RTMPURL(parsing: text))
            } catch {
                throw .badURL(error.message(quoting: text))
            }
        case .srt(let srt):
            var options = SRTCallerOptions(latencyMilliseconds: srt.latencyMilliseconds, keyLength: srt.keyLength, streamID: srt.streamID)
            if let path = srt.passphraseFile { options.passphrase = try Self.passphrase(in: path) }
            if let name = srt.passphraseVariable { options.passphrase = try Self.passphrase(named: name, in: environment) }
            self = .srt(srt.url, options: options)
        case .group(let group):
            var legs: [OutputTarget] = []
            for leg in group.legs { legs.append(try OutputTarget(leg, environment: environment)) }
            let policy = OutputGroupPolicy(
                mode: group.mode == .both ? .both : .failover, failoverAfterSeconds: Double(group.failoverAfterSeconds),
                returnAfterSeconds: Double(group.returnAfterSeconds))
            self = .group(legs: legs, policy: policy)
        case .record(let record):
            var settings = RecordingSettings(
                directory: record.directory, segmentSeconds: record.segmentSeconds, namePattern: record.name,
                maxAgeSeconds: record.maxAgeSeconds.map(Int64.init), maxBytes: record.maxBytes, minFreeBytes: record.minFreeBytes)
            settings.container = record.container == .ts ? .ts : .mp4
            settings.outage = record.outage.map {
                OutagePolicy(preSeconds: $0.preSeconds, preBytes: $0.preBytes, postSeconds: $0.postSeconds)
            }
            self = .recording(settings)
        case .file(let path, let maxFrames):
            guard !path.isEmpty else { throw .empty }
            let lowered = path.lowercased()
            if lowered.hasSuffix(".flv") {
                guard maxFrames == nil else { throw .frameLimitNeedsH264(path: path) }
                self = .flvFile(path: path)
            } else if Self.annexBCodec(ofPath: lowered) != nil {
                self = .annexBFile(path: path, maxFrames: maxFrames)
            } else {
                throw .unknownKind(path: path)
            }
        }
    }

    /// The codec an Annex-B file's name promises: .h264/.264 H.264, .h265/.265 H.265 (the
    /// config has checked it matches `encoder.codec`).
    static func annexBCodec(ofPath path: String) -> VideoCodec? {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".h264") || lowered.hasSuffix(".264") { return .h264 }
        if lowered.hasSuffix(".h265") || lowered.hasSuffix(".265") { return .h265 }
        return nil
    }

    /// The passphrase in `path` (the file's text less a final line break), checked like
    /// `http.credentials_file` (mode 0600); the error never shows it.
    static func passphrase(in path: String) throws(OutputTargetError) -> String {
        let text: String
        do {
            text = try SecretFile.contents(of: path)
        } catch {
            throw .passphraseFile(error.message)
        }
        var passphrase = Substring(text)
        while passphrase.last == "\n" || passphrase.last == "\r" { passphrase = passphrase.dropLast() }
        if let problem = lengthProblem(of: passphrase, heldBy: path) { throw .passphraseFile(problem) }
        return String(passphrase)
    }

    /// The passphrase in the environment variable `name` (a systemd EnvironmentFile's), checked
    /// for SRT's length; the error names the variable, never its value.
    static func passphrase(named name: String, in environment: [String: String]) throws(OutputTargetError) -> String {
        guard let value = environment[name], !value.isEmpty else {
            throw .passphraseVariable("$\(name) is not set (set it in the environment, such as the unit's EnvironmentFile)")
        }
        if let problem = lengthProblem(of: value, heldBy: "$\(name)") { throw .passphraseVariable(problem) }
        return value
    }

    /// Why `passphrase` (held by a file or a variable, named `holder`) is no SRT passphrase, by its
    /// length alone; nil when it is one. The text names the holder, never the passphrase.
    private static func lengthProblem(of passphrase: some StringProtocol, heldBy holder: String) -> String? {
        let lengths = SRTCallerOptions.passphraseLengths
        guard !lengths.contains(passphrase.count) else { return nil }
        return "\(holder) holds a passphrase of \(passphrase.count) characters; SRT needs \(lengths.lowerBound)…\(lengths.upperBound)"
    }

    /// Safe to log: RTMP URLs show their stream key masked.
    public var description: String {
        switch self {
        case .rtmp(let url): url.redacted
        case .flvFile(let path): path
        case .annexBFile(let path, _): path
        case .recording(let settings): settings.description
        case .srt(let url, let options): "\(url)" + (options.streamID.map { " (streamid \(SRTURL.redactStreamID($0)))" } ?? "")
        case .group(let legs, let policy): "\(policy.mode.rawValue) [" + legs.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

public enum OutputTargetError: Error, Equatable, CustomStringConvertible {
    case empty
    case badURL(String)
    case unknownKind(path: String)
    case frameLimitNeedsH264(path: String)
    /// An SRT output's passphrase_file could not be used (never its content).
    case passphraseFile(String)
    /// An SRT output's passphrase_env could not be used (never its value).
    case passphraseVariable(String)

    public var description: String {
        switch self {
        case .empty: "an output must not be empty"
        case .badURL(let reason): reason
        case .unknownKind(let path):
            "output '\(path)' is neither an rtmp:// URL nor a file ending in .flv, .h264 or .h265"
        case .frameLimitNeedsH264(let path):
            "output '\(path)': max_frames applies to .h264/.h265 outputs only"
        case .passphraseFile(let reason): "passphrase_file: \(reason)"
        case .passphraseVariable(let reason): "passphrase_env: \(reason)"
        }
    }
}

extension OutputTarget {
    /// The `kind` label of an output's metrics.
    var metricKind: String {
        switch self {
        case .rtmp: "rtmp"
        case .flvFile: "flv"
        case .annexBFile: "annexb"
        case .recording: "record"
        case .srt: "srt"
        case .group(_, let policy): policy.mode == .both ? "dual" : "failover"
        }
    }

    /// Where it goes, for /status: an RTMP URL with its key masked and without any query.
    var safeDescription: String {
        if case .group(let legs, let policy) = self {
            return "\(policy.mode.rawValue) [" + legs.map(\.safeDescription).joined(separator: ", ") + "]"
        }
        let text = description
        guard case .rtmp = self, let query = text.firstIndex(of: "?") else { return text }
        return String(text[..<query])
    }
}
