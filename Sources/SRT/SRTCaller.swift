internal import CSRT
import Media
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One SRT connection in caller mode, live transport type, over libsrt's own socket (not
/// libavformat's `srt://`, which hides the reject reason and the statistics).
///
/// One instance serves one attempt and is used by one thread (the output's publisher thread),
/// except `cancel` and `statistics`, which may come from any thread: a connect in progress ends
/// within 100 ms.
public final class SRTCaller: Sendable {
    // Checked: its state is constants, locks and atomics; the connect and send calls are made by
    // the one publisher thread.
    private let host: String
    private let port: UInt16
    private let options: SRTCallerOptions
    /// The libsrt socket id; nil before `connect` made it and after `close`/`cancel`.
    private let socket = Lock<Int32?>(nil)
    private let cancelled = Lock(false)
    /// Messages and payload bytes `send` handed to libsrt (for `statistics`, read from any thread).
    let handedPackets = Atomic<Int>(0)
    let handedBytes = Atomic<Int>(0)
    /// How long the connect's handshake took (ns; 0 before it succeeded), for `statistics`.
    let handshakeNanoseconds = Atomic<UInt64>(0)

    /// The largest message one `send` takes: 7 MPEG-TS packets of 188 bytes (SRT_LIVE_DEF_PLSIZE).
    public static let messageSize = Int(csrt_live_message_size())

    public init(host: String, port: UInt16, options: SRTCallerOptions) {
        _ = Self.started
        self.host = host
        self.port = port
        self.options = options
    }

    deinit { close() }

    /// libsrt's global state, made once for the process (srt_startup counts its callers).
    private static let started: Int32 = {
        SRTLibraryLog.install()
        return srt_startup()
    }()

