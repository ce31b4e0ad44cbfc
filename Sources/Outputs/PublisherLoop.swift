import Logging
import Media
import RTMP
import SRT
import Synchronization
import Telemetry

/// Why a network connection failed, as the one publisher loop reads it, whatever the transport.
protocol NetworkConnectionError: Error, CustomStringConvertible {
    /// Which wait of the `ReconnectSchedule` it takes before the next attempt; `secondsSinceOwnCut`:
    /// how long ago Camcast itself cut a connection whose peer went silent (nil: it did not).
    func reconnectFailure(secondsSinceOwnCut: Double?) -> ReconnectSchedule.Failure
    /// The `reason` label of `camcast_output_connect_failures_total`: one of a fixed set.
    var metricReason: String { get }
    /// The uplink the output is bound to cannot carry a connection (`interface wwan0 is absent`);
    /// nil when the attempt failed otherwise.
    var uplinkReason: String? { get }
    /// Camcast cut this connection itself because the peer went silent: the server may not have
    /// seen it end (and may still hold the publish).
    var isDeadPeerCut: Bool { get }
}

/// The publisher thread's life, one for every network output (RTMP, SRT): connect, stream, and on
/// any failure wait (`PublisherRetries`, the `ReconnectSchedule`) and connect again, until a stop
/// or a failure the policy does not retry. Every step asks the output's `NetworkOutputState`
/// first, so a stop in any state is one transition and a stop during a wait opens no connection
/// (issue 14 #2). What differs between transports — how a connection is made, connected,
/// streamed on and closed — comes from the caller, as closures over its own connection type.
struct PublisherLoop {
    /// "RTMP", "SRT": the first word of the loop's log lines.
    let transport: String
    /// The output as logs show it (no stream key, no secret part of a stream id).
    let output: String
    let logger: Logger
    /// Whether the loop says "connected" at the first publish; RTMP's publisher says "RTMP
    /// publishing" with the server's address itself.
    let announcesFirstConnection: Bool
    /// More about a connection for its "connected" line (SRT's options).
    var connectionDetails: Logger.Metadata = [:]
    let requestKeyframe: @Sendable () -> Void

    /// Runs until the output ends. `make` makes a fresh connection for each attempt (never reused
    /// across attempts); `cancelling` is how a stop cancels its connect; `watch` is what the RTMP
    /// watchdog reads of a live one (nil for SRT); `stream` sends until the queue is closed and
    /// drained (nil: the state is drained and the connection closed) or the connection fails (its
    /// error; the connection closed); `close` closes one that failed to connect.
    func run<Connection, Failure: NetworkConnectionError>(
        retries: inout PublisherRetries, state: borrowing Lock<NetworkOutputState>,
        attempts: borrowing Atomic<Int>, reconnects: borrowing Atomic<Int>,
        make: () -> Connection, cancelling: (Connection) -> any ConnectCancelling,
        connect: (Connection) throws(Failure) -> Void, close: (Connection) -> Void,
        watch: (Connection) -> RTMPConnectionWatch? = { _ in nil }, stream: (Connection) -> Failure?
    ) {
        let meter = retries.meter
        var connections = 0
        /// When Camcast last cut a dead connection; nil once a publish succeeded after it.
        var ownCutAt: MonotonicTime?
        var uplinkNotice = UplinkWaitNotice()
        while true {
            // A stop during the wait lands here: no connection is opened.
            guard state.withLock({ if case .connecting = $0 { return true } else { return false } }) else { return }
            attempts.add(1, ordering: .relaxed)
            meter.attemptStarted()
            meter.enter(.connecting)
            let connection = make()
            guard state.withLock({ $0.attempting(with: cancelling(connection)) }) else { return }
            do throws(Failure) {
                try connect(connection)
            } catch {
                close(connection)
                // Nothing is queued until there is a connection to send it on.
                let sinceCut = ownCutAt.map { Double(MonotonicTime.now().nanoseconds(since: $0)) / 1e9 }
                guard let delay = retries.attemptFailed(
                    error.reconnectFailure(secondsSinceOwnCut: sinceCut), reason: error.metricReason, message: error.description, state: state)
                else { return }
                if uplinkNotice.isNews(error.uplinkReason), let reason = error.uplinkReason {
                    logger.warning("\(reason); waiting for it", metadata: ["url": "\(output)"])
                } else if error.uplinkReason == nil {
                    logger.warning(
                        "\(transport) connect failed, retrying",
                        metadata: [
                            "url": "\(output)", "attempt": "\(retries.failures)", "retry_in": "\(LogSeconds.text(delay))", "error": "\(error)",
                        ])
                }
                guard retries.waitBeforeRetry(seconds: delay, state: state) else { return }
                continue
            }

            let connectedAt = MonotonicTime.now()
            let connectionWatch = watch(connection)
            guard state.withLock({ $0.published(at: connectedAt.nanoseconds, watch: connectionWatch) }) else {
                // Stopped while connecting: closed at once, nothing was sent.
                close(connection)
                return
            }
            connections += 1
            meter.enter(.streaming)
            if connections > 1 || announcesFirstConnection {
                logger.notice(
                    "\(transport) \(connections > 1 ? "reconnected" : "connected")",
                    metadata: ["url": "\(output)", "after_attempts": "\(retries.failures)"].merging(connectionDetails) { $1 })
            }
            if connections > 1 { reconnects.add(1, ordering: .relaxed) }
            ownCutAt = nil
            // A new connection must start with a keyframe: asked for now rather than a GOP later;
            // frames encoded before it could not be decoded on this connection.
            retries.published(requestKeyframe: requestKeyframe)
            guard let error = stream(connection) else { return }

            let upSeconds = Double(MonotonicTime.now().nanoseconds(since: connectedAt)) / 1e9
            if error.isDeadPeerCut { ownCutAt = MonotonicTime.now() }
            guard let delay = retries.lost(afterSeconds: upSeconds, message: error.description, state: state) else { return }
            logger.warning(
                "\(transport) connection lost, reconnecting",
                metadata: [
                    "url": "\(output)", "connected_for": "\(LogSeconds.text(upSeconds))", "retry_in": "\(LogSeconds.text(delay))",
                    "error": "\(error)",
                ])
            guard retries.waitBeforeRetry(seconds: delay, state: state) else { return }
        }
    }
}

extension RTMPError: NetworkConnectionError {
    func reconnectFailure(secondsSinceOwnCut: Double?) -> ReconnectSchedule.Failure {
        ReconnectSchedule.failure(for: failureKind, secondsSinceOwnCut: secondsSinceOwnCut)
    }

    var uplinkReason: String? {
        if case .uplinkUnavailable(let reason) = kind { reason } else { nil }
    }
}

extension SRTError: NetworkConnectionError {
    /// A listener that answered and said no (a reject reason, a passphrase) backs off as an RTMP
    /// server's refusal does; anything else is a listener not there yet.
    func reconnectFailure(secondsSinceOwnCut: Double?) -> ReconnectSchedule.Failure {
        isRefusal ? .refused : .unreachable
    }

    var uplinkReason: String? { kind == .uplinkUnavailable ? detail : nil }

    /// libsrt's peer idle timeout ends a silent connection, not Camcast.
    var isDeadPeerCut: Bool { false }
}
