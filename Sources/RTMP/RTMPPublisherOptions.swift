import Logging
import Media

/// Tunables for `RTMPPublisher`.
public struct RTMPPublisherOptions: Sendable, Hashable {
    /// Budget for TCP connect, and separately for the RTMP handshake + connect + publish
    /// exchange (librtmp's receive timeout).
    public var connectTimeoutSeconds: Int = 10
    /// After connect: SO_SNDTIMEO and TCP_USER_TIMEOUT on the socket, because librtmp 2.4
    /// has only a receive timeout and a blocked `send()` would otherwise hang the publisher
    /// thread until the kernel gives up (minutes).
    public var sendTimeoutSeconds: Int = 10
    /// Chunk size announced to the server after publish starts (RTMP spec §5.4.1).
    /// librtmp 2.4 never announces one and sends 128-byte chunks, one `send()` each;
    /// 128 keeps that behaviour.
    public var outgoingChunkSize: Int = 4096
    /// After NetStream.Publish.Start, how long `connect()` keeps watching for the server to
    /// close the connection anyway. nginx-rtmp answers a publish that `deny publish` or a
    /// failed `on_publish` refuses with Publish.Start and then closes; without this window
    /// that refusal would surface only as a failed send. 0 disables the check.
    public var publishSettleMilliseconds: Int = 200
    /// TCP_NOTSENT_LOWAT: a `send()` blocks while more than this many bytes wait unsent in the
    /// kernel. Without it the kernel buffers up to 4 MiB — minutes of video on a slow link — so
    /// a congested connection would hide its backlog there, out of reach of the send queue's
    /// drop-to-keyframe policy. 0 leaves the kernel default.
    public var unsentLowWatermarkBytes: Int = 0
    /// The most severe level librtmp's own log lines are logged at; nil keeps its levels (one
    /// step milder, see `LibrtmpLogSink`). A caller that reports every failure itself (a
    /// reconnect loop) caps them at `.debug`, so one failure is one line.
    public var librtmpLogLevelCap: Logger.Level?
    /// librtmp's own debug lines (every AMF property of every server reply, handshake details).
    /// Off, only the few debug lines Camcast classifies failures by are formatted at all: the
    /// rest would format server data, at a CPU cost the server controls. For diagnosing a server.
    public var librtmpDebugLogging: Bool = false
    /// rtmps:// only: a PEM file of CA certificates trusted besides the system store
    /// (config `network.tls_ca_file`, `--tls-ca-file`). The chain and host name are always checked.
    public var tlsCAFile: String?
    /// The video codec's FourCC ("avc1" for H.264, "hvc1" for H.265), announced in the connect
    /// command's Enhanced RTMP v2 `fourCcList`; nil announces none.
    public var videoFourCC: String? = "avc1"
    /// The interface or local address the TCP connection is bound to (config `outputs[].interface`,
    /// `source_address`); nil lets the routing table choose.
    public var uplink: Uplink?

    public init(connectTimeoutSeconds: Int = 10, sendTimeoutSeconds: Int = 10, outgoingChunkSize: Int = 4096,
                publishSettleMilliseconds: Int = 200, unsentLowWatermarkBytes: Int = 0,
                librtmpLogLevelCap: Logger.Level? = nil, librtmpDebugLogging: Bool = false) {
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.sendTimeoutSeconds = sendTimeoutSeconds
        self.outgoingChunkSize = outgoingChunkSize
        self.publishSettleMilliseconds = publishSettleMilliseconds
        self.unsentLowWatermarkBytes = unsentLowWatermarkBytes
        self.librtmpLogLevelCap = librtmpLogLevelCap
        self.librtmpDebugLogging = librtmpDebugLogging
    }
}
