import AudioEncoder
import Foundation
import Media
import Testing
import TestSupport

@Suite struct AACEncoderSessionTests {
    static let mono48k = AudioFormat(sampleRate: 48_000, channels: 1)
    /// A whole millisecond, so stream times are exact in the checks below.
    static let origin = MonotonicTime(nanoseconds: 5_000_000_000)

    /// `count` samples of a `frequency` Hz sine at half scale, starting at sample `start`.
    static func sine(_ frequency: Double, count: Int, start: Int = 0, rate: Int = 48_000) -> [Int16] {
        (start..<start + count).map { Int16((16384 * sin(2 * Double.pi * frequency * Double($0) / Double(rate))).rounded()) }
    }

    /// Feeds `samples` in uneven runs (as a device would), each stamped with its first sample's time.
    static func feed(_ session: AACEncoderSession, _ samples: [Int16], format: AudioFormat, from origin: MonotonicTime) throws {
        var index = 0
        var run = 0
        let runs = [441, 960, 17, 1024, 2000]
        while index < samples.count {
            let count = min(runs[run % runs.count], samples.count - index)
            let time = origin.adding(nanoseconds: UInt64(index) * 1_000_000_000 / UInt64(format.sampleRate))
            try session.encode(AudioFrame(format: format, samples: Array(samples[index..<index + count]), timestamp: time))
            index += count
            run += 1
        }
    }

    /// One second of a 1 kHz sine, encoded, wrapped in ADTS and decoded by ffmpeg, is a 1 kHz tone:
    /// nearly all its power at 1 kHz, almost none at 1.5 kHz or 440 Hz, about a second long.
    @Test func sineDecodesWithFFmpegToTheSameTone() throws {
        let packets = PacketCollector()
        let session = try AACEncoderSession(settings: AACEncoderSettings(format: Self.mono48k), streamOrigin: Self.origin) {
            packets.append($0)
        }
        try Self.feed(session, Self.sine(1000, count: 48_000), format: Self.mono48k, from: Self.origin)
        try session.flush()

        let directory = try Project.scratchDirectory("aac-sine")
        let aac = directory.appendingPathComponent("sine.aac")
        try Data(ADTS.file(frames: packets.all.map { $0.units[0] }, config: session.audioSpecificConfig)).write(to: aac)
        let pcm = try FFmpegTools.run(
            "ffmpeg", ["-v", "error", "-xerror", "-i", aac.path, "-f", "s16le", "-ac", "1", "-ar", "48000", "-"])
        let decoded = Goertzel.samples(fromS16LE: Array(pcm))
        // The priming frame is left out (it lies before the origin), so the decoder starts on the
        // first block: about one second comes back (± one AAC frame).
        #expect(abs(decoded.count - 48_000) <= 1024, "decoded \(decoded.count) samples")
        // Judge the middle, away from the encoder's start-up and the flush's padding.
        let middle = Array(decoded[4800..<min(decoded.count, 43_200)])
        let total = Goertzel.meanSquare(middle)
        let tone = Goertzel.power(of: middle, at: 1000, sampleRate: 48_000)
        let off = Goertzel.power(of: middle, at: 1500, sampleRate: 48_000)
        let low = Goertzel.power(of: middle, at: 440, sampleRate: 48_000)
        // A half-scale sine: mean square 0.125, Goertzel power ≈ 0.0625 at its frequency.
        #expect(total > 0.1 && total < 0.15, "mean square \(total)")
        #expect(tone > 0.05, "power at 1 kHz \(tone)")
        #expect(off < tone / 1000 && low < tone / 1000, "1.5 kHz \(off), 440 Hz \(low), 1 kHz \(tone)")
    }

