import Foundation
import TestSupport
import Testing

/// A start that fails after an output opened removes what the run made, and only that (issue 41 #2):
/// no header-only file, no recording folder it created, while a file or folder the user had stays
/// as it was. Each case is a failure the start checks cannot see beforehand (as root, /proc takes
/// any name in the check and refuses it at the open), so the failure comes after another output's
/// file exists: the later output's, the source's, the encoder's.
@Suite struct FailedStartTests {
    /// What a case leaves: camcast's exit status, its last `camcast:` line and the folder's files.
    struct Outcome {
        var status: Int32
        var error: String
        var left: [String]
    }

    /// Runs camcast in `dir` (relative outputs land there) and lists what is in `dir` afterwards.
    static func run(_ arguments: [String], in dir: URL, shell: String? = nil) throws -> Outcome {
        let before = Set(try FileManager.default.subpathsOfDirectory(atPath: dir.path))
        let camcast = Project.camcastBinary.path
        let command = "cd '\(dir.path)' && " + (shell.map { "\($0) | " } ?? "") + "exec '\(camcast)' "
            + arguments.map { "'\($0)'" }.joined(separator: " ")
        let result = try ProcessRunner.run("/bin/sh", ["-c", command], timeout: 60)
        let line = result.stderr.split(separator: "\n").last { $0.hasPrefix("camcast: ") }.map(String.init) ?? result.stderr
        let after = Set(try FileManager.default.subpathsOfDirectory(atPath: dir.path))
        return Outcome(status: result.status, error: line, left: after.subtracting(before).sorted())
    }

    static let testPattern = ["run", "--source", "testpattern", "--size", "320x240", "--duration", "2"]

    @Test(arguments: ["a.flv", "a.h264"])
    func aLaterOutputThatCannotOpenTakesTheEarlierFileAway(_ first: String) throws {
        let dir = try Project.scratchDirectory("failed-start")
        let outcome = try Self.run(Self.testPattern + ["--output", first, "--output", "/proc/nope.flv"], in: dir)
        #expect(outcome.status == 78, "\(outcome.error)")
        #expect(outcome.error.contains("output /proc/nope.flv cannot be opened"), "\(outcome.error)")
        #expect(outcome.left.isEmpty, "left behind: \(outcome.left)")
    }

    @Test func aRecordingFolderThatCannotBeMadeTakesTheFLVFileAway() throws {
        let dir = try Project.scratchDirectory("failed-start")
        let outcome = try Self.run(Self.testPattern + ["--output", "a.flv", "--record", "/proc/rec"], in: dir)
        #expect(outcome.status == 78, "\(outcome.error)")
        #expect(outcome.error.contains("output record /proc/rec cannot be opened"), "\(outcome.error)")
        #expect(outcome.left.isEmpty, "left behind: \(outcome.left)")
    }

    /// A recording listed first makes its folder; the output after it fails. The folder goes
    /// again, a folder that was there already stays with what it held, and a file the user had
    /// under an output's name keeps its bytes (camcast wrote beside it, under a fresh name).
    @Test func aRecordingsNewFolderGoesButWhatTheUserHadStays() throws {
        let dir = try Project.scratchDirectory("failed-start")
        let existing = dir.appendingPathComponent("kept")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: false)
        let userFile = Data("the user's own bytes".utf8)
        try userFile.write(to: existing.appendingPathComponent("notes.txt"))
        try userFile.write(to: dir.appendingPathComponent("mine.flv"))
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
        source:
          type: testpattern
        outputs:
          - record: \(dir.path)/new-recordings
          - record: \(existing.path)
          - path: \(dir.path)/mine.flv
          - path: /proc/nope.flv
        """.write(to: config, atomically: true, encoding: .utf8)
        let outcome = try Self.run(["run", "--config", config.path, "--size", "320x240", "--duration", "2"], in: dir)
        #expect(outcome.status == 78, "\(outcome.error)")
        #expect(outcome.error.contains("output /proc/nope.flv cannot be opened"), "\(outcome.error)")
        #expect(outcome.left.isEmpty, "left behind: \(outcome.left)")
        #expect(try Data(contentsOf: existing.appendingPathComponent("notes.txt")) == userFile)
        #expect(try Data(contentsOf: dir.appendingPathComponent("mine.flv")) == userFile)
        #expect(try FileManager.default.contentsOfDirectory(atPath: existing.path) == ["notes.txt"])
    }

    /// The source fails after the outputs opened: a node that is no camera, a clip whose first
    /// frame is cut short or is no frame, stdin whose header does not match the size given for it.
    @Test(arguments: ["camera", "truncated", "malformed", "stdin"])
    func aSourceThatFailsLeavesNothing(_ source: String) throws {
        let dir = try Project.scratchDirectory("failed-start")
        // The clips live apart, so that only what camcast made shows up in `dir`.
        let clip = try FileSourceTests.clip(in: try Project.scratchDirectory("failed-start-clip"))
        let bytes = try Data(contentsOf: clip)
        let header = bytes.prefix { $0 != 0x0A }.count + 1
        let arguments: [String]
        var shell: String?
        var named: String
        switch source {
        case "camera":
            (arguments, named) = (["--source", "/dev/null"], "/dev/null")
        case "truncated":
            let cut = clip.deletingLastPathComponent().appendingPathComponent("cut.y4m")
            try bytes.prefix(header + 200).write(to: cut)
            (arguments, named) = (["--source", cut.path], "\(cut.path): y4m stream ended inside frame 0")
        case "malformed":
            let bad = clip.deletingLastPathComponent().appendingPathComponent("bad.y4m")
            try (bytes.prefix(header) + Data(repeating: 0, count: 200_000)).write(to: bad)
            (arguments, named) = (["--source", bad.path], "\(bad.path): y4m frame 0 does not start with FRAME")
        default:
            shell = "cat '\(clip.path)'"
            (arguments, named) = (["--source", "-", "--size", "640x480"], "the y4m input is 320x180@30 fps")
        }
        let outcome = try Self.run(
            ["run", "--duration", "2", "--output", "a.flv", "--output", "a.h264", "--record", "rec"] + arguments, in: dir, shell: shell)
        #expect(outcome.status == 78, "\(outcome.error)")
        #expect(outcome.error.contains(named), "\(outcome.error)")
        #expect(outcome.left.isEmpty, "left behind: \(outcome.left)")
    }

    /// The encoder opens before any output does, so its failure has nothing to take away; this
    /// keeps it so. Exit 1, not 78: a hardware encoder that is busy may open at the next start.
    @Test func anEncoderThatDoesNotOpenLeavesNothing() throws {
        let dir = try Project.scratchDirectory("failed-start")
        let outcome = try Self.run(
            Self.testPattern + ["--encoder", "avcodec:h264_v4l2m2m", "--output", "a.flv", "--record", "rec"], in: dir)
        #expect(outcome.status == 1, "\(outcome.error)")
        #expect(outcome.error.contains("encoder did not open"), "\(outcome.error)")
        #expect(outcome.left.isEmpty, "left behind: \(outcome.left)")
    }
}
