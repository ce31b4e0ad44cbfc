import Foundation
import TestSupport
import Testing

/// What the systemd test needs from the machine; with CAMCAST_TEST_REQUIRE_INTEGRATION=1 a missing
/// part fails the test instead of skipping it.
enum SystemdBoot {
    static var missing: [String] {
        var missing = ["systemd-nspawn", "debootstrap", "nsenter", "dpkg-deb", "dpkg-shlibdeps", "strip", "nginx", "ffprobe"]
            .filter { !Environment.hasExecutable($0) && !FileManager.default.isExecutableFile(atPath: "/usr/sbin/\($0)") }
        if getuid() != 0 { missing.append("root") }
        return missing
    }
    static var enabled: Bool { Environment.requireIntegration || missing.isEmpty }
    static let skipReason: Comment =
        "needs root, debootstrap and systemd-container (scripts/install-deps); set CAMCAST_TEST_REQUIRE_INTEGRATION=1 to fail instead of skipping"

    /// The .deb under test: CAMCAST_TEST_DEB (scripts/test builds it with scripts/package), else built
    /// here in a scratch directory of its own (`swift test` holds .build).
    static func deb() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["CAMCAST_TEST_DEB"] { return URL(fileURLWithPath: path) }
        let out = try Project.scratchDirectory("dist")
        let result = try ProcessRunner.run(
            "/usr/bin/env", ["SCRATCH=\(Project.root.path)/.build-package", Project.root.appendingPathComponent("scripts/package").path, out.path],
            timeout: 1800)
        guard result.status == 0, let last = result.stdout.split(separator: "\n").last else {
            throw HarnessError("scripts/package failed: \(result.stderr.suffix(3000))")
        }
        return URL(fileURLWithPath: String(last))
    }
}

/// Prints how long each step took; the figures the README quotes come from here.
final class StepClock {
    private let start = Date()
    func step<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let begun = Date()
        defer { print("systemd test: \(name): \(String(format: "%.1f", Date().timeIntervalSince(begun))) s") }
        return try body()
    }
    var total: Double { Date().timeIntervalSince(start) }
}

/// Camcast the way a camera box runs it: the .deb installed with `apt-get install ./camcast_….deb`
/// into a clean Debian 12 root (debootstrap, no Swift toolchain), booted with systemd 252 as PID 1
/// (systemd-nspawn -b, host network), streaming to nginx-rtmp on the host's loopback.
@Suite(.serialized, .enabled(if: SystemdBoot.enabled, SystemdBoot.skipReason))
struct SystemdBootTests {
    static let key = "sYsTeMd-KeY-7781"
    static let key2 = "cAm2-KeY-5523"
    static let key3 = "lAtE-KeY-2525"
    static let key4 = "gUaRd-KeY-3141"
    /// The instance the kill and watchdog checks run on while camcast.service waits for its camera.
    static let guardUnit = "camcast@guard"
    /// A camera that is never plugged in during the test: a by-id link udev has not made.
    static let lateCamera = "/dev/v4l/by-id/usb-Camcast_Late_Camera-video-index0"
    /// Shortened for the test (drop-in) from the units' 30 s, so a hang is caught in seconds.
    static let watchdogSeconds = 8.0

    /// Every instance's YAML: the test pattern, small and slow, to the server under `key` and into
    /// the files at `paths`.
    static func config(port: Int, key: String = key, bitrate: Int = 300, paths: [String] = []) -> String {
        """
        source:
          type: testpattern
          size: 320x240
          fps: 15
        encoder:
          bitrate_kbps: \(bitrate)
        outputs:
          - url: rtmp://127.0.0.1:\(port)/rec/\(key)

        """ + paths.map { "  - path: \($0)\n" }.joined()
    }
    static let mainPaths = ["/var/lib/camcast/main.flv", "/var/lib/camcast/main.h264"]

