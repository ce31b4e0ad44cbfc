import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import StatusServer

/// Who gives way when the endpoint's slots are full (issue 41), on embedded channels and turns of
/// the loop counted by hand: the race that closed a scraper's connection unread, played out.
@Suite struct ConnectionTableTests {
    /// Connections opened on one embedded loop, each remembering whether the table closed it.
    final class Harness {
        let loop = EmbeddedEventLoop()
        let turns = EventLoopTurns()
        let table: ConnectionTable
        /// Written by the channels' close callbacks (Sendable closures), which run on this thread.
        private let closed = Closed()

        final class Closed: Sendable {
            let channels = Mutex<Set<ObjectIdentifier>>([])
        }

        init(slots: Int, perAddress: Int) {
            table = ConnectionTable(limits: .init(slots: slots, perAddress: perAddress), eventLoop: loop, turns: turns)
        }

        /// A connection from `host` as the listener accepts it.
        func accept(from host: String) throws -> EmbeddedChannel {
            let channel = EmbeddedChannel(loop: loop)
            channel.remoteAddress = try SocketAddress(ipAddress: host, port: 40_000)
            let key = ObjectIdentifier(channel)
            channel.closeFuture.whenComplete { [closed] _ in _ = closed.channels.withLock { $0.insert(key) } }
            table.admit(channel)
            return channel
        }

        func isOpen(_ channel: EmbeddedChannel) -> Bool {
            // An embedded channel's close completes in a task of its loop.
            loop.run()
            return !closed.channels.withLock { $0.contains(ObjectIdentifier(channel)) }
        }

        func open(from host: String, among channels: [EmbeddedChannel]) -> Int {
            channels.filter { isOpen($0) && $0.remoteAddress?.ipAddress == host }.count
        }
    }

    /// The flake of HTTPSlotTests (1 run in 29): the scraper's new connection is accepted early in
    /// one read of the listener, a crowd from its own address fills the rest of that read and the
    /// next one, which the loop handles before reading the scraper's request in the next turn.
    /// Ranked by age alone, it was the oldest of its address by then and was closed unread.
    @Test func aConnectionAcceptedInTheCurrentOrPreviousTurnDoesNotGiveWay() throws {
        let harness = Harness(slots: 8, perAddress: 4)
        let held = try (0..<4).map { _ in try harness.accept(from: "127.0.0.1") }
        harness.turns.turnFinished()
        harness.turns.turnFinished()

        // Turn n: the scraper, then a whole share of the crowd in the same read of the listener.
        let scraper = try harness.accept(from: "127.0.0.1")
        let sameRead = try (0..<4).map { _ in try harness.accept(from: "127.0.0.1") }
        harness.turns.turnFinished()
        // Turn n + 1: the listener's next read comes before the scraper's.
        let nextRead = try (0..<4).map { _ in try harness.accept(from: "127.0.0.1") }
        #expect(harness.isOpen(scraper), "closed before the loop had a turn to read its request")
        harness.table.requestStarted(on: scraper)
        harness.turns.turnFinished()

        // Turn n + 2: those read are brought back within the share at the next admission, the
        // stalest first; the scraper, being answered, stays.
        _ = try harness.accept(from: "127.0.0.1")
        #expect(harness.isOpen(scraper))
        #expect(held.allSatisfy { !harness.isOpen($0) } && sameRead.filter(harness.isOpen).map(ObjectIdentifier.init) == sameRead.suffix(2).map(ObjectIdentifier.init))
        #expect(nextRead.allSatisfy(harness.isOpen), "not read yet")
    }

