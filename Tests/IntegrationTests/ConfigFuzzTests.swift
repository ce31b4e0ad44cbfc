import Foundation
import TestSupport
import Testing

/// Config files and flags as the binary meets them: bad ones exit 78 with a message, never a
/// crash, whether at `check-config`, at `run` or on SIGHUP. Defects: `source.fps:
/// 9999999999999.999999` crashed check-config (SIGILL), an alias bomb kept it busy for over a
/// minute, and ArgumentParser's usage errors exited 64 where the README promises 78.
@Suite struct BinaryConfigFuzzTests {
    static let output = "outputs:\n  - path: /tmp/camcast-fuzz.flv\n"

    /// The files that crashed or hung the old binary, and generated ones around them.
    static func files() -> [String] {
        var files = [
            "source:\n  fps: 9999999999999.999999\n" + output,
            "source:\n  fps: \"1/99999999999\"\n" + output,
            "source:\n  fps: \"4294967296/1\"\n" + output,
            "source:\n  size: 999999x999999\n" + output,
            aliasBomb,
            "x: " + String(repeating: "[", count: 5000) + "\n" + output,
        ]
        var generator = SplitMix64(seed: 0xB1_4A2F)
        let keys = [
            "source:\n  fps", "source:\n  size", "source:\n  buffers", "encoder:\n  bitrate_kbps", "encoder:\n  level",
            "encoder:\n  keyframe_interval_seconds", "encoder:\n  keyframe_interval_frames", "reconnect:\n  factor",
            "reconnect:\n  max_attempts", "network:\n  connect_timeout_seconds", "queue:\n  max_seconds",
            "status:\n  interval_seconds",
        ]
        let values = [
            "1e308", "-1e308", "9223372036854775808", "-9223372036854775809", "99999999999999999999.5", "0.000001",
            "\"1/0\"", "\"0/1\"", "\"2147483648/2147483647\"", ".nan", ".inf", "&a 1", "*a", "[1]", "{a: 1}", "0x7fffffff",
        ]
        for _ in 0..<30 {
            let key = keys.randomElement(using: &generator)!
            let value = values.randomElement(using: &generator)!
            files.append("\(key): \(value)\n" + output)
        }
        return files
    }

    static let aliasBomb: String = {
        var lines = ["x0: &l0 [a, a, a, a, a, a, a, a, a, a]"]
        for level in 1...7 {
            lines.append("x\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\nsource:\n  ? *l7\n  : 1\n" + output
    }()

    @Test func checkConfigAnswersEveryGeneratedFileWithZeroOr78AtOnce() throws {
        let dir = try Project.scratchDirectory("config-fuzz")
        for (index, yaml) in Self.files().enumerated() {
            let file = dir.appendingPathComponent("c\(index).yaml")
            try yaml.write(to: file, atomically: true, encoding: .utf8)
            let result = try ProcessRunner.run(Project.camcastBinary.path, ["check-config", file.path], timeout: 20)
            #expect([0, 78].contains(result.status), "exit \(result.status) for\n\(yaml)\n\(result.stderr)")
            #expect(result.seconds < 5, "\(result.seconds) s for\n\(yaml)")
            if result.status == 78 {
                #expect(result.stderr.contains("c\(index).yaml:"), "the problem names the file: \(result.stderr)")
            }
        }
    }

    @Test(arguments: [
        ["run", "--bitrate", "abc"], ["run", "--no-such-flag"], ["run", "--fps"], ["run", "--send-timeout", "1e3"],
        ["check-config"], ["check-config", "a.yaml", "b.yaml"], ["no-such-command"],
    ])
    func aUsageErrorExits78WithTheParsersMessage(_ arguments: [String]) throws {
        let result = try ProcessRunner.run(Project.camcastBinary.path, arguments, timeout: 20)
        #expect(result.status == 78, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("Error: "), "\(result.stderr)")
    }

    @Test(arguments: [["--help"], ["run", "--help"], ["check-config", "--help"]])
    func helpStillExitsZero(_ arguments: [String]) throws {
        let result = try ProcessRunner.run(Project.camcastBinary.path, arguments, timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("USAGE"))
    }

    @Test(arguments: ["1e10", "31536001", "nan", "-1"])
    func aDurationOutOfRangeExits78(_ seconds: String) throws {
        let result = try ProcessRunner.run(
            Project.camcastBinary.path, ["run", "--duration", seconds, "--output", "/tmp/camcast-fuzz.flv"], timeout: 20)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("--duration"), "\(result.stderr)")
    }

    /// A SIGHUP with a file that used to crash or pin a core is rejected and the stream goes on.
    @Test func aRunningDaemonRejectsCrashingFilesOnSIGHUPAndKeepsRunning() throws {
        let dir = try Project.scratchDirectory("config-fuzz-hup")
        let config = dir.appendingPathComponent("camcast.yaml")
        let flv = dir.appendingPathComponent("out.flv")
        let good = "source:\n  size: 320x240\n  fps: 10\noutputs:\n  - path: \(flv.path)\n"
        try good.write(to: config, atomically: true, encoding: .utf8)
        let process = try Daemon.start(["run", "--config", config.path])
        #expect(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")
        let bad = ["source:\n  fps: 9999999999999.999999\n" + Self.output, "source:\n  fps: \"1/99999999999\"\n" + Self.output, Self.aliasBomb]
        for (index, yaml) in bad.enumerated() {
            try yaml.write(to: config, atomically: true, encoding: .utf8)
            process.signal(SIGHUP)
            #expect(Daemon.waitForLog(process, "reload rejected", occurrences: index + 1, timeout: 5), "\(process.stderrSoFar)")
        }
        #expect(Daemon.isRunning(process), "\(process.stderrSoFar)")
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
