import Media
#if canImport(Glibc)
import Glibc
#endif

/// Opens the TCP connection librtmp then runs RTMP over.
///
/// librtmp's `RTMP_Connect` resolves with `gethostbyname` (IPv4 only, not thread-safe) and
/// calls a blocking `connect()` with no timeout, so an unreachable host would hold the
/// publisher thread for the kernel's SYN retry time (about two minutes). Here: getaddrinfo (on a
/// thread of its own, `NameLookup`), then a non-blocking connect per address, all under one
/// deadline, and an errno we can classify.
enum TCPConnector {
    enum Failure: Error, Equatable {
        case dns(message: String)
        case refused
        case timedOut
        /// A stop ended the attempt while it waited for the name.
        case cancelled
        case failed(errno: Int32)
        /// The output's uplink cannot carry a connection now: in words ("interface wwan0 is absent").
        case uplinkUnavailable(reason: String)
    }

    /// A connected, blocking, close-on-exec socket and the address it reached.
    struct Connection {
        let socket: Int32
        /// "IPv4" or "IPv6", for the connect log line.
        let family: String
        /// The numeric address, `[v6]:port` or `v4:port`.
        let address: String
    }

    /// Tries each address the name lookup returns (A and AAAA, in the order RFC 6724 sorts them),
    /// all within one deadline that the lookup counts against too: an AAAA-only name or an IPv6
    /// literal works like any other, and a DNS server that never answers ends in `.timedOut` at
    /// the deadline (or `.cancelled` when `lookup` is cancelled), not after the resolver's retries.
    /// With an `uplink`, every socket is bound to it first (TCPConnector+Uplink.swift).
    static func connect(
        host: String, port: UInt16, deadline: ContinuousClock.Instant, lookup: NameLookup, uplink: Uplink? = nil
    ) throws(Failure) -> Connection {
        // An interface that is there but down or without a link would fail each address slowly.
        if let reason = uplink?.unavailability() { throw .uplinkUnavailable(reason: reason) }
        let resolved: [NameLookup.Address]
        do {
            resolved = try lookup.resolve(host: host, port: port, until: deadline)
        } catch {
            switch error {
            case .failed(let message): throw .dns(message: message)
            case .timedOut: throw .timedOut
            case .cancelled: throw .cancelled
            }
        }
        let addresses = try reachable(resolved, host: host, from: uplink)
        var lastFailure = Failure.timedOut
        for address in addresses {
            do throws(Failure) {
                // A Result: withUnsafeBytes rethrows untyped errors.
                let fd = try address.bytes.withUnsafeBytes { raw in
                    Result { () throws(Failure) -> Int32 in
                        let pointer = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
                        return try connectOne(address, to: pointer, length: socklen_t(raw.count), deadline: deadline, uplink: uplink)
                    }
                }.get()
                let numeric = address.bytes.withUnsafeBytes { raw in
                    numericAddress(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length: socklen_t(raw.count), family: address.family, port: port)
                }
                return Connection(socket: fd, family: address.family == AF_INET6 ? "IPv6" : "IPv4", address: numeric)
            } catch {
                lastFailure = error
                if case .timedOut = error { break }
                if case .uplinkUnavailable = error { break }
            }
        }
        throw lastFailure
    }

    private static func connectOne(
        _ info: NameLookup.Address, to address: UnsafePointer<sockaddr>, length: socklen_t, deadline: ContinuousClock.Instant,
        uplink: Uplink?
    ) throws(Failure) -> Int32 {
        let fd = socket(info.family, info.socketType, info.socketProtocol)
        guard fd >= 0 else { throw .failed(errno: errno) }
        var keepOpen = false
        defer { if !keepOpen { close(fd) } }
        // Non-blocking for the connect (so it can be bounded), close-on-exec like every descriptor
        // Camcast opens. Set with fcntl: with the GnuTLS and librtmp shims in this module, Swift
        // did not always find SOCK_NONBLOCK/SOCK_CLOEXEC (a build from one cache state failed).
        guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else {
            throw .failed(errno: errno)
        }

        let rebound = AbandonedConnections.bindForReconnect(fd, to: address, length: length, onlyFrom: uplink?.sourceSocketAddress())
        try bind(fd, to: uplink, alreadyBound: rebound)
        if Glibc.connect(fd, address, length) != 0 {
            let code = errno
            // The old port is in use towards this server after all: connect from any port.
            if code == EADDRNOTAVAIL || code == EADDRINUSE { AbandonedConnections.forget(address, length: length) }
            guard code == EINPROGRESS else { throw failure(code) }
            try waitWritable(fd, deadline: deadline)
            var soError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length) == 0 else { throw .failed(errno: errno) }
            guard soError == 0 else { throw failure(soError) }
        }
        // librtmp expects a blocking socket (it relies on SO_RCVTIMEO/SO_SNDTIMEO).
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw .failed(errno: errno) }
        keepOpen = true
        AbandonedConnections.forget(address, length: length)
        return fd
    }

    private static func numericAddress(_ address: UnsafePointer<sockaddr>, length: socklen_t, family: Int32, port: UInt16) -> String {
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else {
            return "?"
        }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func waitWritable(_ fd: Int32, deadline: ContinuousClock.Instant) throws(Failure) {
        let writable: Bool
        do throws(SystemCallError) {
            writable = try SystemCall.poll(fd, events: POLLOUT, until: deadline)
        } catch {
            throw .failed(errno: error.errno)
        }
        guard writable else { throw .timedOut }
    }

    private static func failure(_ code: Int32) -> Failure {
        switch code {
        case ECONNREFUSED: return .refused
        case ETIMEDOUT: return .timedOut
        default: return .failed(errno: code)
        }
    }

    /// SO_SNDTIMEO makes a blocked send() return EAGAIN; TCP_USER_TIMEOUT makes the kernel
    /// abort the connection when sent data stays unacknowledged that long (so later sends
    /// fail at once instead of each waiting again). librtmp sets neither.
    static func setSendTimeouts(fd: Int32, seconds: Int) -> Bool {
        var tv = timeval(tv_sec: max(1, seconds), tv_usec: 0)
        let sendOK = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size)) == 0
        var userTimeoutMs = UInt32(clamping: max(1, seconds) * 1000)
        let userOK = setsockopt(fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, &userTimeoutMs,
                                socklen_t(MemoryLayout<UInt32>.size)) == 0
        return sendOK && userOK
    }

    /// TCP_NOTSENT_LOWAT (Linux 3.12): see `RTMPPublisherOptions.unsentLowWatermarkBytes`.
    static func setUnsentLowWatermark(fd: Int32, bytes: Int) -> Bool {
        var value = UInt32(clamping: bytes)
        return setsockopt(fd, Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, &value, socklen_t(MemoryLayout<UInt32>.size)) == 0
    }
}