    @Test(.timeLimit(.minutes(30)))
    func theDebInstallsBootsStreamsReloadsRecoversAndStopsCleanly() throws {
        try #require(SystemdBoot.missing.isEmpty, "missing: \(SystemdBoot.missing.joined(separator: ", ")) (scripts/install-deps)")
        let clock = StepClock()
        let deb = try clock.step("package (.deb)") { try SystemdBoot.deb() }
        let server = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        let box = try clock.step("root from cache + apt-get install ./\(deb.lastPathComponent)") { try NspawnContainer(deb: deb) }
        defer { box.destroy() }
        try clock.step("boot") { try box.boot() }

        try checkInstallation(box)
        try box.install(
            Self.config(port: server.port, bitrate: 300, paths: Self.mainPaths), at: "/etc/camcast/camcast.yaml", group: "camcast", mode: "640")
        try startStreaming(box, server, clock)
        try reload(box, server, clock)
        try secondInstance(box, server, clock)
        try stop(box, server, clock)
        try outputOutsideStateDirectory(box, clock)
        try badKey(box, clock)
        // The late camera's minute without a restart is spent on the other instance's kills and
        // watchdog (the template's [Service] is the main unit's), not slept through.
        let absent = try lateCameraStarts(box, server, clock)
        try installGuardInstance(box, server)
        try killedRepeatedly(box, clock)
        try watchdog(box, clock)
        try lateCameraStillWaits(box, server, clock, since: absent)

        // The stream key in no field of any journal entry, from any unit.
        let journal = try box.exec(["journalctl", "-o", "json", "--no-pager"], timeout: 60).stdout
        #expect(journal.contains("streaming"), "the journal holds camcast's lines")
        #expect(![Self.key, Self.key2, Self.key3, Self.key4].contains { journal.contains($0) }, "a stream key reached the journal")

        let security = try box.exec(["systemd-analyze", "security", "camcast", "--no-pager"]).stdout
        let line = try #require(security.split(separator: "\n").first { $0.contains("Overall exposure level") })
        print("systemd test: online \(line.trimmingCharacters(in: .whitespaces))")
        // "→ Overall exposure level for camcast.service: 1.6 OK :-)"
        let after = try #require(line.range(of: ".service: "), "\(line)")
        let level = try #require(line[after.upperBound...].split(separator: " ").first.map(String.init))
        let readme = try String(contentsOf: Project.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("`systemd-analyze security camcast`") && readme.contains("exposure level \(level)"),
                "README must state the online level \(level)")
        print("systemd test: total \(String(format: "%.1f", clock.total)) s")
    }

