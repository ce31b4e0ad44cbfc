import Foundation
import TestSupport
import Testing

/// A file output that cannot be opened at start is a configuration error: the system's own words
/// for why, and exit 78, which the units' RestartPreventExitStatus=78 keeps from a restart loop.
/// (The read-only case, a path ProtectSystem=strict forbids, is checked under a real systemd in
/// SystemdBootTests.)
@Suite struct OutputPathTests {
    @Test(arguments: ["cam.flv", "cam.h264"])
    func anOutputInAMissingDirectoryExits78WithTheSystemsReason(_ name: String) throws {
        let missing = try Project.scratchDirectory("outpath").appendingPathComponent("no-such-dir/\(name)").path
        let camcast = try Daemon.start(
            ["run", "--source", "testpattern", "--size", "320x240", "--duration", "2", "--output", missing])
        let result = try camcast.wait(timeout: 30)
        #expect(result.status == 78, "\(result.stderr)")
        // Refused by the start checks, before anything opens (check-config says the same).
        let line = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("camcast: ") }, "\(result.stderr)")
        #expect(line.contains("outputs[0]") && line.contains(missing) && line.contains("No such file or directory"), "\(line)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
