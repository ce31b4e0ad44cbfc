import NIOCore

/// The endpoint's connection slots (issue 41): slow or idle clients, from one address or from
/// many, never lock the operator's scraper out. A new connection is never refused for want of a
/// slot: when its address already holds its share, that address's stalest connection gives way;
/// when every slot is taken, the stalest of all does. Stalest: a connection that has not finished
/// a request yet, the oldest first (a slowloris, an idle socket), before one that has,
/// by its last request; a connection whose request is being answered gives way last.
///
/// A connection the event loop has not yet had a turn to read neither gives way nor counts against
/// the limits. A crowd that reconnects as fast as it is closed fills the listener's queue; one read
/// of it accepts up to `StatusHTTPServer.acceptedPerRead` (16) connections before the loop reads
/// any of them, and in the next turn the listener's read may come before theirs: up to 31 newer
/// connections. Ranked by age alone, a scraper's new connection accepted first in such a read, its
/// request already sent, was closed unread by the 31st when its address held its own keep-alive
/// connection (which has asked, so it gives way after every silent one) and 30 of the crowd's.
/// Whether it survived hung on those figures; now it does by rule. So the table holds at most its
/// limits of connections that have had their turn, and on top of them what the listener accepted in
/// this turn of the loop and the previous one (two reads); no figure of time is involved. A client
/// that has not sent its request by the end of that turn is a silent connection like the crowd's,
/// the oldest first.
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
        /// The loop's turn it was accepted in (`EventLoopTurns.finished` then).
        let turn: Int
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

        /// The loop has finished the turn after the one it was accepted in, which read it if
        /// anything had come: what it has not sent by then is its own doing.
        func hasHadItsTurn(turnsFinished: Int) -> Bool {
            turnsFinished >= turn + 2
        }
    }

    let limits: Limits
    private let eventLoop: any EventLoop
    private let turns: EventLoopTurns
    private var entries: [ObjectIdentifier: Entry] = [:]

    init(limits: Limits, eventLoop: any EventLoop, turns: EventLoopTurns) {
        self.limits = limits
        self.eventLoop = eventLoop
        self.turns = turns
    }

    /// Takes `channel` in, closing others first if a limit says so.
    func admit(_ channel: any Channel) {
        eventLoop.preconditionInEventLoop()
        let address = channel.remoteAddress?.ipAddress ?? "?"
        makeRoom(among: entries.values.filter { $0.address == address }, keeping: limits.perAddress - 1)
        makeRoom(among: Array(entries.values), keeping: limits.slots - 1)
        let key = ObjectIdentifier(channel)
        entries[key] = Entry(channel: channel, address: address, opened: .now(), turn: turns.finished)
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

    /// Closes the stalest of `candidates` that have had their turn until `keeping` of those are
    /// left; the others are not counted.
    private func makeRoom(among candidates: [Entry], keeping: Int) {
        let turnsFinished = turns.finished
        let counted = candidates.filter { $0.hasHadItsTurn(turnsFinished: turnsFinished) }
        guard counted.count > keeping else { return }
        for victim in counted.sorted(by: { $0.rank < $1.rank }).prefix(counted.count - keeping) {
            // Out of the table at once: the close completes later, and the next admission must
            // count without it.
            entries[ObjectIdentifier(victim.channel)] = nil
            victim.channel.close(promise: nil)
        }
    }
}
