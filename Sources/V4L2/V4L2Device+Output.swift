/// The output side: the node must take frames (a video output, or a mem2mem encoder's raw-frame
/// queue) by streaming I/O. Buffers are then requested, filled, queued and taken back through
/// `V4L2BufferPool` with the type this returns.
extension V4L2Device {
    /// The node's output queue type (single-planar preferred), or why there is none.
    public func outputQueueType() throws(V4L2QueueUnavailable) -> V4L2BufferType {
        guard let type = capabilities.outputBufferType else {
            throw V4L2QueueUnavailable(
                path: path, kind: "video output", reason: "capabilities are \(capabilities.names.joined(separator: ", "))")
        }
        guard capabilities.canStream else { throw V4L2QueueUnavailable(path: path, kind: "video output", reason: "no streaming I/O") }
        return type
    }
}
