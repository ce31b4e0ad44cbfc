import Media

/// One destination of the encoded stream: an RTMP server or a file. Each output muxes the
/// codec-neutral packets for itself.
///
/// `write` is called for every packet (on the capture thread after the encoder released its lock,
/// or in batches on the interleaver's thread) and must not block for long; an output that fails later (a dropped connection, a full
/// disk) reports it through the failure handler it was made with.
package protocol StreamOutput: AnyObject, Sendable {
    /// How the output appears in logs and errors; never contains a stream key.
    var name: String { get }
    /// Creates the file or starts connecting; throws if the output cannot start at all. Never
    /// waits for a server.
    func open() throws(OutputFailure)
    func write(_ packet: MediaPacket)
    /// `packets` in order, as `write` each would; an output with a lock of its own takes it once.
    func write(contentsOf packets: [MediaPacket])
    /// Sends what is still queued (bounded by `drainSeconds`), ends the stream with the AVC
    /// end-of-sequence tag at stream time `endTime` (ms), and closes.
    func finish(endTime: Int64, drainSeconds: Double)
    /// Queue, drop and reconnect figures for the status line (see OutputStatistics.swift).
    var statistics: OutputStatistics { get }
    /// What the output's network connection carries now (adaptive bitrate); nil by default.
    var link: LinkSample? { get }
}

extension StreamOutput {
    package func write(contentsOf packets: [MediaPacket]) {
        for packet in packets { write(packet) }
    }

    /// Outputs without a network connection (files) constrain no bitrate.
    package var link: LinkSample? { nil }
}
