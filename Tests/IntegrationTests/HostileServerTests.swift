import Foundation
import TestSupport
import Testing

/// camcast against a malicious server (scripts/hostile-rtmp-server, on loopback): each attack of
/// issue 19 for 10 s, camcast retrying every 0.2 s, a local FLV output beside the RTMP one. No
/// attack may kill camcast, grow it past 200 MB, cost the FLV a frame, or put the key or an ESC
/// byte in its output. The attacks run at the same time, each against its own camcast, so the
/// whole test takes about 15 s.
@Suite struct HostileServerTests {
    static let key = "sEcReT-hOsTiLe-KeY-4711"
    static let seconds = 10.0
    /// 200 MB; under AddressSanitizer (the README's manual run) twice that for its redzones and
    /// shadow memory, plus its quarantine of freed blocks (ASAN_OPTIONS quarantine_size_mb, 256 by
    /// default), which holds freed memory resident on purpose: an unguarded attack still grows
    /// camcast by gigabytes, far past either.
    static let rssLimitKB: Int = {
        guard Project.camcastIsAddressSanitized else { return 200 * 1024 }
        let options = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] ?? ""
        let quarantine = options.split(separator: ":").first { $0.hasPrefix("quarantine_size_mb=") }
            .flatMap { Int($0.dropFirst("quarantine_size_mb=".count)) } ?? 256
        return (2 * 200 + quarantine) * 1024
    }()

    /// Each attack and what camcast must say it saw (the guard that stopped it), again and again:
    /// a 3 s connect timeout and 0.2 s between attempts (`check` judges the retrying).
    static let attacks: [(name: String, expected: String)] = [
        ("random-handshake", "RTMP protocol violation"),
        ("deep-result", "bytes exceeds the 65536-byte limit"),
        ("deep-onstatus", "bytes exceeds the 65536-byte limit"),
        ("deep-small", "AMF0 data nested deeper than 16"),
        ("wide-object", "bytes exceeds the 65536-byte limit"),
        ("wide-small", "AMF0 data has more than 1024 values"),
        ("chunk-streams", "server message of 16777215 bytes exceeds"),
        ("huge-length", "server message of 16777215 bytes exceeds"),
        ("chunk-size-zero", "server set an invalid chunk size 0"),
        ("chunk-size-max", "server message of 4000011 bytes exceeds"),
        ("control-characters", "NetStream.Publish.BadName\\x1b[2J****"),
        ("chatter", "RTMP connect timed out"),
    ]

    struct Run {
        let name: String
        let expected: String
        let directory: URL
        let server: RunningProcess
        let camcast: RunningProcess
        var peakKB = 0
        var killedForMemory = false
        /// When the test sent SIGTERM.
        var stoppedAt = Date.distantFuture
    }

    @Test(.timeLimit(.minutes(3)))
    func noAttackCrashesBloatsOrLeaksAndTheFLVKeepsEveryFrame() throws {
        let started = ProcessGroup()
        defer { started.stopAll() }
        var runs = try Self.startAll(Self.attacks, in: started)

        let end = Date().addingTimeInterval(Self.seconds)
        while Date() < end {
            for index in runs.indices {
                runs[index].peakKB = max(runs[index].peakKB, Self.peakRSS(of: runs[index].camcast.pid))
                // Against unguarded code an attack grows camcast by gigabytes: stop it early.
                if runs[index].peakKB > 1024 * 1024 && !runs[index].killedForMemory {
                    runs[index].killedForMemory = true
                    runs[index].camcast.signal(SIGKILL)
                }
            }
            usleep(100_000)
        }
        for index in runs.indices {
            runs[index].peakKB = max(runs[index].peakKB, Self.peakRSS(of: runs[index].camcast.pid))
            runs[index].stoppedAt = Date()
            runs[index].camcast.signal(SIGTERM)
        }
        for run in runs {
            let result = try run.camcast.wait(timeout: 30)
            run.server.stop()
            Self.check(run, result)
        }
    }

    static func check(_ run: Run, _ result: ProcessResult) {
        let name = run.name
        let output = result.stdoutData + Data(result.stderr.utf8)
        let text = result.stdout + result.stderr
        #expect(result.status == 0, "\(name): exit status \(result.status) (128+n is death by signal n): \(result.stderr.suffix(600))")
        #expect(!run.killedForMemory && run.peakKB < rssLimitKB, "\(name): peak RSS \(run.peakKB / 1024) MB")
        #expect(!text.contains(key) && !text.contains(String(key.prefix(7))), "\(name): the key, or part of it, was printed")
        #expect(!output.contains(0x1B), "\(name): an ESC byte reached the output")
        let failures = text.split(separator: "\n").filter { $0.contains("RTMP connect failed") }
        // It retried, and went on retrying to the stop: the time from its last failure to the
        // SIGTERM is no longer than the slower of one whole attempt (the 3 s connect timeout and
        // the 0.2 s delay) and twice the longest wait between two failures in this run. A count
        // stood here (5 attempts in 10 s), which 12 camcasts at once on a starved machine do not
        // make however well each retries; a camcast that stopped retrying fails this on any.
        let failedAt = failures.compactMap { CamcastLog.time(of: String($0)) }
        let longestGap = zip(failedAt, failedAt.dropFirst()).map { $1.timeIntervalSince($0) }.max() ?? 0
        let quietBeforeStop = failedAt.last.map { run.stoppedAt.timeIntervalSince($0) } ?? .infinity
        let allowedQuiet = max(3.2, 2 * longestGap)
        #expect(
            failures.count >= 2 && quietBeforeStop <= allowedQuiet,
            "\(name): \(failures.count) attempts in \(seconds) s, the last \(quietBeforeStop) s before the stop (allowed \(allowedQuiet) s)")
        #expect(failures.first?.contains(run.expected) == true, "\(name): expected \(run.expected) in \(failures.first ?? "no failure line")")

        let stopped = text.split(separator: "\n").last { $0.contains(" stopped ") }.map(String.init)
        let encoded = Int(stopped.flatMap { CamcastLog.value("frames", in: $0) } ?? "") ?? -1
        let flv = run.directory.appendingPathComponent("out.flv").path
        let probe = try? FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-count_packets",
            "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", flv,
        ])
        let recorded = Int(String(decoding: probe ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -2
        #expect(encoded > 100 && recorded == encoded, "\(name): encoded \(encoded) frames, the FLV holds \(recorded)")
    }

    /// Not an attack: a server that starts each chunk stream with a type-1 header (one with a
    /// type-3 header), with an extended timestamp and a chunk size change, as librtmp and FFmpeg
    /// read them. Camcast used to refuse it ("continued chunk stream 3 that it never started").
    @Test func aServerThatCompressesChunkHeadersTakesTheStream() throws {
        let started = ProcessGroup()
        defer { started.stopAll() }
        let run = try Self.start("compressed-headers", expected: "", in: started)
        let published = run.camcast.waitForLog("RTMP publishing", timeout: 20)
        usleep(2_000_000)
        run.camcast.signal(SIGTERM)
        let result = try run.camcast.wait(timeout: 30)
        #expect(published, "\(result.stderr)")
        #expect(!result.stderr.contains("RTMP connect failed"), "\(result.stderr)")
        #expect(!result.stderr.contains("protocol violation"), "\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.key))
    }

    /// The harness itself: a server that does not start (here an attack the script does not
    /// know, so it exits at once) must not leave the servers and daemons started before it
    /// running — they used to outlive the test run.
    @Test func aServerThatDoesNotStartLeavesNothingRunning() {
        let started = ProcessGroup()
        defer { started.stopAll() }
        #expect(throws: HarnessError.self) {
            try Self.startAll([("random-handshake", ""), ("no-such-attack", "")], in: started)
        }
        // random-handshake's server and camcast, and the server that did not start.
        #expect(started.processes.count == 3)
        for process in started.processes {
            #expect(process.hasExited)
            #expect(kill(process.pid, 0) == -1 && errno == ESRCH, "process \(process.pid) still exists")
        }
    }

    /// A server and its camcast for each attack, all in `started`; when one cannot be started,
    /// those started before it are stopped before the error is thrown.
    static func startAll(_ attacks: [(name: String, expected: String)], in started: ProcessGroup) throws -> [Run] {
        do {
            return try attacks.map { try start($0.name, expected: $0.expected, in: started) }
        } catch {
            started.stopAll()
            throw error
        }
    }

    static func start(_ attack: String, expected: String, in started: ProcessGroup) throws -> Run {
        let directory = try Project.scratchDirectory("hostile-\(attack)")
        let (server, port) = try ScriptedServer.start(
            "hostile-rtmp-server", [attack, "--key", key], portFile: directory.appendingPathComponent("port").path, in: started)
        let config = directory.appendingPathComponent("camcast.yaml")
        try """
            source:
              type: testpattern
              size: 320x240
            outputs:
              - url: rtmp://127.0.0.1:\(port)/live/\(key)
              - path: \(directory.appendingPathComponent("out.flv").path)
            reconnect:
              initial_delay_seconds: 0.2
              factor: 1
              max_delay_seconds: 0.2
            """.write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o600)
        let camcast = try started.start(Project.camcastBinary.path, ["run", "--config", config.path, "--connect-timeout", "3"])
        return Run(name: attack, expected: expected, directory: directory, server: server, camcast: camcast)
    }

    /// VmHWM (peak resident set) of a live process, in KiB; 0 once it is gone.
    static func peakRSS(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
