import Foundation
import TestSupport
import Testing

/// The camcast binary capturing sound from a real kernel driver: in the vivid VM, `snd-aloop`
/// loops what aplay plays into `hw:Loopback,0,0` to `hw:Loopback,1,0`, which camcast records
/// (`--audio alsa:hw:Loopback,1,0`) beside its test pattern into an FLV file. During the run the
/// player is killed, then the card is removed (its platform device unbound, as an unplugged USB
/// microphone's card goes) and brought back with a new player. ffprobe/ffmpeg judge the file.
/// The picture is small and slow (160x90 at 10 fps): the VM is emulated (TCG) on a shared
/// machine, and a video encoder starved of CPU would hold up the sound it is interleaved with.
@Suite(.serialized)
struct ALSAStreamVMTests {
    /// The limit of a run whose card never comes back: one that does ends 3 s after its return.
    static let seconds = 40

    @Test(.timeLimit(.minutes(6)))
    func toneFromALSAArrivesAndTheStreamOutlivesPlayerAndCard() throws {
        let dir = try Project.scratchDirectory("alsa-stream")
        let tone = dir.appendingPathComponent("tone.wav").path
        _ = try FFmpegTools.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=60", "-ac", "1", "-c:a", "pcm_s16le", tone,
        ])
        let flv = dir.appendingPathComponent("alsa.flv").path
        let log = dir.appendingPathComponent("camcast.log").path
        let status = dir.appendingPathComponent("camcast.status").path
        let playing = dir.appendingPathComponent("playing.time").path
        let card = "/sys/bus/platform/drivers/snd_aloop"
        // Times are seconds after camcast logs that it streams: tone 0–3, player killed at 3
        // (the loopback is silent), card removed at 4 (camcast sends silence and reopens every
        // second), card back at 6 with a new player (tone again), the run ended (SIGINT) 3 s after
        // camcast logs the card back and the new player runs (the guest's clock when the card's
        // playback turned RUNNING is written down). A starved guest (one host core) runs each
        // step late (an aplay took over a second to start): the windows judged below are placed
        // by camcast's own log and that time, not by these nominal times.
        let script = """
            modprobe snd-aloop || exit 99
            aplay -q -D hw:Loopback,0,0 '\(tone)' & player=$!
            sleep 0.3
            '\(Project.camcastBinary.path)' run --source testpattern --size 160x90 --fps 10 --bitrate 100 \
                --duration \(Self.seconds) --output '\(flv)' --audio alsa:hw:Loopback,1,0 2> '\(log)' &
            camcast=$!
            until grep -q ' streaming ' '\(log)' 2>/dev/null || ! kill -0 $camcast 2>/dev/null; do sleep 0.05; done
            sleep 3; kill -9 $player
            sleep 1; ( echo snd_aloop.0 > \(card)/unbind ) &
            sleep 2; echo snd_aloop.0 > \(card)/bind; sleep 0.2
            aplay -q -D hw:Loopback,0,0 '\(tone)' & player=$!
            until grep -q RUNNING /proc/asound/Loopback/pcm0p/sub0/status 2>/dev/null || ! kill -0 $player 2>/dev/null; do sleep 0.05; done
            date -u +%s.%N > '\(playing)'
            until grep -q 'audio device back' '\(log)' 2>/dev/null || ! kill -0 $camcast 2>/dev/null; do sleep 0.1; done
            sleep 3; kill -INT $camcast 2>/dev/null
            wait $camcast; echo $? > '\(status)'
            kill -9 $player 2>/dev/null
            exit 0
            """
        let vm: ProcessResult
        do {
            vm = try VividVM.run(script, settings: ["VIVID_TIMEOUT": "240", "VIVID_RW_DIRS": dir.path, "VIVID_NET": "0"], timeout: 300)
        } catch let unavailable as VividVM.Unavailable {
            Issue.record("camcast could not run in the VM: \(unavailable)")
            return
        }
        let transcript = VividVM.transcript(of: vm)
        let camcastLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let exit = (try? String(contentsOfFile: status, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(exit == "0", "camcast exit \(exit ?? "none")\n\(transcript)\n\(camcastLog)")
        // The source saw the card go and come back; the stream went on (camcast ran to its end).
        #expect(camcastLog.contains("audio device lost"), "\(camcastLog)")
        #expect(camcastLog.contains("audio device back"), "\(camcastLog)")

        let file = URL(fileURLWithPath: flv)
        #expect(try AudioProbe.decodeErrors(file).isEmpty)
        let audio = try AudioProbe.stream("a", in: file)
        let video = try AudioProbe.stream("v", in: file)
        #expect(audio.codec == "aac" && audio.sampleRate == 48_000 && audio.channels == 1, "\(audio)")
        // The sound spans the picture. It starts with it within one AAC frame (1024 samples, 22 ms
        // rounded up), however long the card took to deliver its first period in the VM: camcast
        // leads in with silence from the first picture (AudioLeadIn).
        #expect(abs(audio.startMilliseconds - video.startMilliseconds) <= 22, "audio \(audio), video \(video)\n\(camcastLog)")
        // It ends with it: cut one video frame (100 ms at 10 fps) after the last picture, the last
        // AAC frame reaching at most 22 ms past that, or, when the stop came right after that
        // picture, ending with the last 20 ms period the card delivered: 100 + 20 + 22 ms. A slot
        // the starved guest left unencoded at the end moves the last picture a frame earlier
        // while the sound runs on to the stop: one frame more for each slot the run's stop
        // summary counts unencoded, should they all have been the last (147 ms once, with every
        // test group running beside it).
        let unencoded = CamcastLog.unencodedSlots(in: camcastLog) ?? 0
        let endBound = 142 + 100 * unencoded
        #expect(abs(audio.endMilliseconds - video.endMilliseconds) <= endBound, "audio \(audio), video \(video), bound \(endBound) ms")

        // What a decoder nobody here wrote hears, by stream second (audio starts with the video).
        let pcm = try AudioProbe.pcm(file)
        func window(_ from: Double, _ to: Double) -> [Double] {
            Array(pcm[min(pcm.count, Int(from * 48_000))..<min(pcm.count, Int(to * 48_000))])
        }
        func isTone(_ samples: [Double]) -> Bool {
            samples.count > 24_000 && Goertzel.meanSquare(samples) > 0.003
                && Goertzel.power(of: samples, at: 1000, sampleRate: 48_000) > 0.4 * Goertzel.meanSquare(samples)
        }
        // Where the card went and came back, in stream seconds (the sound starts with the first
        // picture): the log's time of each line less the first frame's wall clock.
        let lost = try #require(Self.streamSeconds(of: "audio device lost", in: camcastLog), "\(camcastLog)")
        let back = try #require(Self.streamSeconds(of: "audio device back", in: camcastLog), "\(camcastLog)")
        #expect(back - lost >= 1, "the card was gone \(back - lost) s; the script kept it away 2 s")
        // The tone comes back once both the card is back and the new player plays.
        let played = try #require(
            (try? String(contentsOfFile: playing, encoding: .utf8)).flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) },
            "the new player never ran\n\(transcript)")
        let resumed = max(back, played - Self.firstFrameWallClock(in: camcastLog))
        let start = window(0.5, 2.5)
        let cardGone = window(lost + 0.3, back - 0.3)
        let end = window(resumed + 1.0, resumed + 2.7)
        #expect(isTone(start), "no tone at the start: mean square \(Goertzel.meanSquare(start))")
        #expect(Goertzel.meanSquare(cardGone) < 1e-6, "not silent while the card was gone: \(Goertzel.meanSquare(cardGone))")
        #expect(isTone(end), "no tone after the card came back: mean square \(Goertzel.meanSquare(end))")
    }

    /// Seconds from the first frame's capture (its `wall_clock_unix_ms`) to the log line
    /// containing `text` (its ISO 8601 time, milliseconds).
    static func streamSeconds(of text: String, in log: String) -> Double? {
        let lines = log.split(separator: "\n").map(String.init)
        guard let date = lines.first(where: { $0.contains(text) }).flatMap(CamcastLog.time(of:)), firstFrameWallClock(in: log).isFinite
        else { return nil }
        return date.timeIntervalSince1970 - firstFrameWallClock(in: log)
    }

    /// The first frame's capture instant on the guest's wall clock (s), from its log line (+∞ if missing).
    static func firstFrameWallClock(in log: String) -> Double {
        let first = log.split(separator: "\n").first { $0.contains("first frame captured") }
        return first.flatMap { CamcastLog.value("wall_clock_unix_ms", in: String($0)) }.flatMap(Double.init).map { $0 / 1000 } ?? .infinity
    }
}
