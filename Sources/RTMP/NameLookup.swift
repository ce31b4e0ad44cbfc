import Media
#if canImport(Glibc)
import Glibc
#endif

/// getaddrinfo on a thread of its own, so that the wait for a name counts against the connect
/// deadline and a stop ends it at once (issue 26 #4). getaddrinfo itself cannot be interrupted:
/// a DNS server that never answers holds it for the resolver's own timeouts (resolv.conf's
/// `timeout` × `attempts`, 10 s by default, per address family). The caller stops waiting at the
/// deadline or on `cancel`; the thread then ends by itself and frees what it found.
final class NameLookup: @unchecked Sendable {
    // @unchecked: `outcome`, `isCancelled` and `isAbandoned` are only used with `lock` held, and
    // that is structural: every access is inside a `withLock` in the method that touches it.
    /// One address getaddrinfo returned, copied out of its list so it outlives `freeaddrinfo`.
    struct Address: Sendable {
        var family: Int32
        var socketType: Int32
        var socketProtocol: Int32
        var bytes: [UInt8]
    }

    enum Failure: Error, Equatable {
        /// The resolver answered with an error (no such name, no network): its message.
        case failed(message: String)
        case timedOut
        case cancelled
    }

    private let lock = ConditionLock()
    private var outcome: Result<[Address], Failure>?
    private var isCancelled = false
    /// The caller stopped waiting; what the thread finds is dropped.
    private var isAbandoned = false

    /// Ends a `resolve` waiting now (or the next one) with `.cancelled`.
    func cancel() {
        lock.withLock {
            isCancelled = true
            lock.broadcast()
        }
    }

    /// TCP addresses for `host`, A and AAAA in the order getaddrinfo sorts them (RFC 6724);
    /// waits no later than `deadline`. Call once.
    func resolve(host: String, port: UInt16, until deadline: ContinuousClock.Instant) throws(Failure) -> [Address] {
        let thread: DedicatedThread
        do {
            thread = try DedicatedThread(name: "name lookup") { [self] in
                let found = Self.getAddresses(host: host, port: port)
                lock.withLock {
                    guard !isAbandoned else { return }
                    outcome = found
                    lock.broadcast()
                }
            }
        } catch {
            throw .failed(message: error.description)
        }
        // Never joined: a lookup the caller gave up on ends by itself whenever the resolver does.
        thread.detach()
        let wakeAt = MonotonicTime.now().adding(nanoseconds: ContinuousClock.now.duration(to: deadline).clampedNanoseconds)
        return try lock.withLock { () throws(Failure) -> [Address] in
            while outcome == nil && !isCancelled {
                if !lock.wait(until: wakeAt) { break }
            }
            if let outcome { return try outcome.get() }
            isAbandoned = true
            throw isCancelled ? .cancelled : .timedOut
        }
    }

    private static func getAddresses(host: String, port: UInt16) -> Result<[Address], Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0 else {
            let message = rc == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(rc))
            return .failure(.failed(message: message))
        }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var entry = list
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let address = info.ai_addr else { continue }
            let bytes = [UInt8](UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
            addresses.append(Address(family: info.ai_family, socketType: info.ai_socktype, socketProtocol: info.ai_protocol, bytes: bytes))
        }
        return .success(addresses)
    }
}
