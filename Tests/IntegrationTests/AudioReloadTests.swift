import Foundation
import TestSupport
import Testing

/// A reload (SIGHUP) that changes `audio:` restarts the audio source on its own, like the video
/// source: silence before, the WAV's 1 kHz tone after, one file, the video never interrupted.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct AudioReloadTests {
    @Test func aReloadSwitchesSilenceForAToneWithoutStoppingTheVideo() throws {
        let dir = try Project.scratchDirectory("audio-reload")
        let wav = try AudioStreamTests.tone(in: dir)
        let output = dir.appendingPathComponent("out.flv")
        let config = dir.appendingPathComponent("camcast.yaml")
        let head = "source:\n  size: 320x180\n  fps: 30\noutputs:\n  - path: \(output.path)\n"
        try (head + "audio:\n  source: silent\n").write(to: config, atomically: true, encoding: .utf8)
        let process = try Daemon.start(["run", "--config", config.path, "--duration", "8"])
        #expect(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")
        usleep(3_000_000)

        try (head + "audio:\n  source: file\n  file: \(wav.path)\n").write(to: config, atomically: true, encoding: .utf8)
        process.signal(SIGHUP)
        #expect(Daemon.waitForLog(process, "reload applied: audio silent", timeout: 10), "\(process.stderrSoFar)")

        let result = try process.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try AudioProbe.decodeErrors(output) == "")
        let video = try ProbedVideo.probe(output)
        #expect((234...240).contains(video.decodedFrames), "\(video.decodedFrames) frames: the video went on through the reload")
        let pcm = try AudioProbe.pcm(output)
        // The first two seconds are silent; the last two carry the tone.
        let before = Array(pcm.prefix(2 * 48000))
        let after = Array(pcm.suffix(2 * 48000 + 4800).prefix(2 * 48000))
        #expect(before.allSatisfy { $0 == 0 }, "silence before the reload, peak \(before.map(abs).max() ?? 0)")
        let share = 2 * Goertzel.power(of: after, at: 1000, sampleRate: 48000) / max(Goertzel.meanSquare(after), 1e-12)
        #expect(share > 0.95 && Goertzel.meanSquare(after) > 0.05, "the tone after the reload: share \(share)")
    }
}
