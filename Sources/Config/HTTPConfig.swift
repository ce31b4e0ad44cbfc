extension CamcastConfig {
    /// `http:` — the operator's endpoint (/metrics, /status, /healthz, /, /snapshot.jpg).
    public struct HTTPConfig: Sendable, Equatable {
        /// `host:port` to listen on; empty turns the endpoint off. Loopback by default: another
        /// address needs `credentialsFile`.
        public var listen = "127.0.0.1:9935"
        /// A file of `user:password` lines (mode 0600) for HTTP Basic; nil: no password (loopback only).
        public var credentialsFile: String?

        public init() {}

        /// `listen` split into host and port; nil when empty (off). Brackets around an IPv6 host are dropped.
        public var address: (host: String, port: Int)? {
            guard !listen.isEmpty, let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]) else {
                return nil
            }
            var host = String(listen[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return (host, port)
        }

        /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
        public static func isLoopback(_ host: String) -> Bool {
            host == "localhost" || host == "::1" || host.hasPrefix("127.")
        }
    }
}
