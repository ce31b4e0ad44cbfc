import Foundation
import TestSupport
import Testing

/// The pipeline's graph as the daemon prints it (issue 39 #1), for four configurations: its
/// stages and the threads that run them, and each hand-off's queue with its bound and what a full
/// one does. Read three ways that must agree — /status's `graph` while it runs, SIGUSR1's log lines
/// and the stop summary's — and against the kernel: every thread the graph names is one of the
/// daemon's threads in /proc/PID/task/*/comm. The README's picture is checked against the third
/// configuration's printed graph.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct PipelineGraphTests {
    static let streamKey = "gRaPh-KeY-0815"

    /// /status's `graph`, decoded by the test's own types (not the product's).
    struct Graph: Decodable, Equatable {
        struct Node: Decodable, Equatable {
            var name: String
            var detail: String
            var thread: String
        }
        struct Queue: Decodable, Equatable {
            var bound: Int
            var unit: String
            var whenFull: String
            var depth: Int
            var dropped: Int
        }
        struct Edge: Decodable, Equatable {
            var from: String
            var to: String
            var queue: Queue?
        }
        var nodes: [Node]
        var edges: [Edge]

        /// `name [thread]` per node and `from → to (bound unit, full)` per edge: what does not
        /// change while one configuration runs.
        var shape: [String] {
            nodes.map { "\($0.name) [\($0.thread)]" }
                + edges.map { edge in "\(edge.from) → \(edge.to)" + (edge.queue.map { " (\($0.bound) \($0.unit), \($0.whenFull))" } ?? "") }
        }
    }

    /// The graph the same way from printed lines (the stop summary's or SIGUSR1's), figures left
    /// out; the details are checked against /status's.
    static func shape(printed lines: [String]) -> (shape: [String], details: [String: String], drops: [String: Int]) {
        var nodes: [String] = []
        var edges: [String] = []
        var details: [String: String] = [:]
        var drops: [String: Int] = [:]
        for line in lines {
            if let edge = line.wholeMatch(of: /(\S+) → (\S+)(?:  queue ≤ (\d+) (\w+), full: ([^;]+); (\d+)(?: ms)? queued, (\d+) dropped)?/) {
                var text = "\(edge.1) → \(edge.2)"
                if let bound = edge.3, let unit = edge.4, let full = edge.5 { text += " (\(bound) \(unit), \(full))" }
                edges.append(text)
                if let dropped = edge.7 { drops["\(edge.1) → \(edge.2)"] = Int(dropped) }
            } else if let node = line.wholeMatch(of: /(\S+) +(.*)  \[thread (.+)\]/) {
                nodes.append("\(node.1) [\(node.3)]")
                details[String(node.1)] = String(node.2)
            }
        }
        return (nodes + edges, details, drops)
    }

    /// The lines a log holds after `prefix` ("graph: " in the stop summary, "status: graph: " for SIGUSR1).
    static func printed(_ log: String, after prefix: String) -> [String] {
        log.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: " \(prefix)") else { return nil }
            return String(line[range.upperBound...])
        }
    }

    /// The kernel's names of the process's threads.
    static func threadNames(of pid: Int32) throws -> Set<String> {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return Set(tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .newlines) })
    }

    struct Run {
        var status: Graph
        var usr1: [String]
        var stop: [String]
        var log: String
        var threads: Set<String>
    }

    /// Runs camcast with `config` (its `http.listen` added), reads the graph from /status once
    /// pictures flow (and again after `midway`, which may reload), logs it with SIGUSR1, stops it.
    static func run(
        _ name: String, config body: String, waitFor ready: (Graph) -> Bool = { _ in true },
        midway: ((RunningProcess, URL) throws -> Void)? = nil
    ) throws -> Run {
        try OperatorViewTests.requireTool("curl")
        let dir = try Project.scratchDirectory("graph-\(name)")
        let port = Int(try freeLoopbackPort())
        let config = dir.appendingPathComponent("camcast.yaml")
        let text = body.replacingOccurrences(of: "DIR", with: dir.path) + "http:\n  listen: 127.0.0.1:\(port)\n"
        try text.write(to: config, atomically: true, encoding: .utf8)
        let camcast = try Daemon.start(["run", "--config", config.path])
        defer { camcast.signal(SIGKILL); _ = try? camcast.wait(timeout: 5) }
        try #require(Daemon.waitForLog(camcast, "info ready", timeout: 60), "\(camcast.stderrSoFar)")
        try midway?(camcast, config)
        let http = OperatorHTTP(port: port)
        var graph: Graph?
        _ = try http.wait("/status", timeout: 30) { reply in
            guard reply.status == 200, let data = reply.body.data(using: .utf8),
                  let document = try? JSONDecoder().decode([String: GraphField].self, from: data),
                  case .graph(let found)? = document["graph"], ready(found) else { return false }
            graph = found
            return true
        }
        let status = try #require(graph, "no graph in /status\n\(camcast.stderrSoFar)")
        let threads = try threadNames(of: camcast.pid)
        camcast.signal(SIGUSR1)
        let lastEdge = status.edges.last.map { "status: graph: \($0.from) → \($0.to)" } ?? "status: graph:"
        #expect(Daemon.waitForLog(camcast, lastEdge, timeout: 10), "\(camcast.stderrSoFar)")
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(streamKey), "the stream key leaked into the log")
        return Run(
            status: status, usr1: printed(result.stderr, after: "status: graph: "),
            stop: printed(result.stderr, after: "info graph: "), log: result.stderr, threads: threads)
    }

    /// /status holds many keys of many types: only `graph` is decoded.
    enum GraphField: Decodable {
        case graph(Graph)
        case other

        init(from decoder: any Decoder) throws {
            if let graph = try? Graph(from: decoder) { self = .graph(graph) } else { self = .other }
        }
    }

    /// What every run must show, whatever the configuration: the three readings agree, each thread
    /// the graph names runs in the daemon, and the stop summary's drops are the graph's.
    static func expectConsistent(_ run: Run, _ expected: [String], _ name: String) {
        #expect(run.status.shape == expected, "\(name): /status's graph\n\(run.status.shape.joined(separator: "\n"))")
        let stop = shape(printed: run.stop)
        let usr1 = shape(printed: run.usr1)
        #expect(stop.shape == expected, "\(name): the stop summary's graph\n\(run.stop.joined(separator: "\n"))")
        #expect(usr1.shape == expected, "\(name): SIGUSR1's graph\n\(run.usr1.joined(separator: "\n"))")
        for node in run.status.nodes {
            #expect(stop.details[node.name] == node.detail, "\(name): \(node.name) printed as \(stop.details[node.name] ?? "nothing"), /status \(node.detail)")
            #expect(run.threads.contains(node.thread), "\(name): \(node.name) runs on \(node.thread), which is not among \(run.threads.sorted())")
        }
        let encoderDropped = CamcastLog.stopCount("encoder_dropped", in: run.log)
        #expect(stop.drops["overlay → encoder"] == encoderDropped, "\(name): the encoder's queue dropped \(stop.drops["overlay → encoder"] ?? -1), the summary says \(encoderDropped ?? -1)")
        let outputDrops = stop.drops.filter { !$0.key.hasSuffix("→ encoder") }.values.reduce(0, +)
        #expect(outputDrops == CamcastLog.stopCount("dropped", in: run.log), "\(name): the outputs' queues dropped \(outputDrops)")
    }

    static let video = """
        source:
          type: testpattern
          size: 320x180
          fps: 30
        encoder:
          preset: ultrafast
          bitrate_kbps: 400

        """

    static let videoNodes = ["video-source [capture]", "conversion [capture]", "overlay [capture]", "encoder [encoder]"]
    static let videoEdges = ["video-source → conversion", "conversion → overlay", "overlay → encoder (2 pictures, drop)"]

    @Test func videoOnly() throws {
        let run = try Self.run("video", config: Self.video + "audio:\n  source: none\noutputs:\n  - path: DIR/cam.flv\n")
        Self.expectConsistent(run, Self.videoNodes + ["flv-1 [writer]"] + Self.videoEdges + ["encoder → flv-1 (10000 ms, drop to keyframe)"], "video only")
        #expect(run.status.nodes.first { $0.name == "overlay" }?.detail == "off: pictures pass as they are")
        #expect(run.status.nodes.first { $0.name == "encoder" }?.detail.contains("h264") == true, "\(run.status.nodes)")
    }

    @Test func videoAndSound() throws {
        let run = try Self.run("sound", config: Self.video + "audio:\n  source: silent\noutputs:\n  - path: DIR/cam.flv\n")
        Self.expectConsistent(
            run,
            Self.videoNodes + ["audio-source [audio]", "audio-encoder [audio]", "interleaver [interleaver]", "flv-1 [writer]"]
                + Self.videoEdges + ["audio-source → audio-encoder", "encoder → interleaver", "audio-encoder → interleaver",
                                     "interleaver → flv-1 (10000 ms, drop to keyframe)"], "video and sound")
    }

    /// The README's configuration: the overlay, a segmented recording and two RTMP outputs, with sound.
    static func readmeConfiguration(server: RTMPServer) -> String {
        video + """
            audio:
              source: silent
            overlay:
              items:
                - text: "%H:%M:%S"
                  position: top-left
                  height: 24
            outputs:
              - url: \(server.url(app: "live", name: streamKey))
                name: primary
              - url: \(server.url(app: "rec", name: streamKey))
                name: backup
              - record: DIR/recordings
                segment_seconds: 60

            """
    }

    @Test func overlayRecordingAndTwoRTMPOutputs() throws {
        let server = try RTMPServer()
        defer { try? server.stop() }
        let run = try Self.run("outputs", config: Self.readmeConfiguration(server: server)) { graph in
            graph.nodes.count == 10
        }
        let outputs = ["primary [rtmp send]", "backup [rtmp send]", "record-1 [writer]"]
        Self.expectConsistent(
            run,
            Self.videoNodes + ["audio-source [audio]", "audio-encoder [audio]", "interleaver [interleaver]"] + outputs
                + Self.videoEdges + ["audio-source → audio-encoder", "encoder → interleaver", "audio-encoder → interleaver",
                                     "interleaver → primary (2000 ms, drop to keyframe)", "interleaver → backup (2000 ms, drop to keyframe)",
                                     "interleaver → record-1 (10000 ms, drop to keyframe)"], "overlay, recording, two RTMP outputs")
        #expect(run.status.nodes.first { $0.name == "overlay" }?.detail == "1 text item")
        let primary = try #require(run.status.nodes.first { $0.name == "primary" })
        #expect(primary.detail.hasPrefix("rtmp://127.0.0.1:") && !primary.detail.contains(Self.streamKey), "\(primary.detail)")

        // The README prints this configuration's graph: the same lines, the port and folder aside.
        let readme = try String(contentsOf: Project.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.firstRange(of: "<!-- graph: printed by PipelineGraphTests -->\n```\n"), "the README has no printed graph")
        let block = String(readme[start.upperBound...]).components(separatedBy: "\n```")[0]
        let printed = Self.shape(printed: block.split(separator: "\n").map { String($0.drop { $0 == " " }) })
        let ran = Self.shape(printed: run.stop)
        #expect(printed.shape == ran.shape, "README's graph\n\(block)\nthe run's\n\(run.stop.joined(separator: "\n"))")
        for (node, detail) in ran.details {
            let general = detail.replacing(/127\.0\.0\.1:\d+/, with: "127.0.0.1:1935")
                .replacing(/\/\S*\/recordings/, with: "/var/lib/camcast/recordings")
            #expect(printed.details[node] == general, "README: \(node) \(printed.details[node] ?? "missing"), the run: \(general)")
        }
    }

    /// H.265 after a reload from H.264: the graph shows the session in force, and the conversion
    /// making the planar pictures x265 reads.
    @Test func aCodecSwitchOnReloadShowsTheNewSession() throws {
        let flv = "DIR/cam.flv"
        let body = Self.video + "audio:\n  source: none\noutputs:\n  - path: \(flv)\n"
        let run = try Self.run("codec", config: body, waitFor: { graph in
            graph.nodes.first { $0.name == "encoder" }?.detail.contains("h265") == true
        }) { camcast, config in
            let before = try String(contentsOf: config, encoding: .utf8)
            try before.replacingOccurrences(of: "encoder:\n", with: "encoder:\n  codec: h265\n").write(to: config, atomically: true, encoding: .utf8)
            camcast.signal(SIGHUP)
            try #require(Daemon.waitForLog(camcast, "reload applied: codec h264 → h265", timeout: 20), "\(camcast.stderrSoFar)")
        }
        Self.expectConsistent(run, Self.videoNodes + ["flv-1 [writer]"] + Self.videoEdges + ["encoder → flv-1 (10000 ms, drop to keyframe)"], "H.265 after a switch")
        let encoder = try #require(run.status.nodes.first { $0.name == "encoder" })
        #expect(encoder.detail.contains("x265") && encoder.detail.contains("h265"), "\(encoder.detail)")
        #expect(run.status.nodes.first { $0.name == "conversion" }?.detail == "to 320x180 I420", "\(run.status.nodes)")
    }
}
