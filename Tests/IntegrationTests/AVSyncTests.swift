import Foundation
import TestSupport
import Testing

/// Lip sync at the far end (issue 17): a clip whose picture flashes and whose sound beeps at the
/// same instants, played by camcast's file sources (a y4m clip and a WAV file, both looped, both
/// paced on CLOCK_MONOTONIC), published to nginx-rtmp; the flashes and beeps found in the
/// recording by ffmpeg must lie within 20 ms of each other at the start and at the end.
///
/// Why file sources: they are real sources of the daemon (the same pacing, timestamps, encoders,
/// interleaver and outputs as a camera and a microphone), and ffmpeg makes the pair exactly
/// aligned, so any offset measured is Camcast's. What it does not cover: drift between a real
/// sound card's clock and CLOCK_MONOTONIC (an ALSA device), and the moment each source starts is
/// its own — a skew between the two starts shows up here as an offset, which is part of what is
/// measured. The default run is 7 s; `CAMCAST_TEST_AV_SYNC_SECONDS=600` runs the ten real
/// minutes (both sources are paced in real time; neither has a faster-than-real-time mode that
/// keeps the two in step). Seen on 24 Nov (loaded 2-core machine): 10 minutes, 299 flashes, every
/// beep within 0.7 ms of its flash but one flash whose first frame the source skipped (−33 ms).
/// Also seen: under a starved CPU (a release build beside it) the WAV source stalled over 1 s and,
/// by design of its clock, restarted its time line without skipping content, which moved every
/// later beep 1.1 s after its flash — a file-pair artefact a real microphone does not have.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct AVSyncTests {
    static let streamKey = "sYnC-kEy-2020"

    static var seconds: Int {
        ProcessInfo.processInfo.environment["CAMCAST_TEST_AV_SYNC_SECONDS"].flatMap(Int.init) ?? 7
    }

    /// Two seconds each: frames 15…17 (0.5–0.6 s) white, the rest black; a 1 kHz beep from
    /// sample 24000 (0.5 s) to 28800 (0.6 s), silence elsewhere.
    static func clips(in dir: URL) throws -> (video: URL, audio: URL) {
        let video = dir.appendingPathComponent("flash.y4m")
        let audio = dir.appendingPathComponent("beep.wav")
        _ = try FFmpegTools.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi",
            "-i", "color=c=black:s=160x120:r=30:d=2,format=yuv420p,geq=lum='if(between(N,15,17),235,16)':cb=128:cr=128",
            "-pix_fmt", "yuv420p", video.path,
        ])
        _ = try FFmpegTools.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi",
            "-i", "aevalsrc='if(between(t,0.5,0.6-1/48000),0.5*sin(2*PI*1000*(t-0.5)),0)':s=48000:d=2",
            "-ac", "1", "-c:a", "pcm_s16le", audio.path,
        ])
        return (video, audio)
    }

    @Test func flashesAndBeepsArriveWithin20Milliseconds() throws {
        let dir = try Project.scratchDirectory("av-sync")
        let clips = try Self.clips(in: dir)
        let server = try RTMPServer()
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", clips.video.path, "--audio", clips.audio.path, "--bitrate", "300",
             "--duration", "\(Self.seconds)", "--output", server.url(app: "rec", name: Self.streamKey)],
            timeout: Double(Self.seconds) * 2 + 60)
        try server.stop()
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        let recording = server.recording(Self.streamKey)

        let flashes = AudioProbe.onsets(try AudioProbe.brightness(recording).map { ($0.milliseconds, $0.luma) }, threshold: 128, quiet: 500)
        let beeps = AudioProbe.onsets(try AudioProbe.loudness(recording).map { ($0.milliseconds, $0.rmsDecibels) }, threshold: -20, quiet: 500)
        let expected = (Self.seconds * 1000 - 600) / 2000 + 1  // one every 2 s from 0.5 s
        #expect(flashes.count >= expected - 1, "flashes at \(flashes)")
        #expect(beeps.count >= expected - 1, "beeps at \(beeps)")
        let offsets = flashes.compactMap { flash -> Double? in
            guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }), abs(beep - flash) < 500 else { return nil }
            return beep - flash
        }
        #expect(offsets.count == flashes.count, "a flash without its beep: flashes \(flashes), beeps \(beeps)")
        // At the start and at the end, the median of three flashes: a real-time source on a loaded
        // machine may skip a slot, and a skipped first flash frame shows the flash one frame
        // (33 ms) late with its sound on time. Any single flash is within 20 ms plus that frame.
        func median(_ values: ArraySlice<Double>) -> Double { values.sorted()[values.count / 2] }
        try #require(offsets.count >= 3)
        let first = median(offsets.prefix(3))
        let last = median(offsets.suffix(3))
        #expect(abs(first) < 20, "offset at the start \(first) ms (beep − flash); all: \(offsets)")
        #expect(abs(last) < 20, "offset after \(Self.seconds) s \(last) ms (beep − flash); all: \(offsets)")
        #expect(offsets.allSatisfy { abs($0) < 20 + 34 }, "all: \(offsets)")
        print("A/V offsets (beep − flash, ms) over \(Self.seconds) s: first \(first), last \(last), range \(offsets.min()!)…\(offsets.max()!)")
    }
}
