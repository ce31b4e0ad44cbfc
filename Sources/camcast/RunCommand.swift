import ArgumentParser
import CamcastDaemon

/// `camcast run`: stream until stopped, or for `--duration` seconds.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Capture, encode and publish until stopped (SIGINT/SIGTERM) or until --duration has elapsed."
    )

    @Option(help: "A YAML config file (see Config/camcast.yaml); flags override its keys.")
    var config: String?

    @Option(help: "Source: 'testpattern' (built-in moving pattern), a V4L2 device such as /dev/video0, or a file: a .y4m clip, an .mjpeg recording, or raw frames with --pixel-format ('-' reads standard input).")
    var source: String?

    @Option(name: .customLong("pixel-format"), help: "The V4L2 FourCC to ask a device for, or what a file source holds: YUYV, UYVY, NV12, NV21, YU12, YV12, RGB3, BGR3, AR24 (raw frames at --size) or MJPG (default auto).")
    var pixelFormat: String?

    @Option(help: "Picture size, WIDTHxHEIGHT (default 1280x720).")
    var size: String?

    @Option(help: "Frame rate, e.g. 30 or 30000/1001 (default 30).")
    var fps: String?

    // Number options take the next argument as their value even when it starts with `-`, so
    // `--bitrate -5` is refused as an out-of-range bitrate, not as a missing value.
    @Option(parsing: .unconditional, help: "Average video bitrate in kbit/s (default 2500).")
    var bitrate: Int?

    @Option(name: .customLong("min-bitrate"), parsing: .unconditional, help: "Adaptive bitrate's floor in kbit/s (default a quarter of --bitrate, at least 50).")
    var minBitrate: Int?

    @Flag(name: .customLong("no-adaptive-bitrate"), help: "Keep --bitrate whatever the RTMP outputs carry; a slow link then drops up to the next keyframe.")
    var noAdaptiveBitrate = false

    @Option(name: .customLong("keyint-seconds"), parsing: .unconditional, help: "Longest time between keyframes, seconds (default 2).")
    var keyintSeconds: Double?

    @Option(help: "Video codec: h264 (libx264, default) or h265 (libx265, sent as Enhanced RTMP).")
    var codec: String?

    @Option(help: "Encoder backend: auto (libx264/libx265, default) or avcodec:NAME, a libavcodec encoder such as avcodec:h264_v4l2m2m (Raspberry Pi), avcodec:h264_nvenc or avcodec:libx264 (config encoder.backend).")
    var encoder: String?

    @Option(help: "x264/x265 preset (default veryfast).")
    var preset: String?

    @Option(help: "H.264 profile: baseline, main or high (default high).")
    var profile: String?

    @Option(name: .customLong("output"), help: "An rtmp:// or srt://host:port URL, or a path ending in .flv, .h264 or .h265; repeat for several.")
    var outputs: [String] = []

    @Option(name: .customLong("record"), help: "Record 10-minute MP4 segments into this folder, beside the outputs (config outputs: - record: DIR for segment length and retention).")
    var recordDirectory: String?

    @Option(parsing: .unconditional, help: "Stop after this many seconds of media.")
    var duration: Double?

    @Option(help: "File sources: 'realtime' (default; one frame per frame interval) or 'fast' (as fast as the encoder goes).")
    var pace: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (default info).")
    var logLevel: String?

    @Flag(name: .customLong("no-reconnect"), help: "Exit with an error on the first RTMP failure instead of reconnecting.")
    var noReconnect = false

    @Option(name: .customLong("reconnect-attempts"), parsing: .unconditional, help: "Give up after this many failed RTMP attempts in a row (default 0: forever).")
    var reconnectAttempts: Int?

    @Option(name: .customLong("reconnect-healthy-after"), parsing: .unconditional, help: "Seconds a connection must stay up to reset the backoff after a refused or dropped publish (default 30); refused connections always retry within 2 s.")
    var reconnectHealthyAfter: Double?

    @Option(name: .customLong("connect-timeout"), parsing: .unconditional, help: "Seconds an RTMP server may stay silent while connecting, in the handshake or before publishing starts, before the attempt fails and is retried (default 10).")
    var connectTimeout: Double?

    @Option(name: .customLong("send-timeout"), parsing: .unconditional, help: "Seconds an RTMP connection may make no progress before it is dropped and retried (default 10).")
    var sendTimeout: Int?

    @Option(name: .customLong("tls-ca-file"), help: "For rtmps:// outputs: a PEM file of CA certificates to trust besides the system store (config network.tls_ca_file).")
    var tlsCAFile: String?

    @Option(help: "Sound beside the video, as AAC: 'silent' (default; an audio track of silence), 'none' (video only), a PCM .wav file (looped), or alsa:DEVICE (e.g. alsa:default, alsa:hw:1,0).")
    var audio: String?

    func run() async throws {
        var flags = CommandLineSettings(
            configPath: config, source: source, size: size, fps: fps, bitrateKbps: bitrate, keyframeIntervalSeconds: keyintSeconds,
            preset: preset, profile: profile, outputs: outputs, durationSeconds: duration, logLevel: logLevel,
            pace: pace)
        flags.pixelFormat = pixelFormat
        flags.recordDirectory = recordDirectory
        flags.codec = codec
        flags.encoderBackend = encoder
        flags.noReconnect = noReconnect
        flags.reconnectAttempts = reconnectAttempts
        flags.reconnectHealthyAfterSeconds = reconnectHealthyAfter
        flags.connectTimeoutSeconds = connectTimeout
        flags.sendTimeoutSeconds = sendTimeout
        flags.tlsCAFile = tlsCAFile
        flags.minBitrateKbps = minBitrate
        flags.noAdaptiveBitrate = noAdaptiveBitrate
        flags.audio = audio
        let exitCode = await CamcastRunner.run(flags)
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
