/// The pipeline as it runs: its stages (nodes), which thread runs each, and what joins them
/// (edges), with the bounded queue at each hand-off between threads — its bound, what a full one
/// does, how deep it is and what it dropped. Made from the running stages at report time
/// (`PipelineStages.graph`, the one place that reads the topology back), shown in /status and
/// printed in the stop summary, so an operator sees where a picture waits or is lost.
///
/// Node names are the stages' (`video-source`, `conversion`, `overlay`, `encoder`,
/// `audio-source`, `audio-encoder`, `interleaver`) and the outputs' own (`rtmp-1`, or the name the
/// config gives). A node's `thread` is the name the kernel shows for that thread
/// (/proc/PID/task/TID/comm), so `ps -L` or `top -H` finds it.
public struct PipelineGraph: Sendable, Equatable, Codable {
    public struct Node: Sendable, Equatable, Codable {
        public var name: String
        /// What the stage is made of, in the operator's words: `testpattern`, `x264 H.264 1200 kbit/s`.
        public var detail: String
        /// The thread that runs it (its kernel name, at most 15 bytes).
        public var thread: String

        public init(name: String, detail: String, thread: String) {
            self.name = name
            self.detail = detail
            self.thread = thread
        }
    }

    /// A hand-off from one thread to another.
    public struct Queue: Sendable, Equatable, Codable {
        /// How much it holds: `bound` items of `unit` (`pictures`; `ms` of media for an output's
        /// queue, which is bounded in capture time).
        public var bound: Int
        public var unit: String
        /// What a push into a full queue does: `drop` (a live source never waits), `wait`
        /// (backpressure, a file played flat out), `drop to keyframe` (an output that falls
        /// behind drops what is queued and resumes at the next keyframe).
        public var whenFull: String
        /// Items (or milliseconds) in it now.
        public var depth: Int
        /// Pictures dropped at it since the start.
        public var dropped: Int

        public init(bound: Int, unit: String, whenFull: String, depth: Int, dropped: Int) {
            self.bound = bound
            self.unit = unit
            self.whenFull = whenFull
            self.depth = depth
            self.dropped = dropped
        }
    }

    public struct Edge: Sendable, Equatable, Codable {
        public var from: String
        public var to: String
        /// nil where both stages run on one thread: the call is the hand-off.
        public var queue: Queue?

        public init(from: String, to: String, queue: Queue? = nil) {
            self.from = from
            self.to = to
            self.queue = queue
        }
    }

    public var nodes: [Node]
    public var edges: [Edge]

    public init(nodes: [Node] = [], edges: [Edge] = []) {
        self.nodes = nodes
        self.edges = edges
    }

    /// The graph as text, one line per node and one per edge, in the order they were built
    /// (sources first, outputs last); each queue with its depth and drops now.
    public func lines() -> [String] {
        let width = nodes.map(\.name.count).max() ?? 0
        let nodeLines = nodes.map { node in
            node.name + String(repeating: " ", count: width - node.name.count) + "  \(node.detail)  [thread \(node.thread)]"
        }
        let edgeLines = edges.map { edge in
            var line = "\(edge.from) → \(edge.to)"
            if let queue = edge.queue {
                let depth = queue.unit == "ms" ? "\(queue.depth) ms" : "\(queue.depth)"
                line += "  queue ≤ \(queue.bound) \(queue.unit), full: \(queue.whenFull); \(depth) queued, \(queue.dropped) dropped"
            }
            return line
        }
        return nodeLines + edgeLines
    }
}
