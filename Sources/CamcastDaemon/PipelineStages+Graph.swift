import Encoder
import Media
import Outputs
import Telemetry

extension PipelineStages {
    /// The kernel names of the pipeline's threads (`DedicatedThread(name:)`); the graph names the
    /// same ones, and a test finds each in /proc/PID/task/*/comm.
    enum ThreadName {
        static let capture = SourceThreadName.capture
        static let encoder = EncoderStage.threadName
        static let audio = SourceThreadName.audio
        static let interleaver = PacketInterleaver.threadName
    }

    /// The graph as it runs now, read from the stages themselves: the source, the encoder session
    /// and the outputs in force (a reload's changes included), each hand-off's queue with its
    /// depth and drops. `name` gives each output the name its meter has (`rtmp-1`);
    /// `droppedAtEncoder`: the pictures the encoder stage's full queue refused.
    func graph(name: (OutputTarget) -> String, droppedAtEncoder: Int) -> PipelineGraph {
        let settings = settings.withLock { $0 }
        let session = encoder.settings
        var graph = PipelineGraph()
        let video = settings.encoder
        graph.nodes.append(.init(name: "video-source", detail: "\(settings.source), \(video.frameRate) fps", thread: ThreadName.capture))
        // x265 reads planar pictures only; the others take a camera's NV12 as it is.
        let format = encoderWantsI420.load(ordering: .relaxed) ? "I420" : "I420 (NV12 passes as is)"
        graph.nodes.append(.init(name: "conversion", detail: "to \(video.size) \(format)", thread: ThreadName.capture))
        let items = settings.overlay?.items.count ?? 0
        graph.nodes.append(.init(
            name: "overlay", detail: items == 0 ? "off: pictures pass as they are" : "\(items) text item\(items == 1 ? "" : "s")",
            thread: ThreadName.capture))
        graph.nodes.append(.init(
            name: "encoder", detail: "\(session.encoderName) \(session.codec) \(session.bitrateKbps) kbit/s", thread: ThreadName.encoder))
        graph.edges.append(.init(from: "video-source", to: "conversion"))
        graph.edges.append(.init(from: "conversion", to: "overlay"))
        graph.edges.append(.init(
            from: "overlay", to: "encoder",
            queue: .init(
                bound: EncoderStage.queueDepth, unit: "pictures", whenFull: encoderStage.upstream == .flatOut ? "wait" : "drop",
                depth: encoderStage.queueDepth, dropped: droppedAtEncoder)))
        // Without sound there is no second track to wait for: the pictures go to the outputs.
        var feedsOutputs = "encoder"
        if let audio = settings.audio, let interleaver {
            graph.nodes.append(.init(name: "audio-source", detail: audio.sourceDescription, thread: ThreadName.audio))
            graph.nodes.append(.init(name: "audio-encoder", detail: "AAC \(audio.bitrateKbps) kbit/s", thread: ThreadName.audio))
            graph.nodes.append(.init(
                name: "interleaver",
                detail: "time order, waits ≤ \(interleaver.windowMilliseconds) ms for the other track",
                thread: ThreadName.interleaver))
            graph.edges.append(.init(from: "audio-source", to: "audio-encoder"))
            // The interleaver holds packets for up to its window, not a count: no bounded queue.
            graph.edges.append(.init(from: "encoder", to: "interleaver"))
            graph.edges.append(.init(from: "audio-encoder", to: "interleaver"))
            feedsOutputs = "interleaver"
        }
        for entry in outputs.withLock({ $0.outputs }) {
            let output = name(entry.target)
            let statistics = entry.output.statistics
            let scheduled = settings.outputSchedules[entry.target] != nil ? ", on a schedule" : ""
            graph.nodes.append(.init(
                name: output, detail: "\(entry.target.safeDescription)\(scheduled)", thread: entry.output.threadName))
            graph.edges.append(.init(
                from: feedsOutputs, to: output,
                queue: .init(
                    bound: statistics.queueBoundMilliseconds, unit: "ms", whenFull: "drop to keyframe",
                    depth: statistics.queuedMilliseconds, dropped: statistics.droppedFrames)))
        }
        return graph
    }
}