    /// Resolves the host and connects, bounded by the connect timeout; throws with libsrt's
    /// reject reason when the listener said no.
    public func connect() throws(SRTError) {
        if let reason = options.uplink?.unavailability() { throw SRTError(.uplinkUnavailable, detail: reason) }
        let addresses = try Self.reachable(Self.resolve(host: host, port: port), host: host, from: options.uplink)
        var lastError = SRTError(.unreachable, detail: "no address for \(host)")
        for address in addresses {
            let id = srt_create_socket()
            guard id != csrt_invalid_socket() else { throw SRTError(.setup, detail: Self.lastError()) }
            let registered = cancelled.withLock { isCancelled -> Bool in
                guard !isCancelled else { return false }
                socket.withLock { $0 = id }
                return true
            }
            guard registered else {
                srt_close(id)
                throw SRTError(.cancelled, detail: "stopping")
            }
            let configured = (options.passphrase ?? "").withCString { passphrase in
                (options.streamID ?? "").withCString { streamID in
                    csrt_configure_caller(
                        id, Int32(options.latencyMilliseconds), Int32(options.connectTimeoutSeconds * 1000),
                        Int32(options.sendTimeoutSeconds * 1000), Int32(options.sendTimeoutSeconds * 1000),
                        options.passphrase == nil ? nil : passphrase, Int32(options.keyLength),
                        options.streamID == nil ? nil : streamID)
                }
            }
            guard configured == 0 else {
                let detail = Self.lastError()
                close()
                throw SRTError(.setup, detail: detail)
            }
            do throws(SRTError) {
                try bind(id, to: options.uplink)
            } catch {
                close()
                throw error
            }
            let handshakeStart = MonotonicTime.now()
            let poll = address.withUnsafeBytes { bytes in
                csrt_start_connect(id, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), Int32(bytes.count))
            }
            guard poll != SRT_ERROR else {
                let detail = Self.lastError()
                close()
                throw SRTError(.setup, detail: detail)
            }
            // In slices, so a stop ends the wait within one (libsrt's connect timeout ends it otherwise).
            var state: Int32 = 0
            while state == 0 && !cancelled.withLock({ $0 }) {
                state = csrt_wait_connected(poll, id, Self.connectSliceMilliseconds)
            }
            srt_epoll_release(poll)
            if state == 1 {
                handshakeNanoseconds.store(UInt64(max(0, MonotonicTime.now().nanoseconds(since: handshakeStart))), ordering: .relaxed)
                return
            }
            lastError = connectError(of: id)
            close()
            if cancelled.withLock({ $0 }) { throw SRTError(.cancelled, detail: "stopping") }
            // A refusal is the listener's answer; another address of the name would say the same.
            if lastError.isRefusal { break }
        }
        throw lastError
    }

    /// Sends one message of at most `messageSize` bytes, whole.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(SRTError) {
        guard let id = socket.withLock({ $0 }) else { throw SRTError(.lost, detail: "not connected") }
        let sent = csrt_send_message(id, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(bytes.count))
        guard sent == SRT_ERROR else {
            handedBytes.add(bytes.count, ordering: .releasing)
            handedPackets.add(1, ordering: .releasing)
            return
        }
        throw SRTError(cancelled.withLock({ $0 }) ? .cancelled : .lost, detail: Self.lastError())
    }

    /// At the end of a stream: waits until the listener acknowledged everything sent, then for the
    /// latency on top, which the listener holds each packet for before it hands it on (closing
    /// sooner loses that last latency's worth of media at the receiver: 15 of 120 frames at 500 ms,
    /// seen). No later than `deadline` (CLOCK_MONOTONIC ns). True if all of it was acknowledged.
    @discardableResult
    public func finishSending(until deadline: UInt64) -> Bool {
        guard let id = socket.withLock({ $0 }) else { return false }
        let step: UInt64 = 10_000_000
        var blocks = 0
        var bytes = 0
        while srt_getsndbuffer(id, &blocks, &bytes) == 0, blocks > 0 {
            guard MonotonicTime.now().nanoseconds + step < deadline, !cancelled.withLock({ $0 }) else { return false }
            Self.sleep(nanoseconds: step)
        }
        let heldUntil = MonotonicTime.now().nanoseconds + UInt64(options.latencyMilliseconds) * 1_000_000
        Self.sleep(nanoseconds: min(heldUntil, deadline) &- min(MonotonicTime.now().nanoseconds, min(heldUntil, deadline)))
        return true
    }

    /// The waits of `finishSending`, once per stream's end, on the publisher's own thread with no
    /// lock held. Its 10-ms look at the send buffer is the one polling loop left, and why: libsrt
    /// tells of no acknowledgement — its epoll's SRT_EPOLL_OUT means room in the buffer, not an
    /// empty one, and its own lingering close looks at the buffer on a period too. The loop is
    /// bounded by the stop's drain deadline and sees a `cancel` at its next look; the latency's
    /// hold after it is one timed sleep, not a poll.
    private static func sleep(nanoseconds: UInt64) {
        var time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var left = timespec()
        while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
    }

    /// The connection's socket id while it is open (copied out of its lock).
    var liveSocket: Int32? { socket.withLock { $0 } }

    /// Closes the socket (idempotent).
    public func close() {
        if let id = socket.withLock({ current -> Int32? in
            defer { current = nil }
            return current
        }) {
            srt_close(id)
        }
    }

    /// From any thread: ends a connect in progress within one wait slice, and makes later ones
    /// fail. The socket itself is closed by the thread that uses it (`close` during libsrt's
    /// connect would wait for the connect).
    public func cancel() {
        cancelled.withLock { $0 = true }
    }

    /// How long a connect waits on libsrt before it looks for a stop again.
    static let connectSliceMilliseconds: Int32 = 100

    private func connectError(of id: Int32) -> SRTError {
        let reason = srt_getrejectreason(id)
        let words = String(cString: srt_rejectreason_str(reason))
        switch reason {
        case csrt_reject_bad_secret(): return SRTError(.wrongPassphrase, detail: words)
        case csrt_reject_unsecure(): return SRTError(.encryptionMismatch, detail: words)
        case csrt_reject_timeout(), csrt_reject_unknown(), csrt_reject_system():
            // After a connect that timed out, libsrt's last error is often errno's "Success".
            let system = Self.lastError()
            return SRTError(.unreachable, detail: "\(host):\(port): \(system.isEmpty || system == "Success" ? words : system)")
        default: return SRTError(.rejected(reason: reason), detail: words)
        }
    }

    private static func lastError() -> String { String(cString: srt_getlasterror_str()) }

    /// UDP addresses for `host`, in getaddrinfo's order (RFC 6724), each as its sockaddr bytes.
    static func resolve(host: String, port: UInt16) throws(SRTError) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw SRTError(.nameLookup, detail: "\(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let address = current.pointee.ai_addr {
                addresses.append(Array(UnsafeRawBufferPointer(start: address, count: Int(current.pointee.ai_addrlen))))
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
