import Foundation
import TestSupport
import Testing

/// The units as systemd itself reads them, and the install script staged into a temporary root.
@Suite(.enabled(if: Environment.hasExecutable("systemd-analyze") || Environment.requireIntegration, "needs systemd-analyze"))
struct SystemdUnitTests {
    static let units = ["camcast.service", "camcast@.service"]

    /// Stages the units with `scripts/install` (DESTDIR, PREFIX pointing at the built binary, so
    /// that `systemd-analyze verify` finds an executable ExecStart).
    static func staged() throws -> URL {
        let root = try Project.scratchDirectory("install")
        let prefix = root.appendingPathComponent("prefix").path
        let result = try ProcessRunner.run(
            "/usr/bin/env",
            ["DESTDIR=\(root.path)/stage", "PREFIX=\(prefix)", "BINARY=\(Project.camcastBinary.path)",
             Project.root.appendingPathComponent("scripts/install").path],
            timeout: 60)
        guard result.status == 0 else { throw HarnessError("install failed: \(result.stderr)") }
        // The units name $PREFIX/bin/camcast as the installed system will have it; give verify one.
        try FileManager.default.createDirectory(atPath: "\(prefix)/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(prefix)/bin/camcast", withDestinationPath: Project.camcastBinary.path)
        return root.appendingPathComponent("stage")
    }

    @Test func installStagesBinaryUnitsAndConfigWithTheirModes() throws {
        let stage = try Self.staged()
        let prefix = stage.deletingLastPathComponent().appendingPathComponent("prefix").path
        #expect(FileManager.default.isExecutableFile(atPath: stage.path + prefix + "/bin/camcast"))
        func mode(_ path: String) throws -> Int {
            try (FileManager.default.attributesOfItem(atPath: stage.path + path)[.posixPermissions] as? Int) ?? -1
        }
        #expect(try mode("\(prefix)/bin/camcast") == 0o755)
        #expect(try mode("/etc/camcast/camcast.yaml") == 0o640, "the config may hold a stream key")
        #expect(try mode("/etc/camcast") == 0o750)
        for unit in Self.units {
            #expect(try mode("/etc/systemd/system/\(unit)") == 0o644)
            let text = try String(contentsOfFile: stage.path + "/etc/systemd/system/\(unit)", encoding: .utf8)
            #expect(text.contains("ExecStart=\(prefix)/bin/camcast run --config /etc/camcast/"))
        }
        // A second install keeps an edited config.
        let config = stage.appendingPathComponent("etc/camcast/camcast.yaml")
        try "outputs:\n  - path: /var/lib/camcast/edited.flv\n".write(to: config, atomically: true, encoding: .utf8)
        let again = try ProcessRunner.run(
            "/usr/bin/env",
            ["DESTDIR=\(stage.path)", "PREFIX=\(prefix)", "BINARY=\(Project.camcastBinary.path)",
             Project.root.appendingPathComponent("scripts/install").path],
            timeout: 60)
        #expect(again.status == 0)
        #expect(try String(contentsOf: config, encoding: .utf8).contains("edited.flv"))
    }

    @Test(arguments: units)
    func systemdAnalyzeVerifyAcceptsTheUnit(_ unit: String) throws {
        let path = try Self.staged().appendingPathComponent("etc/systemd/system/\(unit)").path
        let result = try ProcessRunner.run("/usr/bin/systemd-analyze", ["verify", "--man=no", path], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty, "no warnings: \(result.stderr)")
    }

    @Test(arguments: units)
    func securityExposureIsAtMostTwo(_ unit: String) throws {
        let path = try Self.staged().appendingPathComponent("etc/systemd/system/\(unit)").path
        let result = try ProcessRunner.run("/usr/bin/systemd-analyze", ["security", "--offline=yes", path], timeout: 60)
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") })
        // "→ Overall exposure level for camcast.service: 1.5 OK 🙂"
        let level = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        #expect(level <= 2.0, "\(line)")
        // The README states the level; keep it true.
        let readme = try String(contentsOf: Project.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("exposure level \(level)"), "README must state \(level)")
    }

    @Test(arguments: units)
    func unitsAreNotifyWithWatchdogReloadAndNoRestartOnBadConfig(_ unit: String) throws {
        let text = try String(contentsOf: Project.root.appendingPathComponent("systemd/\(unit)"), encoding: .utf8)
        for line in [
            "Type=notify", "NotifyAccess=main", "WatchdogSec=30s", "ExecReload=/bin/sh -c 'kill -HUP \"$MAINPID\"'",
            "Environment=SWIFT_BACKTRACE=enable=no", "TimeoutAbortSec=5", "SystemCallFilter=setpriority",
            "Restart=on-failure", "RestartPreventExitStatus=78", "NoNewPrivileges=yes", "ProtectSystem=strict",
            "DeviceAllow=char-video4linux rw", "DeviceAllow=char-alsa rw", "SupplementaryGroups=video audio",
            "CapabilityBoundingSet=",
        ] {
            #expect(text.split(separator: "\n").contains { $0 == line }, "\(unit) lacks \(line)")
        }
    }
}
