import NIOCore

/// The endpoint's connection slots (issue 41): slow or idle clients, from one address or from
/// many, never lock the operator's scraper out. A new connection is never refused for want of a
/// slot: when its address already holds its share, that address's stalest connection gives way;
/// when every slot is taken, the stalest of all does. Stalest: a connection that has not finished
/// a request yet, the oldest first (a slowloris, an idle socket), before one that has,
/// by its last request; a connection whose request is being answered gives way last.
///
/// Confined to the server's one event loop (every child channel lives on it): each method asserts
/// that, so the table needs no lock.
final class ConnectionTable: @unchecked Sendable {
    struct Limits: Sendable {
        /// Connections at once.
        var slots: Int
        /// Connections at once from one address: one host never takes every slot.
        var perAddress: Int
    }

    private struct Entry {
        let channel: any Channel
        let address: String
        let opened: NIODeadline
        /// When its last whole request came; nil before the first.
        var lastRequest: NIODeadline?
        /// A request is being answered.
        var busy = false

        /// Smaller gives way first.
        var rank: (Int, Int64) {
            let since = Int64(truncatingIfNeeded: (lastRequest ?? opened).uptimeNanoseconds)
            if busy { return (2, since) }
            return (lastRequest == nil ? 0 : 1, since)
        }
    }

    let limits: Limits
    private let eventLoop: any EventLoop
    private var entries: [ObjectIdentifier: Entry] = [:]

    init(limits: Limits, eventLoop: any EventLoop) {
        self.limits = limits
        self.eventLoop = eventLoop
    }

    /// Takes `channel` in, closing another connection first if a limit says so.
    func admit(_ channel: any Channel) {
        eventLoop.preconditionInEventLoop()
        let address = channel.remoteAddress?.ipAddress ?? "?"
        let sameAddress = entries.values.filter { $0.address == address }
        if sameAddress.count >= limits.perAddress {
            evict(from: sameAddress)
        } else if entries.count >= limits.slots {
            evict(from: Array(entries.values))
        }
        let key = ObjectIdentifier(channel)
        entries[key] = Entry(channel: channel, address: address, opened: .now())
        channel.closeFuture.whenComplete { [self] _ in
            eventLoop.preconditionInEventLoop()
            entries[key] = nil
        }
    }

    /// `channel` has sent a whole request; it is answered now.
    func requestStarted(on channel: any Channel) {
        eventLoop.preconditionInEventLoop()
        entries[ObjectIdentifier(channel)]?.lastRequest = .now()
        entries[ObjectIdentifier(channel)]?.busy = true
    }

    /// Its answer is written; it waits for the next request.
    func requestAnswered(on channel: any Channel) {
        eventLoop.preconditionInEventLoop()
        entries[ObjectIdentifier(channel)]?.busy = false
    }

    private func evict(from candidates: [Entry]) {
        guard let victim = candidates.min(by: { $0.rank < $1.rank }) else { return }
        // Out of the table at once: the close completes later, and the next admission must count
        // without it.
        entries[ObjectIdentifier(victim.channel)] = nil
        victim.channel.close(promise: nil)
    }
}
