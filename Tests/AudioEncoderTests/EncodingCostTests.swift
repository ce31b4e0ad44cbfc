import AudioEncoder
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Media
import Testing

/// What the audio path costs: the issue's budget is < 3 % of one core over video only.
@Suite struct EncodingCostTests {
    /// CPU time this thread has used, in seconds (user + system).
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Encodes 20 s of 48 kHz mono (silence, as `--audio silent` sends, then a sine) in 1024-sample
    /// runs as fast as it goes and measures this thread's CPU time: per second of audio it must
    /// stay under 30 ms (3 % of a core), measured in CPU time so a loaded machine does not
    /// inflate it. The figures are printed for the benchmark notes.
    @Test(arguments: ["silence", "sine"])
    func encodingASecondOf48kHzMonoCostsUnder3PercentOfACore(signal: String) throws {
        let format = AudioFormat(sampleRate: 48_000, channels: 1)
        let session = try AACEncoderSession(settings: AACEncoderSettings(format: format)) { _ in }
        let seconds = 20
        let runs = seconds * 48_000 / 1024
        let silence = [Int16](repeating: 0, count: 1024)
        let sine = AACEncoderSessionTests.sine(1000, count: 48_000)
        let start = Self.threadCPUSeconds()
        for run in 0..<runs {
            let samples = signal == "silence" ? silence : Array(sine[(run * 1024) % 46_080..<(run * 1024) % 46_080 + 1024])
            try session.encode(AudioFrame(format: format, samples: samples, timestamp: MonotonicTime(nanoseconds: UInt64(run) * 21_333_333)))
        }
        let perSecond = (Self.threadCPUSeconds() - start) / Double(seconds)
        session.close()
        print("AAC encoding, 48 kHz mono, \(signal): \(String(format: "%.2f", perSecond * 1000)) ms CPU per second of audio")
        #expect(perSecond < 0.030, "\(perSecond * 1000) ms CPU per second of audio")
    }
}
