import Foundation
import TestSupport
import Testing

/// A reload (SIGHUP) that changes `audio:` restarts the audio source on its own, like the video
/// source: silence before, the WAV's 1 kHz tone after, one file, the video never interrupted.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct AudioReloadTests {
    /// Runs camcast for `seconds` on `config + from`, reloads to `config + to` after `reloadAfter`
    /// seconds of streaming, waits for the `applied` log line and for the end of the run.
    static func runReloading(
        in dir: URL, config: String, from: String, to: String, seconds: Int, reloadAfter: UInt32, applied: String
    ) throws -> ProcessResult {
        let file = dir.appendingPathComponent("camcast.yaml")
        try (config + from).write(to: file, atomically: true, encoding: .utf8)
        let process = try Daemon.start(["run", "--config", file.path, "--duration", "\(seconds)"])
        #expect(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")
        usleep(reloadAfter * 1_000_000)
        try (config + to).write(to: file, atomically: true, encoding: .utf8)
        process.signal(SIGHUP)
        #expect(Daemon.waitForLog(process, applied, timeout: 10), "\(process.stderrSoFar)")
        return try process.wait(timeout: Double(seconds) + 30)
    }

    @Test func aReloadSwitchesSilenceForAToneWithoutStoppingTheVideo() throws {
        let dir = try Project.scratchDirectory("audio-reload")
        let wav = try AudioStreamTests.tone(in: dir)
        let output = dir.appendingPathComponent("out.flv")
        let result = try Self.runReloading(
            in: dir, config: "source:\n  size: 320x180\n  fps: 30\noutputs:\n  - path: \(output.path)\naudio:\n",
            from: "  source: silent\n", to: "  source: file\n  file: \(wav.path)\n", seconds: 8, reloadAfter: 3,
            applied: "reload applied: audio silent")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try AudioProbe.decodeErrors(output) == "")
        let video = try ProbedVideo.probe(output)
        // The video went on through the reload: every slot of the 8 s encoded (or skipped at the
        // source or dropped at the encoder's full queue, as many as a loaded machine's speed
        // makes), and every encoded picture in the file.
        let encoded = try #require(CamcastLog.stopCount("frames", in: result.stderr), "no stop summary\n\(result.stderr)")
        let unencoded = try #require(CamcastLog.unencodedSlots(in: result.stderr))
        #expect(video.decodedFrames == encoded, "\(video.decodedFrames) frames decoded, \(encoded) encoded")
        #expect(abs(encoded + unencoded - 240) <= 2, "\(encoded) encoded + \(unencoded) skipped or dropped at the encoder in 8 s at 30 fps: the video went on through the reload")
        let pcm = try AudioProbe.pcm(output)
        // The first two seconds are silent; the last two carry the tone.
        let before = Array(pcm.prefix(2 * 48000))
        let after = Array(pcm.suffix(2 * 48000 + 4800).prefix(2 * 48000))
        #expect(before.allSatisfy { $0 == 0 }, "silence before the reload, peak \(before.map(abs).max() ?? 0)")
        let share = 2 * Goertzel.power(of: after, at: 1000, sampleRate: 48000) / max(Goertzel.meanSquare(after), 1e-12)
        #expect(share > 0.95 && Goertzel.meanSquare(after) > 0.05, "the tone after the reload: share \(share)")
    }

    /// A reload from 48 kHz to 8 kHz: an AAC frame then lasts 128 ms, so the encoder hands out the
    /// sound of an instant 384 ms after it, not 64. Pictures must not wait in the interleaver for
    /// it (the presentation delay grows to three of the new frames at a keyframe), and nginx-rtmp's
    /// recording must show rising timestamps in both tracks, the sound at its new rate to the end;
    /// MP4 segments (`record:`) start a new one for the new format.
    @Test func aReloadToALowerSampleRateKeepsThePicturesFlowing() throws {
        let server = try RTMPServer()
        let dir = try Project.scratchDirectory("audio-rate-reload")
        let segmentsFolder = dir.appendingPathComponent("rec")
        let key = "rAtE-kEy-8000"
        let outputs = "  - url: \(server.url(app: "rec", name: key))\n  - record: \(segmentsFolder.path)\n"
        // Beside it, the same stream with no reload: the latency this machine gives now, under
        // whatever load it has, to judge the reloaded run's by.
        let baselineConfig = dir.appendingPathComponent("baseline.yaml")
        try "source:\n  size: 320x180\n  fps: 30\noutputs:\n  - url: \(server.url(app: "rec", name: "baseline"))\naudio:\n  source: silent\n"
            .write(to: baselineConfig, atomically: true, encoding: .utf8)
        let baseline = try Daemon.start(["run", "--config", baselineConfig.path, "--duration", "9"])
        let result = try Self.runReloading(
            in: dir, config: "source:\n  size: 320x180\n  fps: 30\noutputs:\n\(outputs)audio:\n  source: silent\n",
            from: "", to: "  sample_rate: 8000\n", seconds: 9, reloadAfter: 2, applied: "reload applied: audio silent (48000 Hz")
        let unreloaded = try baseline.wait(timeout: 40)
        try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(unreloaded.status == 0, "\(unreloaded.stderr)")
        #expect(!result.stderr.contains(key), "the stream key leaked into the log")

        // Capture → socket: most of the run is after the reload; a picture held for the 8 kHz
        // sound would be 190–320 ms later than the run beside it makes its pictures (150 ms: more
        // than two runs side by side differ, less than a held picture adds).
        let p50 = CamcastLog.value("latency_p50_ms", in: result.stderr).flatMap(Double.init)
        let baselineP50 = CamcastLog.value("latency_p50_ms", in: unreloaded.stderr).flatMap(Double.init)
        print("AudioReloadTests: capture → socket p50 \(p50.map { "\($0)" } ?? "missing") ms reloaded, \(baselineP50.map { "\($0)" } ?? "missing") ms beside it")
        // Spelled out: as one expression, this took the type checker 8 s of the debug build.
        let reloadedP50: Double = p50 ?? .infinity
        let limit: Double = (baselineP50 ?? -.infinity) + 150
        let reloadedText: String = p50.map { "\($0)" } ?? "missing"
        let baselineText: String = baselineP50.map { "\($0)" } ?? "missing"
        #expect(reloadedP50 < limit, "capture → socket p50 \(reloadedText) ms, \(baselineText) ms without a reload: pictures wait for the sound")
        #expect(CamcastLog.value("audio_late", in: result.stderr) == "0", "audio moved up behind the pictures: \(result.stderr)")

        let recording = server.recording(key)
        #expect(try AudioProbe.decodeErrors(recording) == "", "the recording does not decode cleanly")
        let packets = try RecordedPackets(recording)
        for track in [packets.video, packets.audio] {
            let backwards = zip(track, track.dropFirst()).filter { $0.dts >= $1.dts }
            #expect(backwards.isEmpty, "decode times not rising: \(backwards.prefix(3))")
        }
        // The pictures' composition offset: three AAC frames at 48 kHz, then, from a keyframe on,
        // three at 8 kHz; never back.
        let offsets = packets.video.map { $0.pts - $0.dts }
        let change = offsets.firstIndex(of: 384)
        #expect(offsets.first == 64 && change.map { offsets[..<$0].allSatisfy { $0 == 64 } } == true, "\(Set(offsets))")
        #expect(change.map { packets.video[$0].isKeyframe && offsets[$0...].allSatisfy { $0 == 384 } } == true, "\(Set(offsets))")
        // The sound after the reload at its new rate.
        let rates = try RecordedPackets.audioFrameRates(recording)
        #expect(rates.first == 48000 && rates.last == 8000 && rates.count > 30, "\(rates.count) audio frames, \(Set(rates))")
        // Both tracks to the end: the 8 kHz encoder's last three frames (384 ms) go out at its flush.
        let ends = (video: packets.video.last?.pts ?? 0, audio: (packets.audio.last?.pts ?? 0) + 128)
        #expect(abs(ends.video - ends.audio) <= 200, "the pictures end at \(ends.video) ms, the sound at \(ends.audio) ms")

        // Two segments (the default 600 s): the second begins at a keyframe after the reload, as
        // the old one's sound track cannot take 8 kHz frames (they were written into it, declared
        // 48 kHz). In each the sound decodes at one rate and lasts as long as its track says.
        let segments = RecordingProbe.segments(in: segmentsFolder)
        #expect(segments.count == 2, "\(segments.map(\.lastPathComponent))")
        for (segment, rate) in zip(segments, [48000, 8000]) {
            let decoded = try RecordedPackets.audioFrameRates(segment)
            let track = try FFmpegTools.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=duration", "-of", "csv=p=0", segment.path])
            let trackSeconds = Double(String(decoding: track, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            let heardSeconds = Double(decoded.count * 1024) / Double(rate)
            #expect(Set(decoded) == [rate] && abs(heardSeconds - trackSeconds) < 0.2, "\(segment.lastPathComponent): \(decoded.count) frames at \(Set(decoded)) Hz, \(heardSeconds) s heard, track \(trackSeconds) s")
            #expect(try AudioProbe.decodeErrors(segment) == "", "\(segment.lastPathComponent) does not decode cleanly")
        }
    }
}
