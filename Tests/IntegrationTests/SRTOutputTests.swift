import Foundation
import TestSupport
import Testing

/// `url: srt://…` end to end: the real camcast binary as an SRT caller, and two real SRT listeners
/// nobody here wrote, Haivision's `srt-live-transmit` (srt-tools) and Debian's ffmpeg (built with
/// libsrt), each writing what it received to a file that ffprobe and `ffmpeg -xerror` judge.
@Suite(.serialized)
struct SRTOutputTests {
    static let srtLiveTransmit = "/usr/bin/srt-live-transmit"

    /// srt-live-transmit listening on 127.0.0.1:`port` (`query` adds its options), writing what it
    /// receives to `file`; `-a:no`: it exits when the connection ends, after writing everything.
    static func listener(port: UInt16, file: URL, query: String = "") throws -> RunningProcess {
        let uri = "srt://127.0.0.1:\(port)?mode=listener\(query)"
        let process = try ProcessRunner.start(
            "/bin/sh", ["-c", "exec \"$0\" -a:no -q \"$1\" file://con > \"$2\"", srtLiveTransmit, uri, file.path])
        try waitUntilBound(port: port, by: process)
        return process
    }

    /// Until the listener's UDP port is bound (ss), so camcast's first attempt finds it. A harness
    /// limit (10 s), not a measured bound.
    static func waitUntilBound(port: UInt16, by process: RunningProcess) throws {
        for _ in 0..<500 {
            let sockets = try ProcessRunner.run("/usr/bin/env", ["ss", "-Hulnp", "sport = :\(port)"])
            if sockets.stdout.contains(":\(port) ") { return }
            if process.hasExited { throw HarnessError("the listener exited: \(process.stderrSoFar)") }
            usleep(20_000)
        }
        throw HarnessError("nothing bound udp port \(port)")
    }

