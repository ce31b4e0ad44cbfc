import Foundation
import TestSupport
import Testing

/// One input a new user gets wrong, and the words the refusal must use (issue 25, issue 23 #3).
struct UserMistake: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: [String]
    /// Every one of these must be in the problem line.
    var says: [String]
    /// None of these may be anywhere in the output.
    var never: [String] = []

    var testDescription: String { name }
}

private let mistakes: [UserMistake] = [
    .init(name: "URL without a key", arguments: ["--output", "rtmp://127.0.0.1:19460/rec"],
          says: ["outputs[0].url", "`rtmp://127.0.0.1:19460/rec`", "the application `rec`", "the key is missing"]),
    .init(name: "trailing slash", arguments: ["--output", "rtmp://127.0.0.1:19460/rec/SECRETKEY25/"],
          says: ["`rtmp://127.0.0.1:19460/rec/****/`", "ends with `/` after the stream key"], never: ["SECRETKEY25"]),
    .init(name: "misspelt built-in source", arguments: ["--source", "testpatern", "--output", "/tmp/x.flv"],
          says: ["source.file", "no such file `testpatern`", "did you mean testpattern"]),
    .init(name: "negative bitrate", arguments: ["--bitrate", "-5", "--output", "/tmp/x.flv"],
          says: ["encoder.bitrate_kbps", "-5 is out of range"]),
    .init(name: "an MP4 as source", arguments: ["--source", "/tmp/clip.mp4", "--output", "/tmp/x.flv"],
          says: ["source.file", "does not read containers", "`ffmpeg -i /tmp/clip.mp4 -pix_fmt yuv420p /tmp/clip.y4m`"],
          never: ["source.pixel_format"]),
]

/// Each mistake above is refused with exit 78 and a message in the user's words.
@Suite struct UserMessageTests {
    @Test(arguments: mistakes)
    func aMistakeIsExplained(_ mistake: UserMistake) throws {
        let result = try ProcessRunner.run(Project.camcastBinary.path, ["run"] + mistake.arguments, timeout: 30)
        #expect(result.status == 78, "\(result.stderr)")
        let line = result.stderr.split(separator: "\n").first { $0.hasPrefix("camcast: ") }.map(String.init) ?? ""
        for words in mistake.says { #expect(line.contains(words), "\(result.stderr)") }
        for words in mistake.never { #expect(!(result.stdout + result.stderr).contains(words), "\(result.stderr)") }
    }

    @Test func aTabInTheYAMLIsCalledATab() throws {
        let dir = try Project.scratchDirectory("tab")
        let file = dir.appendingPathComponent("camcast.yaml")
        try "source:\n\ttype: testpattern\noutputs:\n  - path: /tmp/x.flv\n".write(to: file, atomically: true, encoding: .utf8)
        for arguments in [["check-config", file.path], ["run", "--config", file.path]] {
            let result = try ProcessRunner.run(Project.camcastBinary.path, arguments, timeout: 30)
            #expect(result.status == 78)
            #expect(result.stderr.contains("camcast.yaml:2:1: invalid YAML: a tab in the indentation; YAML indents with spaces only"), "\(result.stderr)")
        }
    }

    /// A `?` in a key is not split off silently: the warning says how it is read and sent.
    @Test func aQueryInTheURLIsExplained() throws {
        let dir = try Project.scratchDirectory("query")
        let file = dir.appendingPathComponent("camcast.yaml")
        try "outputs:\n  - url: rtmp://127.0.0.1/live/SECRETKEY26?part&two=SECRETVALUE26\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(Project.camcastBinary.path, ["check-config", file.path], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("the text after `?` is read as a query"), "\(result.stderr)")
        #expect(result.stderr.contains("A `?` or `&` that is part of the key itself is therefore sent unchanged"))
        #expect(!(result.stdout + result.stderr).contains("SECRETKEY26") && !(result.stdout + result.stderr).contains("SECRETVALUE26"))
    }

    /// `--version`, and the same version on the first log line of a run.
    @Test func theVersionIsShownAndLogged() throws {
        let version = try ProcessRunner.run(Project.camcastBinary.path, ["--version"], timeout: 30)
        #expect(version.status == 0)
        let text = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text.wholeMatch(of: /camcast \d+\.\d+\.\d+.*/) != nil, "\(text)")
        let dir = try Project.scratchDirectory("version")
        let run = try ProcessRunner.run(
            Project.camcastBinary.path, ["run", "--size", "320x180", "--duration", "0.2", "--output", dir.appendingPathComponent("v.flv").path],
            timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let first = run.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains("\(text) starting"), "\(run.stderr)")
    }
}
