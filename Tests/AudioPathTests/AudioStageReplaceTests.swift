import AudioCapture
@testable import AudioPath
import Logging
import Media
import Synchronization
import Testing
import TestSupport

/// Defect 2 of issue 26: a reload that replaces the audio source must neither drop the track
/// silently nor leave a source running after the stop.
@Suite struct AudioStageReplaceTests {
    static let mono = AudioSettings(source: .silent, format: AudioFormat(sampleRate: 48_000, channels: 1), bitrateKbps: 128)
    static let stereo = AudioSettings(source: .silent, format: AudioFormat(sampleRate: 48_000, channels: 2), bitrateKbps: 128)

    struct Refused: Error {}

    /// A source that cannot start: a device that will not open in the new format.
    final class UnstartableSource: AudioSource {
        func start(deliver: @escaping @Sendable (AudioFrame) -> Void) throws { throw Refused() }
        func stop() {}
        var status: AudioSourceStatus { AudioSourceStatus() }
    }

    /// Silence whose `start` waits for the test's word, so that a stop can come meanwhile; counts its stops.
    final class GatedSource: AudioSource, @unchecked Sendable {
        // @unchecked: `entered` and `opened` only under `gate`.
        private let inner: SilentAudioSource
        private let gate = ConditionLock()
        private var entered = false
        private var opened = false
        let stops = Atomic<Int>(0)

        init(format: AudioFormat) { inner = SilentAudioSource(format: format) }

        func start(deliver: @escaping @Sendable (AudioFrame) -> Void) throws {
            gate.withLock {
                entered = true
                gate.broadcast()
                while !opened { gate.wait() }
            }
            try inner.start(deliver: deliver)
        }

        func stop() {
            stops.add(1, ordering: .relaxed)
            inner.stop()
        }

        var status: AudioSourceStatus { inner.status }

        /// True once `start` was called (within `seconds`).
        func waitUntilStarting(seconds: UInt64) -> Bool {
            let deadline = MonotonicTime.now().adding(nanoseconds: seconds * 1_000_000_000)
            return gate.withLock {
                while !entered { guard gate.wait(until: deadline) else { break } }
                return entered
            }
        }

        func open() {
            gate.withLock {
                opened = true
                gate.broadcast()
            }
        }
    }

    /// AAC packets counted as the stage hands them out, with a bounded wait for more.
    final class PacketTally: @unchecked Sendable {
        // @unchecked: `count` only under `condition`.
        private let condition = ConditionLock()
        private var count = 0

        func add() {
            condition.withLock {
                count += 1
                condition.broadcast()
            }
        }

        var value: Int { condition.withLock { count } }

        func wait(atLeast wanted: Int, seconds: UInt64 = 10) -> Bool {
            let deadline = MonotonicTime.now().adding(nanoseconds: seconds * 1_000_000_000)
            return condition.withLock {
                while count < wanted { guard condition.wait(until: deadline) else { break } }
                return count >= wanted
            }
        }
    }

    /// What the stage reported through `onFailure`.
    final class Failures: Sendable {
        private let list = Mutex<[String]>([])
        func add(_ failure: String) { list.withLock { $0.append(failure) } }
        var all: [String] { list.withLock { $0 } }
    }

    static func stage(
        tally: PacketTally, failures: Failures, sources: @escaping @Sendable (AudioSettings) throws -> any AudioSource
    ) -> AudioStage {
        AudioStage(
            settings: mono, logger: Logger(label: "test.audio"), startMilliseconds: 0, output: { _ in tally.add() },
            onFailure: { failure in failures.add(failure) }, sources: sources)
    }

    @Test("a new source that cannot start after a format change leaves the old one encoding (it used to run on the flushed session: no sound, no error)")
    func failedReplacementKeepsTheTrack() throws {
        let tally = PacketTally()
        let failures = Failures()
        let stage = Self.stage(tally: tally, failures: failures) { settings in
            settings.format.channels == 2 ? UnstartableSource() as any AudioSource : SilentAudioSource(format: settings.format)
        }
        try stage.start()
        defer { stage.stop() }
        stage.videoStarted(originMilliseconds: MonotonicTime.now().milliseconds)
        #expect(tally.wait(atLeast: 3), "the track never started")
        #expect(throws: Refused.self) { try stage.replace(with: Self.stereo) }
        let before = tally.value
        #expect(tally.wait(atLeast: before + 10), "no AAC packet after the failed replacement: \(tally.value - before)")
        #expect(stage.settings == Self.mono)
        #expect(failures.all.isEmpty, "\(failures.all)")
    }

    @Test("a stop while the replacement starts stops the replacement too (it used to run on, never stopped)")
    func stopDuringReplacementStopsTheNewSource() throws {
        let tally = PacketTally()
        let failures = Failures()
        let gated = GatedSource(format: Self.stereo.format)
        let stage = Self.stage(tally: tally, failures: failures) { settings in
            settings.format.channels == 2 ? gated as any AudioSource : SilentAudioSource(format: settings.format)
        }
        try stage.start()
        stage.videoStarted(originMilliseconds: MonotonicTime.now().milliseconds)
        #expect(tally.wait(atLeast: 3), "the track never started")
        let reload = try DedicatedThread { try? stage.replace(with: Self.stereo) }
        #expect(gated.waitUntilStarting(seconds: 10))
        stage.stop()
        gated.open()
        reload.join()
        #expect(gated.stops.load(ordering: .relaxed) >= 1, "the replacement source was left running")
        #expect(failures.all.isEmpty, "\(failures.all)")
    }

    @Test("a reload to another sample rate tells the pipeline between the old encoder's last packet and the new one's first (the interleaver's delay changes there)")
    func encoderChangeComesBetweenTheTwoEncoders() throws {
        // Each packet's AudioSpecificConfig (it names the rate), and nil where the stage told of the change.
        let events = SharedLock<[[UInt8]?]>([])
        let tally = PacketTally()
        let told = SharedLock<[AudioSettings]>([])
        let stage = AudioStage(
            settings: Self.mono, logger: Logger(label: "test.audio"), startMilliseconds: 0,
            deliver: { packets, _ in
                events.withLock { $0 += packets.map { $0.decoderConfiguration.parameterSets.first ?? [] } }
                for _ in packets { tally.add() }
            },
            onFailure: { _ in },
            encoderChanging: { settings in
                told.withLock { $0.append(settings) }
                events.withLock { $0.append(nil) }
            })
        try stage.start()
        defer { stage.stop() }
        stage.videoStarted(originMilliseconds: MonotonicTime.now().milliseconds)
        #expect(tally.wait(atLeast: 3), "the track never started")
        var low = Self.mono
        low.format = AudioFormat(sampleRate: 16_000, channels: 1)
        try stage.replace(with: low)
        #expect(tally.wait(atLeast: tally.value + 3), "no packet from the new encoder")
        #expect(told.withLock { $0 } == [low])
        let seen = events.withLock { $0 }
        let marker = try #require(seen.firstIndex { $0 == nil })
        let before = Set(seen[..<marker].compactMap { $0 })
        let after = Set(seen[(marker + 1)...].compactMap { $0 })
        #expect(before.count == 1 && after.count == 1 && before != after, "configurations before \(before), after \(after)")
    }
}
