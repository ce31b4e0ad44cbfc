/// A server's `onStatus` `NetConnection.Connect.ReconnectRequest` (Enhanced RTMP v2, "Reconnect
/// Request"): publish again, to `tcUrl` when it names one (absolute, or relative to the current
/// connection's tcUrl), else to the same address; switch at a media boundary, then leave the old
/// connection. A request, not an error: the old connection still works.
public struct RTMPReconnectRequest: Sendable, Equatable {
    /// The info object's `code`.
    public static let code = "NetConnection.Connect.ReconnectRequest"

    /// As the server sent it (nil: reconnect to the current address). Never logged as is: see
    /// `RTMPReconnectTarget`.
    public var tcUrl: String?
    /// The server's reason, with control characters escaped and the stream key masked.
    public var description: String?

    public init(tcUrl: String?, description: String?) {
        self.tcUrl = tcUrl
        self.description = description
    }
}
