import Foundation
import TestSupport

/// A clean Debian 12 root with Camcast's .deb installed by apt-get, booted with systemd as PID 1
/// under systemd-nspawn (host network), through `scripts/systemd-nspawn/container`.
final class NspawnContainer {
    static let script = Project.root.appendingPathComponent("scripts/systemd-nspawn/container").path
    /// The root on the host: files written under it appear inside.
    let root: URL
    private(set) var leader: String?
    private let bootLog: URL

    /// Makes the root (from the cached debootstrap tarball) and installs `deb` in it.
    init(deb: URL) throws {
        let scratch = try Project.scratchDirectory("nspawn")
        root = scratch.appendingPathComponent("root")
        bootLog = scratch.appendingPathComponent("boot.log")
        try Self.run(["root", root.path], timeout: 900)
        let installed = try Self.run(["install", root.path, deb.path], timeout: 600)
        guard installed.stdout.contains("Setting up camcast") else {
            throw HarnessError("apt-get install did not set camcast up:\n\(installed.stdout)\(installed.stderr)")
        }
        // What a bare Debian 12 box pays for the package and its dependencies (the README quotes it).
        for line in installed.stdout.split(separator: "\n") where line.contains("disk space will be used") || line.contains("newly installed") {
            print("systemd test: apt-get install: \(line)")
        }
    }

    func boot() throws {
        let result = try Self.run(["boot", root.path, bootLog.path], timeout: 120)
        leader = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a command inside the booted container.
    @discardableResult
    func exec(_ arguments: [String], timeout: Double = 60) throws -> ProcessResult {
        guard let leader else { throw HarnessError("the container is not booted") }
        return try ProcessRunner.run(Self.script, ["exec", leader] + arguments, timeout: timeout)
    }

    /// A shell command inside; its stdout.
    @discardableResult
    func sh(_ command: String, timeout: Double = 60) throws -> String {
        try exec(["/bin/sh", "-c", command], timeout: timeout).stdout
    }

    /// `systemctl show UNIT -p NAME --value`.
    func property(_ unit: String, _ name: String) throws -> String {
        try exec(["systemctl", "show", unit, "-p", name, "--value"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The unit's last journal lines, for a failure's message.
    func log(_ unit: String) -> String {
        (try? exec(["journalctl", "-u", unit, "--no-pager", "-n", "30"]).stdout) ?? "(no journal)"
    }

    /// Puts a file in place inside, with its owner, group and mode (`install(1)`).
    func install(_ text: String, at path: String, owner: String = "root", group: String = "root", mode: String = "644") throws {
        let staged = "/var/tmp/staged-\(UUID().uuidString.prefix(8))"
        try text.write(to: root.appendingPathComponent(String(staged.dropFirst())), atomically: true, encoding: .utf8)
        let result = try exec(["install", "-D", "-m", mode, "-o", owner, "-g", group, staged, path])
        guard result.status == 0 else { throw HarnessError("install \(path): \(result.stderr)") }
        try? FileManager.default.removeItem(at: root.appendingPathComponent(String(staged.dropFirst())))
    }

    /// A path inside, as the host sees it.
    func hostPath(_ path: String) -> URL { root.appendingPathComponent(String(path.drop { $0 == "/" })) }

    /// Powers the container off and deletes its root.
    func destroy() {
        if let leader { _ = try? Self.run(["poweroff", leader], timeout: 60) }
        leader = nil
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent())
    }

    deinit { destroy() }

    @discardableResult
    private static func run(_ arguments: [String], timeout: Double) throws -> ProcessResult {
        let result = try ProcessRunner.run(script, arguments, timeout: timeout)
        guard result.status == 0 else {
            throw HarnessError("container \(arguments.first ?? "") failed (\(result.status)): \(result.stderr)\(result.stdout.suffix(2000))")
        }
        return result
    }
}

/// Waits until `condition` holds, polling every 0.2 s; false on timeout.
func waitUntil(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        usleep(200_000)
    } while Date() < deadline
    return try condition()
}
