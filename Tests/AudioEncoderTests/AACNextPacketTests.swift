import AudioEncoder
import Media
import Testing
import TestSupport

/// The time an AAC session announces for its next packet is the time that packet then has:
/// the interleaver lets pictures go on it, so a time too late would put audio behind them.
@Suite struct AACNextPacketTests {
    enum Event: Equatable {
        case packet(Int64)
        case next(Int64)
    }

    @Test("the announced next time is the next packet's DTS, a frame before libavcodec hands it out, on uneven runs and after a gap")
    func announcedTimeIsTheNextPacketsTime() throws {
        let events = SharedLock<[Event]>([])
        let format = AACEncoderSessionTests.mono48k
        let origin = AACEncoderSessionTests.origin
        let session = try AACEncoderSession(
            settings: AACEncoderSettings(format: format), streamOrigin: origin,
            announceNext: { next in events.withLock { $0.append(.next(next)) } }
        ) { packet in events.withLock { $0.append(.packet(packet.dts)) } }
        defer { session.close() }
        try AACEncoderSessionTests.feed(session, [Int16](repeating: 0, count: 24_000), format: format, from: origin)
        // A device that lost 100 ms: the next blocks are stamped later.
        try AACEncoderSessionTests.feed(
            session, [Int16](repeating: 0, count: 24_000), format: format, from: origin.adding(nanoseconds: 600_000_000))
        let all = events.withLock { $0 }
        let packets = all.compactMap { if case .packet(let dts) = $0 { dts } else { nil } }
        #expect(packets.count > 40)
        var checked = 0
        for (index, event) in all.enumerated() {
            guard case .next(let announced) = event else { continue }
            // Every announcement comes after a packet, and the packet after it has that time.
            guard let following = all[index...].first(where: { if case .packet = $0 { true } else { false } }) else { continue }
            #expect(following == .packet(announced), "announcement \(index) of \(all.count)")
            checked += 1
        }
        #expect(checked >= packets.count - 3)
    }
}
