/// The one-line status, in the log and in systemd's STATUS= (`systemctl status` shows it):
///
/// "in" counts frames captured, "out" frames that left through the slowest output (see
/// `PipelineSnapshot.framesSent`).
///
///     1280x720 in 30.0 fps out 30.0 fps 2496/2500 kbit/s queue 0.2 s dropped 0 reconnects 0 outputs 2 up 1d02:03:04
///
/// "queue" is the longest output queue in seconds of media. Each output that is not up follows,
/// named: `…; rtmp-1 down 14 s, 6 attempts: connection refused`.
///
/// and, while placeholders stand in for the camera, starting with what is wrong, where an
/// operator looks first: `[waiting for camera /dev/video0] 1280x720 in 30.0 fps …`. With sound, the AAC frames
/// encoded per second and the device's xruns since start follow the outputs (`… outputs 2 audio
/// 46.9/s xruns 0 up …`), and a microphone that is gone leads like the camera:
/// `[audio silenced: unplugged] …`.
///
/// Between schedule windows with `idle: close`, the line leads with the rest, not as trouble but so
/// that "in 0.0 fps" needs no explaining: `[source resting until Mon 07:30 (07:30)] 1280x720 in 0.0 fps …`.
///
/// With adaptive bitrate on, `abr N` after the rates is the bitrate the encoder runs at now
/// (kbit/s), at most the configured one after the slash: `520/1200 kbit/s abr 500 queue …`.
///
/// Rates are over the time between the two snapshots: what happened lately, not since start.
/// "dropped" counts every frame lost since start: by the camera's driver, skipped at the source,
/// broken on arrival (bad MJPEG), dropped at the encoder stage's full queue, dropped by a
/// congested output.
struct StatusLine {
    var previous: PipelineSnapshot
    var current: PipelineSnapshot
    var uptimeSeconds: Double

    var text: String {
        let seconds = max(Double(current.at.nanoseconds(since: previous.at)) / 1e9, 0.001)
        let fpsIn = Double(current.framesCaptured - previous.framesCaptured) / seconds
        // An output opened by a reload starts from 0 and may lower the minimum: never below 0.
        let fpsOut = Double(max(0, current.framesSent - previous.framesSent)) / seconds
        let kbps = Int((Double(current.encodedBytes - previous.encodedBytes) * 8 / 1000 / seconds).rounded())
        let dropped = current.droppedFrames + current.skippedAtSource + current.droppedByDriver + current.badFrames
            + current.droppedAtEncoder
        var trouble = current.sourceResting.map { "[source resting \($0)] " } ?? ""
        trouble += current.placeholderReason.map { "[\($0)] " } ?? ""
        var audio = ""
        if let sound = current.audio {
            let rate = Double(max(0, sound.frames - (previous.audio?.frames ?? 0))) / seconds
            audio = "audio \(Self.oneDecimal(rate))/s xruns \(sound.xruns) "
            if let problem = sound.trouble { trouble += "[audio \(problem)] " }
        }
        return "\(trouble)\(current.size) in \(Self.oneDecimal(fpsIn)) fps out \(Self.oneDecimal(fpsOut)) fps "
            + "\(kbps)/\(current.targetKbps) kbit/s \(current.adaptedKbps.map { "abr \($0) " } ?? "")queue \(Self.oneDecimal(current.queueSeconds)) s dropped \(dropped) "
            + "reconnects \(current.reconnects) outputs \(current.outputs) \(audio)up \(Self.duration(uptimeSeconds))"
            + current.outputsDown.map { "; \($0)" }.joined()
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }

    /// `0:00:05`, `2:03:04`, `1d02:03:04`.
    static func duration(_ seconds: Double) -> String {
        let total = max(0, Int(seconds))
        let days = total / 86400
        let hours = total / 3600 % 24
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let clock = "\(two(total / 60 % 60)):\(two(total % 60))"
        return days > 0 ? "\(days)d\(two(hours)):\(clock)" : "\(hours):\(clock)"
    }
}