    /// The same race in the server's own figures, as HTTPSlotTests met it: the scraper's keep-alive
    /// connection (answered, so it gives way after every silent one) and 31 of the crowd's hold its
    /// address's share; its new connection comes first in a read of the listener, 15 of the crowd's
    /// after it, and 16 in the next read before the loop reads its request. By age alone the 31st
    /// closed it.
    @Test func theScrapersNewConnectionOutlastsTwoReadsOfTheListenerInTheServersFigures() throws {
        let (limits, perRead) = (StatusHTTPServer.limits, StatusHTTPServer.acceptedPerRead)
        let harness = Harness(slots: limits.slots, perAddress: limits.perAddress)
        let kept = try harness.accept(from: "127.0.0.1")
        harness.table.requestStarted(on: kept)
        harness.table.requestAnswered(on: kept)
        for _ in 1..<limits.perAddress { _ = try harness.accept(from: "127.0.0.1") }
        harness.turns.turnFinished()
        harness.turns.turnFinished()

        let fresh = try harness.accept(from: "127.0.0.1")
        for _ in 1..<perRead { _ = try harness.accept(from: "127.0.0.1") }
        harness.turns.turnFinished()
        for _ in 0..<perRead { _ = try harness.accept(from: "127.0.0.1") }
        #expect(harness.isOpen(fresh) && harness.isOpen(kept))
    }

    /// A connection that has had its turn and sent nothing still gives way, oldest first: the rule
    /// above shelters nobody beyond one turn of the loop.
    @Test func anIdleConnectionGivesWayOnceTheLoopHasHadATurnToReadIt() throws {
        let harness = Harness(slots: 8, perAddress: 4)
        let idle = try harness.accept(from: "127.0.0.1")
        let others = try (0..<3).map { _ in try harness.accept(from: "127.0.0.1") }
        harness.turns.turnFinished()
        harness.turns.turnFinished()

        let newcomer = try harness.accept(from: "127.0.0.1")
        #expect(!harness.isOpen(idle))
        #expect(others.allSatisfy(harness.isOpen) && harness.isOpen(newcomer))
    }

    /// A flood from one address, a full read of the listener every turn: what the table holds stays
    /// within the share plus two reads' worth not read yet, however long it lasts.
    @Test func aFloodHoldsAtMostTheShareAndTwoReadsNotYetRead() throws {
        let (perAddress, perRead) = (32, 16)
        let harness = Harness(slots: 64, perAddress: perAddress)
        var flood: [EmbeddedChannel] = []
        for _ in 0..<50 {
            for _ in 0..<perRead {
                flood.append(try harness.accept(from: "127.0.0.1"))
                #expect(flood.filter(harness.isOpen).count <= perAddress + 2 * perRead)
            }
            harness.turns.turnFinished()
        }
    }

    /// The order in which connections give way when every slot is taken: no request yet first,
    /// then by last request, the one being answered last.
    @Test func theStalestGivesWayFirstAndTheBusyLast() throws {
        let harness = Harness(slots: 3, perAddress: 3)
        let busy = try harness.accept(from: "127.0.0.2")
        let answered = try harness.accept(from: "127.0.0.3")
        let silent = try harness.accept(from: "127.0.0.4")
        harness.table.requestStarted(on: busy)
        harness.table.requestStarted(on: answered)
        harness.table.requestAnswered(on: answered)
        harness.turns.turnFinished()
        harness.turns.turnFinished()

        let first = try harness.accept(from: "127.0.0.5")
        #expect(!harness.isOpen(silent) && harness.isOpen(answered) && harness.isOpen(busy))
        harness.table.requestStarted(on: first)
        harness.turns.turnFinished()
        harness.turns.turnFinished()

        let second = try harness.accept(from: "127.0.0.6")
        #expect(!harness.isOpen(answered) && harness.isOpen(busy) && harness.isOpen(first))
        harness.table.requestStarted(on: second)
        harness.turns.turnFinished()
        harness.turns.turnFinished()

        // All three busy: the one whose request came first.
        _ = try harness.accept(from: "127.0.0.7")
        #expect(!harness.isOpen(busy) && harness.isOpen(first) && harness.isOpen(second))
    }
}
