import Logging
import Media
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The operator's HTTP endpoint as a Service of the daemon's group: listens where `http.listen`
/// says, answers from `StatusEndpoints`, and rebinds when a reload changes the address.
///
/// Runs on an event loop of its own (one thread), never on the capture, encoder or output
/// threads; it reads the registry's atomics and small locks only.
public final class StatusHTTPServer: Service, Sendable {
    public struct Listen: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var credentials: BasicCredentials?

        public init(host: String, port: Int, credentials: BasicCredentials?) {
            self.host = host
            self.port = port
            self.credentials = credentials
        }
    }

    /// Connections at once, and from one address: beyond them the stalest gives way
    /// (`ConnectionTable`). 64 idle connections cost well under a megabyte.
    static let limits = ConnectionTable.Limits(slots: 64, perAddress: 32)
    /// A connection has this long to send a whole request, from its opening or its previous
    /// answer (`RequestDeadlineHandler`): seconds, not the client's whim. A scraper sends its
    /// request within a millisecond of connecting; a person's browser within a round trip.
    static let requestDeadline = TimeAmount.seconds(5)
    /// Connections one read of the listener accepts (its `maxMessagesPerRead`), before the loop
    /// reads any of them.
    static let acceptedPerRead = 16

    private let endpoints: StatusEndpoints
    private let logger: Logger
    private let listen: Lock<Listen?>
    private let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation
    /// The address actually bound (port 0 picks one), for tests and the log.
    public let boundPort = Atomic<Int>(0)

    public init(listen: Listen?, endpoints: StatusEndpoints, logger: Logger) {
        self.listen = Lock(listen)
        self.endpoints = endpoints
        self.logger = logger
        (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// A reload's new settings: credentials apply to the next request; a new address rebinds.
    public func apply(_ new: Listen?) {
        let rebind = listen.withLock { current -> Bool in
            defer { current = new }
            return current?.host != new?.host || current?.port != new?.port
        }
        if rebind { changed.yield() }
    }

    public func run() async throws {
        // Counted for the connection table: which connections the loop has had a turn to read.
        let turns = EventLoopTurns()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1, metricsDelegate: turns)
        await cancelWhenGracefulShutdown {
            var iterator = self.changes.makeAsyncIterator()
            while !Task.isCancelled {
                let channel = await self.bind(on: group, turns: turns)
                // Until a reload changes the address or the group shuts down.
                _ = await iterator.next()
                try? await channel?.close()
                self.boundPort.store(0, ordering: .relaxed)
            }
        }
        try? await group.shutdownGracefully()
    }

    private func bind(on group: MultiThreadedEventLoopGroup, turns: EventLoopTurns) async -> (any Channel)? {
        guard let address = listen.withLock({ $0 }) else { return nil }
        // One event loop: every connection of this listener, and so the table, lives on it.
        let table = ConnectionTable(limits: Self.limits, eventLoop: group.next(), turns: turns)
        let credentials: @Sendable () -> BasicCredentials? = { [self] in listen.withLock { $0?.credentials } }
        let endpoints = self.endpoints
        let bootstrap = ServerBootstrap(group: group)
            // Room in the kernel's queue for a crowd that reconnects as fast as it is closed: a
            // connection the full queue drops waits for TCP's retry (1 s), however fast the
            // table would have made room for it. Accepted a few at a time, so the queue drains; what
            // two such reads accept is what the table may hold beyond its limits until the loop
            // has had a turn to read it.
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.maxMessagesPerRead, value: UInt(Self.acceptedPerRead))
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                table.admit(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.configureHTTPServerPipeline(withErrorHandling: true)
                    try sync.addHandler(RequestDeadlineHandler(deadline: Self.requestDeadline, table: table))
                    try sync.addHandler(StatusHTTPHandler(endpoints: endpoints, credentials: credentials))
                }
            }
            .childChannelOption(.maxMessagesPerRead, value: 1)
        do {
            let channel = try await bootstrap.bind(host: address.host, port: address.port).get()
            let port = channel.localAddress?.port ?? address.port
            boundPort.store(port, ordering: .relaxed)
            logger.info("http: listening", metadata: ["address": "\(address.host):\(port)", "auth": "\(address.credentials != nil ? "basic" : "none")"])
            return channel
        } catch {
            // A monitoring clash (a second instance on the default port) must not take a camera off
            // the air: the stream goes on; the message names the key to change.
            logger.warning(
                "http: cannot listen on http.listen \(address.host):\(address.port) (another camcast instance? give each its own port); the stream goes on without the endpoint",
                metadata: ["error": "\(error)"])
            return nil
        }
    }
}