    /// Packets carry the capture time of their first sample: blocks of 1024 at 48 kHz from the
    /// origin give stream times ⌊k × 21.333⌋ ms whatever the input's run lengths.
    @Test func packetTimesFollowTheCaptureClock() throws {
        let packets = PacketCollector()
        let session = try AACEncoderSession(settings: AACEncoderSettings(format: Self.mono48k), streamOrigin: Self.origin) {
            packets.append($0)
        }
        try Self.feed(session, [Int16](repeating: 0, count: 48_000), format: Self.mono48k, from: Self.origin)
        try session.flush()
        let all = packets.all
        // 47 blocks (the last one short) and no priming packet: it lies before the origin.
        #expect(all.count == 47)
        for (k, packet) in all.enumerated() {
            // Input times are whole nanoseconds, so an instant on a whole millisecond may come out
            // a nanosecond short of it, and one millisecond lower.
            let exact = Int64(k) * 1024 * 1_000_000_000 / 48_000
            let expected = exact / 1_000_000
            let allowed = exact % 1_000_000 < 1000 ? [expected, expected - 1] : [expected]
            #expect(allowed.contains(packet.dts) && packet.pts == packet.dts, "packet \(k): \(packet.dts), expected \(expected)")
            #expect(packet.captureTime == Self.origin.milliseconds + packet.dts)
        }
    }

    /// With the origin earlier than the audio (video started first), the priming packet has a
    /// place on the time line: it lies one AAC frame before the first sample.
    @Test func audioStartingAfterTheOriginKeepsItsOffset() throws {
        let packets = PacketCollector()
        let session = try AACEncoderSession(
            settings: AACEncoderSettings(format: Self.mono48k), streamOrigin: Self.origin, streamStartMilliseconds: 1000
        ) { packets.append($0) }
        try Self.feed(session, [Int16](repeating: 0, count: 4096), format: Self.mono48k, from: Self.origin.adding(nanoseconds: 500_000_000))
        try session.flush()
        let times = packets.all.map(\.dts)
        #expect(times.count >= 5)
        let first = try #require(times.first)
        #expect(first == 1478, "priming packet at \(first)")  // 1000 + ⌊500 − 21.33⌋
        #expect(times.dropFirst().first == 1500)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// A gap in capture time (a device reopened) shows in the packets' times: the block after it
    /// carries its own capture instant, not a count from the start.
    @Test func aGapInCaptureTimeShowsInPacketTimes() throws {
        let packets = PacketCollector()
        let session = try AACEncoderSession(settings: AACEncoderSettings(format: Self.mono48k), streamOrigin: Self.origin) {
            packets.append($0)
        }
        let silence = [Int16](repeating: 0, count: 1024)
        try session.encode(AudioFrame(format: Self.mono48k, samples: silence, timestamp: Self.origin))
        try session.encode(AudioFrame(format: Self.mono48k, samples: silence, timestamp: Self.origin.adding(nanoseconds: 2_000_000_000)))
        try session.encode(AudioFrame(format: Self.mono48k, samples: silence, timestamp: Self.origin.adding(nanoseconds: 2_021_333_333)))
        try session.flush()
        #expect(packets.all.map(\.dts) == [0, 2000, 2021])
    }

    @Test func refusesAFrameInAnotherFormat() throws {
        let session = try AACEncoderSession(settings: AACEncoderSettings(format: Self.mono48k)) { _ in }
        defer { session.close() }
        let stereo = AudioFormat(sampleRate: 48_000, channels: 2)
        #expect(throws: AACEncoderError.formatMismatch(expected: Self.mono48k, got: stereo)) {
            try session.encode(AudioFrame(format: stereo, samples: [0, 0], timestamp: Self.origin))
        }
    }

    @Test func closedSessionRefusesFrames() throws {
        let session = try AACEncoderSession(settings: AACEncoderSettings(format: Self.mono48k)) { _ in }
        session.close()
        session.close()
        #expect(session.isClosed)
        #expect(throws: AACEncoderError.closed) {
            try session.encode(AudioFrame(format: Self.mono48k, samples: [0], timestamp: Self.origin))
        }
        #expect(throws: AACEncoderError.closed) { try session.flush() }
    }

    @Test func invalidSettingsListEveryProblem() throws {
        let settings = AACEncoderSettings(format: AudioFormat(sampleRate: 47_000, channels: 3), bitrateKbps: 4)
        let error = try #require(throws: AACEncoderError.self) { _ = try AACEncoderSession(settings: settings) { _ in } }
        guard case .invalidSettings(let problems) = error else {
            Issue.record("not 'invalid settings': \(error)")
            return
        }
        #expect(problems.count == 3)
        #expect("\(error)".contains("47000 Hz"))
    }
}