    static func config(in dir: URL, port: UInt16, codec: String = "h264", extra: String = "", network: String = "") throws -> URL {
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            source:
              type: testpattern
              size: 640x360
            encoder:
              codec: \(codec)
              bitrate_kbps: 800
              keyframe_interval_seconds: 1
            outputs:
              - url: srt://127.0.0.1:\(port)
            \(extra)
            \(network)
            """.write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    /// `environment`: `NAME=value` assignments for camcast alone (through env(1)).
    static func run(_ config: URL, seconds: Int, environment: [String] = []) throws -> ProcessResult {
        try ProcessRunner.run(
            "/usr/bin/env", environment + [Project.camcastBinary.path, "run", "--config", config.path, "--duration", "\(seconds)"], timeout: 120)
    }

    /// Whether the file's first TS packets, before any media (libavformat's elementary streams
    /// are PIDs 0x100…), hold the PAT (PID 0) and the PMT (libavformat's 0x1000): a receiver
    /// can read the file from its start. libavformat writes the SDT (0x11) ahead of them.
    static func startsWithTables(_ file: URL) throws -> Bool {
        let head = try FileHandle(forReadingFrom: file).readData(ofLength: 188 * 16)
        var tables: Set<Int> = []
        for start in stride(from: 0, to: head.count - 187, by: 188) {
            guard head[start] == 0x47 else { return false }
            let pid = Int(head[start + 1] & 0x1F) << 8 | Int(head[start + 2])
            if (0x100..<0x1000).contains(pid) { break }
            tables.insert(pid)
        }
        return tables.contains(0) && tables.contains(0x1000)
    }

    /// srt-live-transmit (`-a:no`) ended because the stream did: exit 0, or 255 with libsrt's
    /// "Connection was broken" from its read. Its loop checks the socket's state and then reads
    /// (apps/srt-live-transmit.cpp); camcast's close landing between the two makes the read fail
    /// instead of the state say "disconnected" — 2 runs in 5 here, on 1878e2f too. Whether the
    /// close lost anything is `expectWhole`'s to judge: every encoded picture in the recording.
    static func endedWithTheStream(_ received: ProcessResult) -> Bool {
        received.status == 0 || received.status == 255 && received.stderr.contains("recvmsg: Connection was broken")
    }

    /// What every recording of a whole run must show: PAT and PMT first, a keyframe first, `codec` and AAC,
    /// a clean decode, and every picture camcast encoded (its stop summary's `frames=`).
    static func expectWhole(_ file: URL, codec: String, log: String) throws {
        #expect(try startsWithTables(file), "the recording must start with the PAT and PMT")
        let video = try ProbedVideo.probe(file)
        #expect(video.codec == codec)
        #expect(video.packets.first?.isKeyframe == true, "the first picture must be a keyframe")
        let streams = try FFmpegTools.result("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", file.path])
        #expect(streams.stdout.split(separator: "\n").contains("aac"), "streams: \(streams.stdout)")
        #expect(try ProbedVideo.decodeErrors(file).isEmpty)
        let encoded = try #require(CamcastLog.stopCount("frames", in: log), "no stop summary: \(log)")
        let ended = log.split(separator: "\n").last { $0.contains("SRT output ended") }.map(String.init) ?? "no end line"
        #expect(encoded > 0 && video.decodedFrames == encoded, "decoded \(video.decodedFrames) of \(encoded) encoded; \(ended)")
    }

    @Test func h264AndAACReachSRTLiveTransmitWhole() throws {
        let dir = try Project.scratchDirectory("srt-h264")
        let port = try freeLoopbackUDPPort()
        let recording = dir.appendingPathComponent("rec.ts")
        let listener = try Self.listener(port: port, file: recording)
        defer { listener.stop() }
        let run = try Self.run(try Self.config(in: dir, port: port), seconds: 4)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("SRT connected"), "\(run.stderr)")
        let received = try listener.wait(timeout: 30)
        #expect(Self.endedWithTheStream(received), "srt-live-transmit: \(received.status) \(received.stderr)")
        try Self.expectWhole(recording, codec: "h264", log: run.stderr)
    }

    @Test func h265AndAACReachFFmpegAsListenerWhole() throws {
        let dir = try Project.scratchDirectory("srt-h265")
        let port = try freeLoopbackUDPPort()
        let recording = dir.appendingPathComponent("rec.ts")
        let ffmpeg = try ProcessRunner.start(
            try FFmpegTools.path(of: "ffmpeg"),
            ["-nostdin", "-v", "error", "-i", "srt://127.0.0.1:\(port)?mode=listener", "-c", "copy", "-f", "mpegts", "-y", recording.path])
        defer { ffmpeg.stop() }
        try Self.waitUntilBound(port: port, by: ffmpeg)
        let run = try Self.run(try Self.config(in: dir, port: port, codec: "h265"), seconds: 4)
        #expect(run.status == 0, "\(run.stderr)")
        let received = try ffmpeg.wait(timeout: 30)
        #expect(received.status == 0, "ffmpeg: \(received.stderr)")
        try Self.expectWhole(recording, codec: "hevc", log: run.stderr)
    }

    static let passphrase = "correct-horse-battery"
    static let streamSecret = "cam1-s3cret"

    static func passphraseFile(in dir: URL, _ text: String, mode: Int = 0o600) throws -> URL {
        let file = dir.appendingPathComponent("srt-\(text.count)-\(mode).pass")
        try (text + "\n").write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        return file
    }

    @Test(arguments: [16, 24, 32])
    func aPassphraseOnBothSidesStreams(keyLength: Int) throws {
        let dir = try Project.scratchDirectory("srt-aes-\(keyLength)")
        let port = try freeLoopbackUDPPort()
        let recording = dir.appendingPathComponent("rec.ts")
        let listener = try Self.listener(port: port, file: recording, query: "&passphrase=\(Self.passphrase)&pbkeylen=\(keyLength)")
        defer { listener.stop() }
        let file = try Self.passphraseFile(in: dir, Self.passphrase)
        let extra = "    passphrase_file: \(file.path)\n    pbkeylen: \(keyLength)\n    streamid: publish:\(Self.streamSecret)"
        let run = try Self.run(try Self.config(in: dir, port: port, extra: extra), seconds: 3)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("AES-\(keyLength * 8)"), "\(run.stderr)")
        #expect(!run.stderr.contains(Self.passphrase) && !run.stderr.contains(Self.streamSecret) && run.stderr.contains("publish:****"))
        _ = try listener.wait(timeout: 30)
        try Self.expectWhole(recording, codec: "h264", log: run.stderr)
    }

    /// The passphrase from the environment (`passphrase_env`), as a systemd EnvironmentFile sets
    /// it beside the stream key: the variable is no unknown setting though it starts with
    /// CAMCAST_, the stream is encrypted and whole, and the value shows nowhere.
    @Test func aPassphraseFromTheEnvironmentStreams() throws {
        let dir = try Project.scratchDirectory("srt-aes-env")
        let port = try freeLoopbackUDPPort()
        let recording = dir.appendingPathComponent("rec.ts")
        let listener = try Self.listener(port: port, file: recording, query: "&passphrase=\(Self.passphrase)&pbkeylen=24")
        defer { listener.stop() }
        let config = try Self.config(in: dir, port: port, extra: "    passphrase_env: CAMCAST_SRT_PASSPHRASE\n    pbkeylen: 24")
        let run = try Self.run(config, seconds: 3, environment: ["CAMCAST_SRT_PASSPHRASE=\(Self.passphrase)"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("AES-192"), "\(run.stderr)")
        #expect(!run.stderr.contains(Self.passphrase) && !run.stdout.contains(Self.passphrase))
        _ = try listener.wait(timeout: 30)
        try Self.expectWhole(recording, codec: "h264", log: run.stderr)
    }

    /// A wrong passphrase: the listener refuses each handshake; camcast says so in words (naming
    /// the passphrase file, never the passphrase) and tries again on the RTMP output's schedule.
    @Test func aWrongPassphraseIsRefusedInWordsAndRetried() throws {
        let dir = try Project.scratchDirectory("srt-wrong-pass")
        let port = try freeLoopbackUDPPort()
        let listener = try Self.listener(port: port, file: dir.appendingPathComponent("rec.ts"), query: "&passphrase=\(Self.passphrase)")
        defer { listener.stop() }
        let wrong = "wrong-horse-battery"
        let file = try Self.passphraseFile(in: dir, wrong)
        let run = try Self.run(try Self.config(in: dir, port: port, extra: "    passphrase_file: \(file.path)"), seconds: 5)
        let refusals = run.stderr.split(separator: "\n").map(String.init).filter { $0.contains("SRT connect failed") }
        // The policy's first waits are at most 1 s and 1.7 s: 5 s of media see at least two attempts.
        #expect(refusals.count >= 2, "\(run.stderr)")
        for line in refusals {
            #expect(line.contains("the listener refused the passphrase (passphrase_file)"), "\(line)")
        }
        #expect(!run.stderr.contains(wrong) && !run.stderr.contains(Self.passphrase) && !run.stdout.contains(wrong))
        // Each retry waited what the schedule said: the next attempt's line is no sooner than
        // retry_in after the line that announced it (the schedule's own figure, not a tuned one).
        for (line, next) in zip(refusals, refusals.dropFirst()) {
            let wait = try #require(CamcastLog.value("retry_in", in: line).flatMap { Double($0.dropLast()) })
            let gap = try #require(CamcastLog.time(of: next)).timeIntervalSince(try #require(CamcastLog.time(of: line)))
            #expect(gap >= wait - 0.01, "retried after \(gap) s, announced \(wait) s")
        }
    }

    /// The listener killed (SIGKILL) and started again, three times: each time camcast notices the
    /// loss (SRT's peer idle timeout, `network.send_timeout_seconds`), and its first retry, after one
    /// cheap wait of the schedule, publishes to the listener already back; each new recording
    /// starts with the PAT, the PMT and a keyframe, and the last decodes whole.
    @Test func aRestartedListenerIsPublishedToAgain() throws {
        let dir = try Project.scratchDirectory("srt-restart")
        let port = try freeLoopbackUDPPort()
        let restarts = 5  // issue 42's five
        var recordings = [dir.appendingPathComponent("rec-0.ts")]
        var listener = try Self.listener(port: port, file: recordings[0])
        defer { listener.stop() }
        let config = try Self.config(in: dir, port: port, network: "network:\n  send_timeout_seconds: 2")
        let camcast = try ProcessRunner.start(Project.camcastBinary.path, ["run", "--config", config.path, "--duration", "120"])
        defer { camcast.stop() }
        try #require(camcast.waitForLog("SRT connected", timeout: 60), "\(camcast.stderrSoFar)")
        for restart in 1...restarts {
            // Some of the stream reached this listener before it goes.
            let current = recordings[restart - 1]
            for _ in 0..<500 where ((try? FileManager.default.attributesOfItem(atPath: current.path)[.size] as? Int) ?? 0) < 188 * 7 * 10 {
                usleep(20_000)
            }
            listener.signal(SIGKILL)
            _ = try listener.wait(timeout: 10)
            recordings.append(dir.appendingPathComponent("rec-\(restart).ts"))
            listener = try Self.listener(port: port, file: recordings[restart])
            try #require(camcast.waitForLog("SRT reconnected", count: restart, timeout: 60), "\(camcast.stderrSoFar)")
        }
        // Let the last listener get a few keyframes, then stop camcast as an operator would.
        usleep(1_500_000)
        camcast.signal(SIGINT)
        let ended = try camcast.wait(timeout: 60)
        #expect(ended.status == 0, "\(ended.stderr)")
        _ = try listener.wait(timeout: 30)

        let lines = ended.stderr.split(separator: "\n").map(String.init).filter { $0.contains("SRT ") }
        #expect(lines.filter { $0.contains("SRT connection lost") }.count == restarts, "\(lines)")
        #expect(lines.filter { $0.contains("SRT reconnected") }.count == restarts, "\(lines)")
        // Published again on the first retry after each loss (the listener was back before the loss
        // was noticed), after a wait the cheap class of the schedule bounds (ReconnectSchedule:
        // at most 2 s): no failed attempt in between.
        #expect(!lines.contains { $0.contains("SRT connect failed") }, "\(lines)")
        for line in lines where line.contains("SRT connection lost") {
            let wait = try #require(CamcastLog.value("retry_in", in: line).flatMap { Double($0.dropLast()) })
            #expect(wait <= 2.0, "\(line)")
        }
        // From each loss noticed to the publish on the new listener: the wait above and a
        // handshake on loopback (printed; the first-retry check above is the bound).
        let lost = lines.filter { $0.contains("SRT connection lost") }.compactMap(CamcastLog.time(of:))
        let back = lines.filter { $0.contains("SRT reconnected") }.compactMap(CamcastLog.time(of:))
        print("srt restarts: published again \(zip(lost, back).map { String(format: "%.2f", $1.timeIntervalSince($0)) }.joined(separator: ", ")) s after each loss was noticed")
        for recording in recordings {
            #expect(try Self.startsWithTables(recording), "\(recording.lastPathComponent) must start with the PAT and PMT")
            #expect(try ProbedVideo.packets(recording).first?.isKeyframe == true, "\(recording.lastPathComponent) must start at a keyframe")
        }
        let last = try #require(recordings.last)
        #expect(try ProbedVideo.decodeErrors(last).isEmpty)
        let sent = try #require(lines.last { $0.contains("SRT output ended") }.flatMap { CamcastLog.value("sent", in: $0) }.flatMap { Int($0) })
        #expect(sent > 0)
    }

    /// Problems only the run can see (the passphrase file) exit 78 from `run` and `check-config`
    /// alike, with the key and the reason, and never the passphrase.
    @Test func passphraseFileProblemsExit78FromRunAndCheckConfig() throws {
        let dir = try Project.scratchDirectory("srt-pass-file")
        let port = try freeLoopbackUDPPort()
        let cases: [(URL, String)] = [
            (try Self.passphraseFile(in: dir, "short-pw"), "holds a passphrase of 8 characters; SRT needs 10…79"),
            (try Self.passphraseFile(in: dir, String(repeating: "p", count: 80)), "holds a passphrase of 80 characters"),
            (try Self.passphraseFile(in: dir, Self.passphrase, mode: 0o644), "is readable by others (mode 644); chmod 600 it"),
            (dir.appendingPathComponent("missing.pass"), "No such file or directory"),
        ]
        for (file, message) in cases {
            let config = try Self.config(in: dir, port: port, extra: "    passphrase_file: \(file.path)")
            for arguments in [["run", "--config", config.path, "--duration", "1"], ["check-config", config.path]] {
                let result = try ProcessRunner.run(Project.camcastBinary.path, arguments, timeout: 60)
                #expect(result.status == 78, "\(arguments[0]): \(result.stderr)")
                #expect(result.stderr.contains("outputs[0]: passphrase_file: \(file.path)") && result.stderr.contains(message), "\(result.stderr)")
                #expect(!result.stderr.contains(Self.passphrase))
            }
        }
        // The same from the environment: unset, empty, too short; the variable named, never its value.
        let fromEnvironment: [([String], String)] = [
            ([], "passphrase_env: $SRT_PASS is not set"),
            (["SRT_PASS="], "passphrase_env: $SRT_PASS is not set"),
            (["SRT_PASS=short-pw"], "passphrase_env: $SRT_PASS holds a passphrase of 8 characters; SRT needs 10…79"),
        ]
        let config = try Self.config(in: dir, port: port, extra: "    passphrase_env: SRT_PASS")
        for (environment, message) in fromEnvironment {
            for arguments in [["run", "--config", config.path, "--duration", "1"], ["check-config", config.path]] {
                let result = try ProcessRunner.run("/usr/bin/env", environment + [Project.camcastBinary.path] + arguments, timeout: 60)
                #expect(result.status == 78, "\(arguments[0]) \(environment): \(result.stderr)")
                #expect(result.stderr.contains("outputs[0]: \(message)"), "\(arguments[0]) \(environment): \(result.stderr)")
                #expect(!result.stderr.contains("short-pw"))
            }
        }
        // And a bad address on the command line, from `run --output`.
        let bad = try ProcessRunner.run(Project.camcastBinary.path, ["run", "--source", "testpattern", "--output", "srt://127.0.0.1", "--duration", "1"])
        #expect(bad.status == 78 && bad.stderr.contains("outputs[0].url: `srt://127.0.0.1` has no port"), "\(bad.stderr)")
    }
}
