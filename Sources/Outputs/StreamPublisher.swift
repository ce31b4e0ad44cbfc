import RTMP
import RTMPAddress

/// What an RTMP output needs from one connection to a server: librtmp's `RTMPPublisher` in the
/// daemon, a scripted fake in tests (so the publish loop is tested without a server, as
/// swift-nio's `EmbeddedChannel` tests a handler without a socket).
///
/// One instance serves one connection attempt and is used by one thread at a time (the output's
/// publisher thread), like `RTMPPublisher` itself.
package protocol StreamPublisher: ConnectCancelling {
    /// TCP, handshake, connect and publish, bounded by the connect timeout.
    func connect() throws(RTMPError)
    /// Takes the message: a publisher may send its storage in place and leave garbage in it.
    func send(_ message: consuming RTMPMediaMessage) throws(RTMPError)
    /// Unpublishes and closes. Idempotent.
    func close()
    /// From any thread: ends a `connect` in progress at once, and makes one not yet started fail
    /// (the output is stopping). The server sees the connection close, never a publish the
    /// output had not sent yet.
    func cancelConnect()
    /// For the watchdog: the live connection's progress and a way to cut it; nil if the
    /// publisher has none.
    var connectionWatch: RTMPConnectionWatch? { get }
    /// While publishing, without waiting: a reconnect request the server has sent since the last
    /// call (Enhanced RTMP v2), or nil.
    func takeReconnectRequest() -> RTMPReconnectRequest?
}

extension StreamPublisher {
    /// A publisher whose servers never ask to reconnect.
    package func takeReconnectRequest() -> RTMPReconnectRequest? { nil }
}

/// Makes a fresh publisher for each attempt (librtmp state is never reused, design invariant 3), to
/// the output's URL, or to where a server's reconnect request moved it.
package typealias StreamPublisherFactory = @Sendable (RTMPURL) -> any StreamPublisher

/// What a stop needs from a network output's attempt under way, whatever its transport (an RTMP
/// publisher, an SRT caller): a way to end its connect at once, from any thread.
package protocol ConnectCancelling: AnyObject {
    func cancelConnect()
}
