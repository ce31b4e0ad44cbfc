import Foundation
import TestSupport
import Testing

/// Issue 26 defect 1 on a real hung mount: a recording whose folder is on a FUSE mount that
/// never answers (`DeadMount`, the test's dead NFS server), where even stat(2) and mkdir(2)
/// wait. The start checks and the recorder's folder, index and segments used to be looked at
/// on the caller's thread, so `check-config` and `camcast run`'s start waited for good.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct HungMountTests {
    static let streamKey = "dEaD-mOuNt-kEy-77"

    @Test(.timeLimit(.minutes(2)))
    func aRecordingOnADeadMountHoldsNeitherCheckConfigNorTheStartNorTheReloadThatRemovesIt() throws {
        guard DeadMount.isPossible else {
            try #require(!Environment.requireIntegration, "needs root and /dev/fuse to mount a FUSE file system that never answers")
            return
        }
        let mount = try DeadMount("dead-mount")
        defer { mount.remove() }
        // A String, not URL.appendingPathComponent: that looks at the file system (and would hang).
        let folder = mount.directory.path + "/rec"
        let server = try RTMPServer()
        defer { try? server.stop() }
        let port = Int(try freeLoopbackPort())
        let config = try Project.scratchDirectory("dead-mount-config").appendingPathComponent("camcast.yaml")
        func configText(withRecording: Bool) -> String {
            HungOpenStartTests.config(server: server, port: port, streamKey: Self.streamKey, fileOutput: withRecording ? "record: \(folder)" : nil)
        }
        try configText(withRecording: true).write(to: config, atomically: true, encoding: .utf8)

        // The folder does not answer: no configuration problem (that is for a folder that says no).
        let check = try ProcessRunner.run(Project.camcastBinary.path, ["check-config", config.path], timeout: 30)
        #expect(check.status == 0, "check-config: \(check.stderr)")

        let process = try Daemon.start(["run", "--config", config.path])
        defer { process.signal(SIGKILL); _ = try? process.wait(timeout: 5) }
        try #require(Daemon.waitForLog(process, "info ready", timeout: 30), "the start waited for the dead mount: \(process.stderrSoFar)")
        #expect(process.stderrSoFar.contains("file does not open yet"), "\(process.stderrSoFar)")
        try #require(Daemon.waitForLog(process, "RTMP publishing", timeout: 30), "\(process.stderrSoFar)")
        // /status answers (no look into the folder at scrape time) and names the folder.
        try HungOpenStartTests.expectReportedStarting(OperatorHTTP(port: port), kind: "record", path: folder, streamKey: Self.streamKey)
        let recording = server.recording(Self.streamKey)
        HungOpenStartTests.expectStreamArrives(recording, process)

        // A reload that removes the recording: done after the writer's grace (2 s; a file still
        // opening has nothing to drain), the hung open left behind; the RTMP output never notices.
        try configText(withRecording: false).write(to: config, atomically: true, encoding: .utf8)
        let asked = Date()
        process.signal(SIGHUP)
        #expect(Daemon.waitForLog(process, "notice reloaded", timeout: 15), "the reload waited for the dead mount: \(process.stderrSoFar)")
        #expect(Date().timeIntervalSince(asked) < 10, "the reload took \(Date().timeIntervalSince(asked)) s")
        #expect(process.stderrSoFar.contains("the file did not open in time"), "\(process.stderrSoFar)")
        #expect(process.stderrSoFar.contains("reload applied: closed record \(folder)"), "\(process.stderrSoFar)")

        process.signal(SIGTERM)
        let result = try process.wait(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey))
        #expect(result.stderr.components(separatedBy: "RTMP publishing").count - 1 == 1, "\(result.stderr)")
        try server.stop()
        let pictures = try ProbedVideo.packets(recording).count
        #expect(pictures > 15, "\(pictures) pictures")
    }
}
