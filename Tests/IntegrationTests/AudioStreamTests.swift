import FLV
import Foundation
import TestSupport
import Testing

/// Sound end to end: `camcast run --audio …` into nginx-rtmp and an FLV file, judged by ffprobe
/// and ffmpeg (issue 17).
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct AudioStreamTests {
    static let streamKey = "aUdIo-kEy-1717"

    /// Runs camcast with `arguments` into a fresh nginx-rtmp and a local FLV file; returns both files.
    static func stream(_ arguments: [String], name: String, seconds: Int) throws -> (recording: URL, file: URL, log: String) {
        let server = try RTMPServer()
        let dir = try Project.scratchDirectory(name)
        let file = dir.appendingPathComponent("local.flv")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--duration", "\(seconds)", "--output", server.url(app: "rec", name: streamKey), "--output", file.path] + arguments,
            timeout: Double(seconds) * 2 + 60)
        try server.stop()  // nginx closes the recording
        guard result.status == 0 else { throw HarnessError("camcast failed: \(result.stderr)") }
        #expect(!result.stderr.contains(streamKey), "the stream key leaked into the log")
        return (server.recording(streamKey), file, result.stderr)
    }

    /// The tags of both tracks never go back in time, and audio comes only after the first video tag.
    static func checkTagOrder(_ file: URL) throws {
        let tags = try AudioProbe.mediaTagTimes(file)
        let backwards = zip(tags, tags.dropFirst()).filter { $0.timestamp > $1.timestamp }
        #expect(backwards.isEmpty, "\(file.lastPathComponent): \(backwards.count) tags go back in time, first \(backwards.first.map { "\($0.0) → \($0.1)" } ?? "")")
        #expect(tags.first?.type == .video, "\(file.lastPathComponent) starts with \(String(describing: tags.first?.type))")
        #expect(tags.contains { $0.type == .audio })
    }

    @Test func silentTrackAsLongAsTheVideoAndReallySilent() throws {
        let run = try Self.stream(
            ["--source", "testpattern", "--size", "640x360", "--fps", "30", "--bitrate", "800", "--audio", "silent"],
            name: "audio-silent", seconds: 6)
        #expect(run.log.contains("audio_frames="), "the stop summary counts audio: \(run.log)")
        // The start-up check opens no encoder of its own: the log says once what the encoder did.
        let encoderLines = run.log.split(separator: "\n").filter { $0.contains("audio encoder") }.map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") }
        #expect(encoderLines.count == 2 && encoderLines.first?.hasPrefix("audio encoder opened") == true
                && encoderLines.last?.hasPrefix("audio encoder flushed and closed") == true, "\(encoderLines)")
        for file in [run.recording, run.file] {
            let audio = try AudioProbe.stream("a", in: file)
            let video = try AudioProbe.stream("v", in: file)
            #expect(audio.codec == "aac" && audio.sampleRate == 48000 && audio.channels == 1, "\(file.lastPathComponent): \(audio)")
            let audioLength = audio.endMilliseconds - audio.startMilliseconds
            let videoLength = video.endMilliseconds - video.startMilliseconds
            // The sound starts with the first picture within one AAC frame (22 ms rounded up): held
            // from before it, or led in with silence when the source started after it (AudioLeadIn),
            // however slow the start. It is cut a video frame (33 ms) after the last picture, the last
            // AAC frame reaching at most 22 ms past that: the lengths differ by at most 33 + 22 + 22.
            #expect(abs(audioLength - videoLength) <= 77, "\(file.lastPathComponent): audio \(audioLength) ms, video \(videoLength) ms")
            #expect(abs(audio.startMilliseconds - video.startMilliseconds) <= 22, "audio \(audio), video \(video)")
            try Self.checkTagOrder(file)
            #expect(try AudioProbe.decodeErrors(file) == "", "\(file.lastPathComponent) does not decode cleanly")
            let pcm = try AudioProbe.pcm(file)
            #expect(pcm.count > 48000 * 5, "\(file.lastPathComponent): \(pcm.count) samples")
            #expect(pcm.allSatisfy { $0 == 0 }, "\(file.lastPathComponent): silence is not silent, peak \(pcm.map(abs).max() ?? 0)")
        }
    }

    /// A 1 kHz sine of 0.51 s: 510 whole cycles, so the file loops without a seam of its own, but
    /// 23.9 AAC frames, so every loop lands mid-frame. A gap, a repeated or a lost stretch at the
    /// seam shows as a 1024-sample window whose energy is no longer all at 1 kHz.
    static func tone(in dir: URL, cycles: Double = 510) throws -> URL {
        let wav = dir.appendingPathComponent("tone.wav")
        let seconds = cycles / 1000
        _ = try FFmpegTools.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*1000*t):s=48000:d=\(seconds)",
            "-ac", "1", "-c:a", "pcm_s16le", wav.path,
        ])
        return wav
    }

    /// Per window of one AAC frame: the share of its power at 1 kHz (1 for a clean sine) and its RMS.
    static func windows(_ pcm: [Double]) -> [(share: Double, rms: Double)] {
        stride(from: 0, to: pcm.count - 1024, by: 1024).map { start in
            let window = Array(pcm[start..<start + 1024])
            let meanSquare = Goertzel.meanSquare(window)
            let share = meanSquare > 0 ? 2 * Goertzel.power(of: window, at: 1000, sampleRate: 48000) / meanSquare : 0
            return (share, meanSquare.squareRoot())
        }
    }

    @Test func loopedToneArrivesAt1kHzWithoutGapsOrClicks() throws {
        let dir = try Project.scratchDirectory("audio-tone")
        let wav = try Self.tone(in: dir)
        let run = try Self.stream(
            ["--source", "testpattern", "--size", "320x180", "--fps", "30", "--bitrate", "500", "--audio", wav.path],
            name: "audio-tone-run", seconds: 6)
        for file in [run.recording, run.file] {
            #expect(try AudioProbe.stream("a", in: file).codec == "aac")
            try Self.checkTagOrder(file)
            let pcm = try AudioProbe.pcm(file)
            // Leave out the decoder's first frames and the last, cut-off one.
            let windows = Self.windows(pcm).dropFirst(3).dropLast(2)
            #expect(windows.count > 250, "\(file.lastPathComponent): \(windows.count) windows of audio")
            let whole = Array(pcm.dropFirst(4096))
            let share = 2 * Goertzel.power(of: whole, at: 1000, sampleRate: 48000) / Goertzel.meanSquare(whole)
            #expect(share > 0.95, "\(file.lastPathComponent): only \(share) of the power at 1 kHz")
            let rms = windows.map(\.rms).sorted()[windows.count / 2]
            #expect(rms > 0.3, "\(file.lastPathComponent): median RMS \(rms) for a 0.5 sine")
            let gaps = windows.enumerated().filter { $0.element.rms < rms / 2 }
            #expect(gaps.isEmpty, "\(file.lastPathComponent): quiet windows (gaps) at \(gaps.map { ($0.offset + 3) * 1024 / 48 }) ms")
            let clicks = windows.enumerated().filter { $0.element.share < 0.9 }
            #expect(clicks.isEmpty, "\(file.lastPathComponent): windows not a clean 1 kHz (clicks) at \(clicks.map { "\(($0.offset + 3) * 1024 / 48) ms: \($0.element.share)" })")
        }
    }

    /// A bad --audio is a configuration error naming the key (exit 78), and nothing starts.
    @Test(arguments: [
        ("/nonexistent/music.wav", "audio.file: /nonexistent/music.wav: no such file"),
        ("alsa:", "audio.device: has no value"),
        (Project.root.appendingPathComponent("README.md").path, "is not a WAV file"),
    ])
    func badAudioIsAConfigError(audio: String, message: String) throws {
        let dir = try Project.scratchDirectory("audio-bad")
        let file = dir.appendingPathComponent("out.flv")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path, ["run", "--audio", audio, "--duration", "1", "--output", file.path], timeout: 30)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path), "no output was started")
    }
}
