import AudioEncoder
import Media
import Testing
import TestSupport

/// A device that starts after the picture: its track still starts at the picture's instant, led in
/// with silence, within the limit; past the limit it starts where its first sample is.
@Suite struct AudioLeadInTests {
    static let mono48k = AudioFormat(sampleRate: 48_000, channels: 1)
    static let origin = MonotonicTime(nanoseconds: 5_000_000_000)
    static let limit: UInt64 = 236_000_000

    /// The packets of 0.5 s of a tone whose first sample is `lateMilliseconds` after the origin.
    static func packets(lateMilliseconds: UInt64, limit: UInt64 = limit) throws -> [MediaPacket] {
        let collected = PacketCollector()
        let session = try AACEncoderSession(
            settings: AACEncoderSettings(format: mono48k), streamOrigin: origin, leadInLimitNanoseconds: limit
        ) { packets, _ in for packet in packets { collected.append(packet) } }
        let start = origin.adding(nanoseconds: lateMilliseconds * 1_000_000)
        try AACEncoderSessionTests.feed(session, AACEncoderSessionTests.sine(1000, count: 24_000), format: mono48k, from: start)
        try session.flush()
        return collected.all
    }

    @Test(arguments: [1, 40, 161, 235] as [UInt64])
    func aLateFirstSampleIsLedInFromTheOrigin(_ late: UInt64) throws {
        let packets = try Self.packets(lateMilliseconds: late)
        // The first packet is the first block at the origin: stream time 0, the picture's.
        #expect(packets.first?.dts == 0, "first packet at \(packets.first?.dts ?? -1) ms")
        let times = packets.map(\.dts)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 21 && $1 - $0 <= 22 }, "\(times)")
        // Silence plus the tone, in whole AAC frames: the lead-in added `late` ms of samples.
        let expected = (Int(late) * 48 + 24_000 + 1023) / 1024
        #expect(abs(packets.count - expected) <= 1, "\(packets.count) packets, \(expected) expected")
    }

    /// Later than the limit: no silence; the track starts at its first sample (the encoder's
    /// priming packet one AAC frame, 21.3 ms, before it).
    @Test func aFirstSampleLaterThanTheLimitStartsWhereItIs() throws {
        let packets = try Self.packets(lateMilliseconds: 400)
        let first = try #require(packets.first?.dts)
        #expect((378...379).contains(first), "first packet at \(first) ms")
    }

    /// No limit (a reload's replacement session): the track is not led in (priming packet as above).
    @Test func withoutALimitNothingIsLedIn() throws {
        let packets = try Self.packets(lateMilliseconds: 100, limit: 0)
        let first = try #require(packets.first?.dts)
        #expect((78...79).contains(first), "first packet at \(first) ms")
    }

    /// A first sample before the origin (audio held while the first picture was encoded): the
    /// session drops what precedes the origin, as before; nothing is added.
    @Test func aFirstSampleBeforeTheOriginIsNotLedIn() throws {
        let collected = PacketCollector()
        let session = try AACEncoderSession(
            settings: AACEncoderSettings(format: Self.mono48k), streamOrigin: Self.origin, leadInLimitNanoseconds: Self.limit
        ) { packets, _ in for packet in packets { collected.append(packet) } }
        let early = MonotonicTime(nanoseconds: Self.origin.nanoseconds - 50_000_000)
        try AACEncoderSessionTests.feed(session, AACEncoderSessionTests.sine(1000, count: 24_000), format: Self.mono48k, from: early)
        try session.flush()
        let first = try #require(collected.all.first?.dts)
        #expect(first <= 21, "first packet at \(first) ms")
        #expect(collected.all.count <= (24_000 - 50 * 48 + 1023) / 1024 + 1)
    }
}