    /// The package's promises, before anything runs: no toolchain, Debian libraries only, the
    /// user, the config's mode, nothing enabled or started.
    private func checkInstallation(_ box: NspawnContainer) throws {
        let toolchain = try box.sh(
            "find / -xdev \\( -name 'libswiftCore*' -o -name 'libFoundation*.so' -o -name swiftc -o -name 'swift-backtrace*' \\) -print; ls -d /opt/swift 2>/dev/null; true")
        #expect(toolchain.isEmpty, "a Swift toolchain in the root: \(toolchain)")
        let ldd = try box.exec(["ldd", "/usr/bin/camcast"])
        #expect(ldd.status == 0 && !ldd.stdout.contains("not found"), "\(ldd.stdout)\(ldd.stderr)")
        let libraries = ldd.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let arrow = line.range(of: "=> ") else { return nil }
            return line[arrow.upperBound...].split(separator: " ").first.map(String.init)
        }
        #expect(libraries.count >= 5, "\(ldd.stdout)")
        for library in libraries {
            // bookworm's packages put libraries in /lib or /usr/lib; ldd may name either (usrmerge).
            let other = library.hasPrefix("/usr/") ? String(library.dropFirst(4)) : "/usr" + library
            let owner = try box.sh("dpkg -S \(library) 2>/dev/null || dpkg -S \(other) 2>/dev/null")
            #expect(!owner.isEmpty && !library.contains("swift"), "\(library) belongs to no Debian package")
        }
        #expect(try box.sh("id camcast").contains("(video)"), "the camcast user is in group video")
        #expect(try box.sh("id camcast").contains("(audio)"), "the camcast user is in group audio (ALSA capture)")
        #expect(try box.sh("stat -c '%a %U:%G' /etc/camcast /etc/camcast/camcast.yaml") == "750 root:camcast\n640 root:camcast\n")
        // Man pages and completions, generated from the argument parser (issue 25).
        let docs = try box.sh(
            "ls /usr/share/man/man1/camcast.1.gz /usr/share/man/man1/camcast.run.1.gz /usr/share/bash-completion/completions/camcast "
                + "/usr/share/zsh/vendor-completions/_camcast /usr/share/fish/vendor_completions.d/camcast.fish")
        #expect(docs.split(separator: "\n").count == 5, "\(docs)")
        #expect(try box.sh("zcat /usr/share/man/man1/camcast.check-config.1.gz").contains("env-file"))
        #expect(try box.sh("grep -c -- '--env-file' /usr/share/bash-completion/completions/camcast") != "0\n")
        #expect(try box.sh("camcast --version").hasPrefix("camcast "))
        #expect(try box.sh("systemctl is-enabled camcast; systemctl is-active camcast") == "disabled\ninactive\n",
                "installing the package enables and starts nothing")
    }

    private func startStreaming(_ box: NspawnContainer, _ server: RTMPServer, _ clock: StepClock) throws {
        let enabled = try clock.step("systemctl enable --now camcast (returns at READY=1)") {
            try box.exec(["systemctl", "enable", "--now", "camcast"], timeout: 60)
        }
        #expect(enabled.status == 0, "\(enabled.stderr)\(box.log("camcast"))")
        try #require(try box.property("camcast", "ActiveState") == "active", "\(box.log("camcast"))")
        let recorded = try clock.step("first frames in the server's recording") {
            try waitUntil(20) { try server.uniqueRecordings(Self.key).first.map { (try? ProbedVideo.packets($0).count) ?? 0 >= 30 } ?? false }
        }
        #expect(recorded, "nginx-rtmp recorded the stream")
        let probe = try ProbedVideo.probe(try #require(try server.uniqueRecordings(Self.key).first))
        #expect(probe.codec == "h264" && probe.width == 320 && probe.height == 240 && probe.decodedFrames >= 30, "\(probe)")
    }

    private func reload(_ box: NspawnContainer, _ server: RTMPServer, _ clock: StepClock) throws {
        let pid = try box.property("camcast", "MainPID")
        try box.install(
            Self.config(port: server.port, bitrate: 500, paths: Self.mainPaths), at: "/etc/camcast/camcast.yaml", group: "camcast", mode: "640")
        let reloaded = try clock.step("systemctl reload camcast") { try box.exec(["systemctl", "reload", "camcast"]) }
        #expect(reloaded.status == 0, "ExecReload= works without procps: \(reloaded.stderr)")
        let applied = try waitUntil(10) {
            try box.sh("journalctl -u camcast -o cat --no-pager").contains("reload applied: bitrate 300 → 500 kbit/s")
        }
        #expect(applied, "\(box.log("camcast"))")
        usleep(2_000_000)
        #expect(try box.property("camcast", "MainPID") == pid, "same process")
        #expect(try box.property("camcast", "NRestarts") == "0")
        #expect(try server.uniqueRecordings(Self.key).count == 1, "no reconnect: nginx-rtmp saw one publish")
    }

    private func secondInstance(_ box: NspawnContainer, _ server: RTMPServer, _ clock: StepClock) throws {
        let yaml = Self.config(port: server.port, key: Self.key2, paths: ["/var/lib/camcast/cam2/cam2.flv"])
        try box.install(yaml, at: "/etc/camcast/cam2.yaml", group: "camcast", mode: "640")
        let started = try clock.step("systemctl start camcast@cam2") { try box.exec(["systemctl", "start", "camcast@cam2"]) }
        #expect(started.status == 0, "\(started.stderr)\(box.log("camcast@cam2"))")
        #expect(try box.sh("systemctl is-active camcast camcast@cam2") == "active\nactive\n", "both instances run side by side")
        let recorded = try waitUntil(20) {
            try server.uniqueRecordings(Self.key2).first.map { (try? ProbedVideo.packets($0).count) ?? 0 >= 15 } ?? false
        }
        #expect(recorded, "the second camera reaches the server")
        let stopped = try box.exec(["systemctl", "stop", "camcast@cam2"], timeout: 40)
        #expect(stopped.status == 0)
        let file = box.hostPath("/var/lib/camcast/cam2/cam2.flv")
        #expect(try ProbedVideo.probe(file).decodedFrames >= 15, "the instance records under its own StateDirectory")
        #expect(try ProbedVideo.decodeErrors(file).isEmpty)
    }

    private func stop(_ box: NspawnContainer, _ server: RTMPServer, _ clock: StepClock) throws {
        let stopped = try clock.step("systemctl stop camcast") { try box.exec(["systemctl", "stop", "camcast"], timeout: 40) }
        #expect(stopped.status == 0)
        #expect(try box.property("camcast", "Result") == "success")
        #expect(try box.property("camcast", "ExecMainStatus") == "0")
        let recording = try #require(try server.uniqueRecordings(Self.key).first)
        #expect(try waitUntil(10) { try ProbedVideo.decodeErrors(recording).isEmpty }, "the server's recording ends clean")
        for path in ["/var/lib/camcast/main.flv", "/var/lib/camcast/main.h264"] {
            let file = box.hostPath(path)
            #expect(try ProbedVideo.decodeErrors(file).isEmpty, "\(path) ends clean")
            #expect(try ProbedVideo.probe(file).decodedFrames >= 30, "\(path) holds the stream")
        }
    }

    /// ProtectSystem=strict makes /srv read-only: the system's words, exit 78, no restart loop.
    private func outputOutsideStateDirectory(_ box: NspawnContainer, _ clock: StepClock) throws {
        try box.sh("install -d -o camcast -g camcast /srv/rec")
        try box.install("source:\n  size: 320x240\noutputs:\n  - path: /srv/rec/cam.flv\n", at: "/etc/camcast/srv.yaml", group: "camcast", mode: "640")
        let started = try clock.step("systemctl start camcast@srv (fails)") { try box.exec(["systemctl", "start", "camcast@srv"]) }
        #expect(started.status != 0)
        usleep(7_000_000)  // past RestartSec=5: a restart would show in NRestarts
        #expect(try box.property("camcast@srv", "ExecMainStatus") == "78")
        #expect(try box.property("camcast@srv", "NRestarts") == "0")
        let errors = try box.sh("journalctl -p err -u camcast@srv -o cat --no-pager")
        #expect(errors.contains("/srv/rec/cam.flv") && errors.contains("Read-only file system"), "\(errors)")
    }

    /// A typo in the config: exit 78, no restart, the problem at priority err.
    private func badKey(_ box: NspawnContainer, _ clock: StepClock) throws {
        try box.install(
            "encoder:\n  bitrate: 3000\noutputs:\n  - path: /var/lib/camcast/x.flv\n", at: "/etc/camcast/camcast.yaml", group: "camcast", mode: "640")
        let started = try clock.step("systemctl start camcast with a bad key (fails)") { try box.exec(["systemctl", "start", "camcast"]) }
        #expect(started.status != 0)
        usleep(7_000_000)  // past RestartSec=5
        #expect(try box.property("camcast", "ExecMainStatus") == "78")
        #expect(try box.property("camcast", "NRestarts") == "0")
        let errors = try box.sh("journalctl -p err -u camcast -o cat --no-pager")
        #expect(errors.contains("camcast.yaml:2:3: encoder.bitrate: unknown key"), "\(errors)")
        // Levels reach the journal: notices are above info, info lines are not.
        let notices = try box.sh("journalctl -p notice -u camcast -o cat --no-pager")
        #expect(notices.contains("notice reload applied") && !notices.contains("info streaming"), "\(notices)")
        #expect(try box.sh("journalctl -p info -u camcast -o cat --no-pager").contains("info streaming"))
    }

    /// kill -STOP of the main process: systemd's watchdog (shortened by a drop-in) ends it within
    /// WatchdogSec and starts a new one.
    private func watchdog(_ box: NspawnContainer, _ clock: StepClock) throws {
        let unit = Self.guardUnit
        try box.install("[Service]\nWatchdogSec=\(Int(Self.watchdogSeconds))s\n", at: "/run/systemd/system/\(unit).service.d/test-watchdog.conf")
        try box.sh("systemctl daemon-reload; systemctl reset-failed \(unit)")
        let started = try box.exec(["systemctl", "start", unit])
        try #require(started.status == 0, "\(started.stderr)")
        let restartsBefore = Int(try box.property(unit, "NRestarts")) ?? -1
        let pid = try box.property(unit, "MainPID")
        usleep(1_000_000)
        let begun = Date()
        try box.sh("kill -STOP \(pid)")
        // Generous: the watchdog, the unit's RestartSec=5 and a start on a loaded machine.
        let replaced = try waitUntil(Self.watchdogSeconds + 60) {
            let now = try box.sh("systemctl show \(unit) -p MainPID -p ActiveState --value").split(separator: "\n")
            return now.count == 2 && now[0] != Substring(pid) && now[0] != "0" && now[1] == "active"
        }
        let seconds = Date().timeIntervalSince(begun)
        #expect(replaced, "\(seconds) s; \(box.log(unit))")
        // When the stopped process ends is systemd's watchdog timer's doing, not this machine's
        // speed: the timeout falls within WatchdogSec of the stop (the last ping came before it;
        // 2 s for the timer's accuracy). RestartSec=5 and the new start after it are printed,
        // not bounded (13.4 s in all on a loaded host, against 8 + 5 + a start).
        let timeoutLine = try box.sh("journalctl -u \(unit) -o short-unix --no-pager | grep 'Watchdog timeout' | tail -n 1")
        let timeout = Double(timeoutLine.prefix { $0 != " " }).map { $0 - begun.timeIntervalSince1970 }
        print("systemd test: kill -STOP → watchdog timeout \(timeout.map { String(format: "%.1f", $0) } ?? "?") s, new process active: \(String(format: "%.1f", seconds)) s (WatchdogSec=\(Int(Self.watchdogSeconds))s, RestartSec=5)")
        #expect(timeout.map { $0 > 0 && $0 <= Self.watchdogSeconds + 2 } == true, "\(timeoutLine); \(box.log(unit))")
        let journal = try box.sh("journalctl -u \(unit) -o cat --no-pager")
        // The SIGABRT itself ended it, not the SIGKILL TimeoutAbortSec later (the backtracer is off).
        #expect(journal.contains("Main process exited, code=killed, status=6/ABRT"), "\(journal.suffix(3000))")
        #expect(Int(try box.property(unit, "NRestarts")) == restartsBefore + 1)
        try box.exec(["systemctl", "stop", unit], timeout: 40)
    }

    /// The instance for the kill and watchdog checks: the test pattern to the server.
    private func installGuardInstance(_ box: NspawnContainer, _ server: RTMPServer) throws {
        try box.install(Self.config(port: server.port, key: Self.key4), at: "/etc/camcast/guard.yaml", group: "camcast", mode: "640")
    }

    /// Issue 25: the unit enabled with a camera that is not there is active (READY came), streams
    /// the slate to the server, says what it waits for, and (`lateCameraStillWaits`) is still
    /// active after 60 s without a restart. The outputs come from /etc/camcast/camcast.env
    /// (EnvironmentFile=), not the YAML. Returns when the minute began.
    private func lateCameraStarts(_ box: NspawnContainer, _ server: RTMPServer, _ clock: StepClock) throws -> Date {
        try box.install(
            "source:\n  type: device\n  device: \(Self.lateCamera)\n  size: 320x240\n  fps: 15\nencoder:\n  bitrate_kbps: 300\n"
                + "status:\n  interval_seconds: 2\n",
            at: "/etc/camcast/camcast.yaml", group: "camcast", mode: "640")
        try box.install(
            "# the key lives here, not in the YAML\nCAMCAST_OUTPUTS=\"rtmp://127.0.0.1:\(server.port)/rec/\(Self.key3)\"\n",
            at: "/etc/camcast/camcast.env", group: "camcast", mode: "640")
        try box.sh("systemctl reset-failed camcast")
        let started = try clock.step("systemctl start camcast, camera absent (returns at READY=1)") {
            try box.exec(["systemctl", "start", "camcast"], timeout: 60)
        }
        #expect(started.status == 0, "\(started.stderr)\(box.log("camcast"))")
        #expect(try box.property("camcast", "ActiveState") == "active")
        let slate = try clock.step("slate frames in the server's recording") {
            try waitUntil(30) { try server.uniqueRecordings(Self.key3).first.map { (try? ProbedVideo.packets($0).count) ?? 0 >= 30 } ?? false }
        }
        #expect(slate, "nginx-rtmp recorded the slate; \(box.log("camcast"))")
        let waiting = try waitUntil(20) {
            try box.property("camcast", "StatusText").contains("waiting for camera \(Self.lateCamera)")
        }
        let statusText = try box.property("camcast", "StatusText")
        #expect(waiting, "STATUS= says what it waits for: \(statusText)")
        #expect(try box.property("camcast", "NRestarts") == "0")
        return Date()
    }

    private func lateCameraStillWaits(_ box: NspawnContainer, _ server: RTMPServer, _ clock: StepClock, since absent: Date) throws {
        let left = 60 - Date().timeIntervalSince(absent)
        if left > 0 { _ = clock.step("the rest of 60 s with the camera absent") { usleep(UInt32(left * 1_000_000)) } }
        print("systemd test: camera absent for \(String(format: "%.1f", Date().timeIntervalSince(absent))) s")
        #expect(try box.property("camcast", "ActiveState") == "active", "\(box.log("camcast"))")
        #expect(try box.property("camcast", "NRestarts") == "0")
        let pid = try box.property("camcast", "MainPID")
        try box.exec(["systemctl", "stop", "camcast"], timeout: 40)
        // A minute of slate reached the server: the run's media time spans the minute, its slots
        // at 15 fps are all encoded or went unencoded (a loaded machine's, however many), and every
        // picture encoded is in the server's recording or counted as given up by the output (the
        // stop summary's `dropped` and `discarded`). This used to demand that none be given up: on
        // a starved machine (a one-core CI, load 9, the restart storm beside it) 18 of 1702
        // pictures were missing, in two holes that each end at a keyframe, as the output's skip to
        // the next keyframe leaves them when its queue outruns its bound.
        var summary = ""
        _ = try waitUntil(10) {
            summary = try box.sh("journalctl _PID=\(pid) -o cat --no-pager | grep ' stopped' || true")
            return !summary.isEmpty
        }
        let encoded = try #require(CamcastLog.stopCount("frames", in: summary), "no stop summary: \(box.log("camcast"))")
        let unencoded = try #require(CamcastLog.unencodedSlots(in: summary))
        let mediaMilliseconds = try #require(CamcastLog.stopCount("media_ms", in: summary))
        let slots = Int((Double(mediaMilliseconds * 15) / 1000).rounded()) + 1
        let givenUp = try #require(CamcastLog.stopCount("dropped", in: summary)) + (try #require(CamcastLog.stopCount("discarded", in: summary)))
        let recording = try #require(try server.uniqueRecordings(Self.key3).first)
        let decoded = try ProbedVideo.probe(recording).decodedFrames
        print("systemd test: slate \(encoded) encoded, \(unencoded) unencoded, \(slots) slots in \(mediaMilliseconds) ms, "
            + "\(decoded) recorded, \(givenUp) dropped or discarded by the output")
        #expect(mediaMilliseconds >= 60_000, "\(summary)")
        #expect(abs(encoded + unencoded - slots) <= 2, "\(encoded) encoded + \(unencoded) unencoded of \(slots) slots: \(summary)")
        #expect(decoded == encoded - givenUp, "\(decoded) slate pictures recorded of \(encoded) encoded, \(givenUp) counted as dropped or discarded")
        try box.sh("rm -f /etc/camcast/camcast.env")
    }

    /// The main process SIGKILLed each time it becomes active, 8 times in a row: systemd restarts
    /// it every time (no start limit leaves it `failed`), and it ends active.
    private func killedRepeatedly(_ box: NspawnContainer, _ clock: StepClock) throws {
        let unit = Self.guardUnit
        let started = try box.exec(["systemctl", "start", unit], timeout: 60)
        try #require(started.status == 0, "\(started.stderr)\(box.log(unit))")
        let before = Int(try box.property(unit, "NRestarts")) ?? -1
        var previous = ""
        try clock.step("8 × SIGKILL, each time it is active") {
            for round in 1...8 {
                var pid = ""
                let active = try waitUntil(40) {
                    let now = try box.sh("systemctl show \(unit) -p MainPID -p ActiveState --value").split(separator: "\n")
                    guard now.count == 2, now[1] == "active", now[0] != "0", String(now[0]) != previous else { return false }
                    pid = String(now[0])
                    return true
                }
                try #require(active, "round \(round): not active again; \(box.log(unit))")
                try box.sh("kill -KILL \(pid)")
                previous = pid
            }
        }
        let back = try waitUntil(40) {
            let now = try box.sh("systemctl show \(unit) -p MainPID -p ActiveState --value").split(separator: "\n")
            return now.count == 2 && now[1] == "active" && String(now[0]) != previous && now[0] != "0"
        }
        #expect(back, "active after the 8th kill; \(box.log(unit))")
        #expect(try box.property(unit, "Result") != "start-limit-hit")
        #expect(Int(try box.property(unit, "NRestarts")) == before + 8)
        try box.exec(["systemctl", "stop", unit], timeout: 40)
    }
}
