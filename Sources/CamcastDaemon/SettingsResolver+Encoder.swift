import Config
import Encoder
import Media

/// The config's encoder section as the encoder session's settings.
extension SettingsResolver {
    /// The session's settings for `config` at the size and rate the source resolved to.
    static func encoderSettings(_ config: CamcastConfig.EncoderConfig, size: VideoSize, frameRate: FrameRate) -> EncoderSettings {
        EncoderSettings(
            size: size, frameRate: frameRate, bitrateKbps: config.bitrateKbps, maxRateFactor: config.maxRateFactor,
            rateWindowSeconds: config.rateWindowSeconds, keyframeIntervalSeconds: config.keyframeIntervalSeconds,
            keyframeIntervalFrames: config.keyframeIntervalFrames, preset: config.preset.rawValue,
            zeroLatency: config.realtime, profile: H264Profile(rawValue: config.profile.rawValue) ?? .high,
            level: config.level == "auto" ? nil : config.level, bFrames: config.bframes,
            entropy: config.entropy == .auto ? nil : H264Entropy(rawValue: config.entropy.rawValue),
            threads: config.threads, maxFrameDelay: config.maxFrameDelay, scaling: scalingMode(config.scaling),
            codec: videoCodec(config.codec), implementation: EncoderImplementation(parsing: config.backend) ?? .library,
            codecOptions: config.options.map { EncoderOption(name: $0.name, value: $0.value) })
    }

    /// "did you mean" for a mistyped libavcodec encoder name, among the ones libavcodec has for
    /// the codec (the settings problem already lists them all).
    static func backendSuggestion(_ issue: EncoderSettingsProblem, _ settings: EncoderSettings) -> String {
        if issue.setting.hasPrefix("encoder.options."), issue.value == issue.setting.dropFirst("encoder.options.".count),
            case .avcodec(let encoder) = settings.implementation
        {
            // An option name the encoder lacks: the nearest of the ones it has.
            let names = EncoderSettings.avcodecOptionNames(encoder: encoder)
            guard let guess = KeySuggestion.closest(to: issue.value, among: names), guess != issue.value else { return "" }
            return "; did you mean \(guess)?"
        }
        guard issue.setting == "encoder.backend", case .avcodec(let name) = settings.implementation,
            let guess = KeySuggestion.closest(to: name, among: EncoderSettings.avcodecEncoderNames(for: settings.codec)),
            guess != name
        else { return "" }
        return "; did you mean avcodec:\(guess)?"
    }

    /// Exhaustive, as `scalingMode`. With h265 the H.264-only keys stay at their defaults (the
    /// config's rules refuse others), and `EncoderSettings` ignores profile for H.265.
    static func videoCodec(_ codec: CamcastConfig.EncoderConfig.Codec) -> VideoCodec {
        switch codec {
        case .h264: .h264
        case .h265: .h265
        }
    }

    /// Exhaustive rather than by raw value, so a choice added to the config cannot silently fall
    /// back to a default here.
    static func scalingMode(_ scaling: CamcastConfig.EncoderConfig.Scaling) -> ScalingMode {
        switch scaling {
        case .fit: .fit
        case .fill: .fill
        case .stretch: .stretch
        }
    }
}
