/// One destination of the encoded stream: an RTMP server or a file.
///
/// `write` is called on the capture thread for every packet and must not block for long;
/// an output that fails later (a dropped connection, a full disk) reports it through the
/// failure handler it was made with.
protocol StreamOutput: AnyObject, Sendable {
    /// How the output appears in logs and errors; never contains a stream key.
    var name: String { get }
    /// Connects or creates the file; throws if the output cannot start at all.
    func open() throws(PipelineError)
    func write(_ packet: StreamPacket)
    /// Sends what is still queued (bounded by `drainSeconds`), ends the stream with the AVC
    /// end-of-sequence tag at `endTimestamp`, and closes.
    func finish(endTimestamp: UInt32, drainSeconds: Double)
    /// Queue, drop and reconnect figures for the status line (see OutputStatistics.swift).
    var statistics: OutputStatistics { get }
}
