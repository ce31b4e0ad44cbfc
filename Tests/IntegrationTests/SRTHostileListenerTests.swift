import Foundation
import SRT
import TestSupport
import Testing

/// Hostile SRT listeners (issue 42): UDP peers that answer the caller's handshake with random
/// bytes, with only the first 20 bytes of each packet, or not at all. One camcast with an SRT
/// output to each and an FLV file beside them: every attempt fails in words and is tried again,
/// the daemon neither crashes nor grows while they go on, libsrt's own complaints (20,000 lines a
/// second to stderr before, for the truncated answers) reach the log rate-limited and in its
/// format, and the file output gets every picture.
///
/// Not here: a peer that sends the caller's own packets back. libsrt takes its own induction for
/// the listener's answer and "connects" to the reflection; Camcast then streams into it (left
/// as a known limit in issue 42's note).
@Suite(.serialized)
struct SRTHostileListenerTests {
    static let modes = ["garbage", "truncated", "silent"]

    /// The peer: binds a free UDP port on loopback, writes it to the file named, answers as `mode` says.
    static let peer = """
        import os, socket, sys
        mode, port_file = sys.argv[1], sys.argv[2]
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        with open(port_file + ".tmp", "w") as f:
            f.write(str(s.getsockname()[1]))
        os.rename(port_file + ".tmp", port_file)
        while True:
            data, address = s.recvfrom(65536)
            if mode == "garbage":
                s.sendto(os.urandom(len(data)), address)
            elif mode == "truncated":
                s.sendto(data[:20], address)
        """

    @Test(.timeLimit(.minutes(3)))
    func garbageTruncationAndSilenceAreRetriedInWords() throws {
        let dir = try Project.scratchDirectory("srt-hostile")
        let group = ProcessGroup()
        defer { group.stopAll() }
        var ports: [String: Int] = [:]
        for mode in Self.modes {
            let portFile = dir.appendingPathComponent("\(mode).port").path
            _ = try group.start("/usr/bin/python3", ["-c", Self.peer, mode, portFile])
            let bound = waitUntil(10) { FileManager.default.fileExists(atPath: portFile) }
            try #require(bound, "the \(mode) peer did not start")
            ports[mode] = Int(try String(contentsOfFile: portFile, encoding: .utf8))
        }
        let reference = dir.appendingPathComponent("reference.flv")
        let outputs = Self.modes.map { "  - url: srt://127.0.0.1:\(ports[$0]!)\n    name: \($0)" }.joined(separator: "\n")
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            source:
              type: testpattern
              size: 320x180
              fps: 15
            encoder:
              bitrate_kbps: 300
            network:
              connect_timeout_seconds: 2
            outputs:
            \(outputs)
              - path: "\(reference.path)"

            """.write(to: config, atomically: true, encoding: .utf8)
        let camcast = try group.start(Project.camcastBinary.path, ["run", "--config", config.path])
        func failures(_ mode: String) -> Int {
            camcast.logLines(containing: "SRT connect failed").filter { $0.contains(":\(ports[mode]!)") }.count
        }
        // Two failed attempts each: the daemon's memory with the pools filled; then two more each.
        let twice = waitUntil(90) { Self.modes.allSatisfy { failures($0) >= 2 } }
        let before = ProcessMemory.residentKB(of: camcast.pid)
        let fourTimes = waitUntil(120) { Self.modes.allSatisfy { failures($0) >= 4 } }
        let after = ProcessMemory.residentKB(of: camcast.pid)
        camcast.signal(SIGINT)
        let result = try camcast.wait(timeout: 30)

        #expect(twice && fourTimes, "\(Self.modes.map { "\($0): \(failures($0))" }) \(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        // Each failure says what libsrt said, in words, and when the next attempt comes.
        for line in camcast.logLines(containing: "SRT connect failed") {
            let error = CamcastLog.value("error", in: line) ?? ""
            #expect(error.count > 5 && CamcastLog.value("retry_in", in: line) != nil, "\(line)")
        }
        print("srt hostile: \(Self.modes.map { "\($0) \(failures($0)) attempts failed" }.joined(separator: ", ")); RSS \(before ?? 0) → \(after ?? 0) kB")
        for mode in Self.modes {
            print("srt hostile \(mode): \(camcast.logLines(containing: "SRT connect failed").last { $0.contains(":\(ports[mode]!)") }.flatMap { CamcastLog.value("error", in: $0) } ?? "?")")
        }
        // libsrt's lines: only through the log, in its format, within the rate limit over the run.
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("20") }, "a line not in the log's format: \(lines.first { !$0.hasPrefix("20") } ?? "")")
        let libsrt = lines.filter { $0.contains(" libsrt: ") }
        if let first = lines.first.flatMap({ CamcastLog.time(of: String($0)) }), let last = lines.last.flatMap({ CamcastLog.time(of: String($0)) }) {
            let allowed = SRTLibraryLog.burst + SRTLibraryLog.perSecond * last.timeIntervalSince(first) + 1
            print("srt hostile: \(libsrt.count) libsrt lines in \(String(format: "%.1f", last.timeIntervalSince(first))) s (at most \(Int(allowed)))")
            #expect(Double(libsrt.count) <= allowed, "\(libsrt.count) libsrt lines")
        }
        // Bounded: six more failed connects (libsrt's socket, its threads' buffers, each closed)
        // leave the resident size where the first six left it, within 2 MB of allocator noise.
        // Not under AddressSanitizer (the README's manual run): its quarantine keeps every freed
        // block (+98 to +108 MB over the six, seen) and its allocator reuses less even without
        // one (+9.7 MB with quarantine_size_mb=0), so no bound there says anything about a leak;
        // with detect_leaks=1 the daemon made no LeakSanitizer report.
        let (first, second) = try (#require(before), #require(after))
        if !Project.camcastIsAddressSanitized {
            #expect(second - first < 2048, "RSS \(first) → \(second) kB over six failed connects")
        }
        // The file output beside them was not held up: every picture the encoder made is there.
        let video = try ProbedVideo.probe(reference)
        #expect(try ProbedVideo.decodeErrors(reference).isEmpty)
        #expect(CamcastLog.stopCount("frames", in: result.stderr) == video.decodedFrames, "\(video.decodedFrames) decoded")
    }
}

