import AudioCapture
import Foundation
import Media
import Testing
import TestSupport

/// The WAV source against files ffmpeg made (a writer nobody here wrote).
@Suite struct WAVFileAudioSourceTests {
    /// A `seconds`-long 1 kHz sine WAV from ffmpeg, in the given PCM codec and format.
    static func tone(_ name: String, rate: Int, channels: Int, seconds: Double = 0.5, codec: String = "pcm_s16le") throws -> String {
        let path = try Project.scratchDirectory("wav-source").appendingPathComponent(name).path
        _ = try FFmpegTools.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=\(rate):duration=\(seconds)",
            "-ac", "\(channels)", "-c:a", codec, path,
        ])
        return path
    }

    static func play(_ source: WAVFileAudioSource, runs: Int) throws -> AudioFrameCollector {
        let collector = AudioFrameCollector()
        try source.start { collector.deliver($0) }
        let arrived = collector.wait(for: runs, timeout: 30)
        source.stop()
        collector.markStopped()
        #expect(collector.lateDeliveries == 0)
        #expect(arrived)
        return collector
    }

    /// At the file's own format the samples go out exactly as stored, looped with nothing between
    /// the last sample and the first, on a gapless sample clock.
    @Test func loopsTheFileSampleForSample() throws {
        let path = try Self.tone("mono48k.wav", rate: 48_000, channels: 1, seconds: 0.25)
        let source = try WAVFileAudioSource(path: path, format: AudioFormat(sampleRate: 48_000, channels: 1))
        #expect(source.fileFormat == AudioFormat(sampleRate: 48_000, channels: 1))
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        let header = try #require(try WAVHeader.parse(Array(file), fileLength: file.count))
        let stored = Goertzel.samples(fromS16LE: Array(file[header.dataOffset..<header.dataOffset + header.dataLength])).map { Int16($0 * 32768) }
        #expect(stored.count == 12_000)

        let collector = try Self.play(source, runs: 30)  // 30 × 1024 > 2.5 loops of 12000
        let played = collector.samples
        for (index, sample) in played.enumerated() where sample != stored[index % stored.count] {
            Issue.record("sample \(index) is \(sample), the file's \(index % stored.count) is \(stored[index % stored.count])")
            break
        }
        let all = collector.all
        for (k, arrival) in all.enumerated() {
            #expect(arrival.frame.timestamp == all[0].frame.timestamp.adding(nanoseconds: UInt64(k) * 1024 * 1_000_000_000 / 48_000))
        }
    }

    /// A consumer that stalls the source for 1.5 s: the clock skips ahead to the present and the
    /// file skips as much of its content, so every run holds the file's sound at its own instant
    /// (the sample at t is the file's sample t × rate, looped). Before, the clock skipped and the
    /// file did not, and the sound stayed 1.5 s behind the pictures for the rest of the run.
    @Test func aStallSkipsTheFilesContentWithTheClock() throws {
        let path = try Self.tone("stall48k.wav", rate: 48_000, channels: 1, seconds: 0.25)
        let source = try WAVFileAudioSource(path: path, format: AudioFormat(sampleRate: 48_000, channels: 1))
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        let header = try #require(try WAVHeader.parse(Array(file), fileLength: file.count))
        let stored = Goertzel.samples(fromS16LE: Array(file[header.dataOffset..<header.dataOffset + header.dataLength])).map { Int16($0 * 32768) }
        let collector = AudioFrameCollector()
        try source.start { frame in
            collector.deliver(frame)
            if collector.count == 3 { usleep(1_500_000) }
        }
        let arrived = collector.wait(for: 12, timeout: 30)
        source.stop()
        collector.markStopped()
        #expect(arrived)
        let all = collector.all
        let first = try #require(all.first).frame.timestamp
        // The stall shows as a jump in the stamps of more than a second.
        let gaps = zip(all, all.dropFirst()).map { $1.frame.timestamp.nanoseconds(since: $0.frame.timestamp) }
        #expect(gaps.contains { $0 > 1_000_000_000 }, "no stall in the stamps: \(gaps)")
        for arrival in all {
            // Stamps are origin + frames × 10⁹ / rate, truncated: rounding recovers the frame.
            let frame = Int((arrival.frame.timestamp.nanoseconds(since: first) * 48_000 + 500_000_000) / 1_000_000_000)
            let expected = (0..<arrival.frame.samples.count).map { stored[(frame + $0) % stored.count] }
            if arrival.frame.samples != expected {
                Issue.record("the run at frame \(frame) does not hold the file's sound of its instant")
                break
            }
        }
    }

    /// A 44.1 kHz stereo file played at 48 kHz mono: still a 1 kHz tone, every 1024-sample run as
    /// loud as the next (no gap at the loop's seam), and no click (no step larger than the sine's
    /// own steepest slope allows).
    @Test func resamplesAndLoopsWithoutAGapOrClick() throws {
        let path = try Self.tone("stereo44k.wav", rate: 44_100, channels: 2, seconds: 0.5)
        let format = AudioFormat(sampleRate: 48_000, channels: 1)
        let source = try WAVFileAudioSource(path: path, format: format)
        #expect(source.fileFormat == AudioFormat(sampleRate: 44_100, channels: 2))
        let collector = try Self.play(source, runs: 60)  // 1.28 s: two seams
        let samples = collector.samples.map { Double($0) / 32768 }
        #expect(samples.count >= 60 * 1024)
        // Past the resampler's first few samples, every run carries the tone at the same level.
        let steady = Array(samples[1024...])
        let tone = Goertzel.power(of: steady, at: 1000, sampleRate: 48_000)
        // A pure sine's power at its frequency is half its mean square: nearly all of it is at 1 kHz.
        #expect(tone > 0.45 * Goertzel.meanSquare(steady), "1 kHz power \(tone)")
        let levels = stride(from: 1024, to: samples.count - 1024, by: 1024).map { Goertzel.meanSquare(Array(samples[$0..<$0 + 1024])) }
        let mean = levels.reduce(0, +) / Double(levels.count)
        #expect(levels.allSatisfy { abs($0 - mean) < 0.05 * mean }, "run levels \(levels.min()!)...\(levels.max()!), mean \(mean)")
        // ffmpeg's sine is at 1/8 scale; its steepest step at 48 kHz is 2π·1000/48000 × amplitude.
        let amplitude = steady.map(abs).max()!
        let steepest = zip(steady, steady.dropFirst()).map { abs($1 - $0) }.max()!
        #expect(steepest < 1.2 * 2 * Double.pi * 1000 / 48_000 * amplitude, "step \(steepest) for amplitude \(amplitude)")
    }

    /// Files in every sample format ffmpeg writes as PCM or float WAV play as the 16-bit one does:
    /// the same 1 kHz tone at the same level, sample for sample within libswresample's dither.
    @Test(arguments: [
        ("pcm_u8", WAVSampleFormat.unsigned8), ("pcm_s24le", .signed24), ("pcm_s32le", .signed32),
        ("pcm_f32le", .float32), ("pcm_f64le", .float64),
    ])
    func everySampleFormatPlaysAsSixteenBit(codec: String, expected: WAVSampleFormat) throws {
        let format = AudioFormat(sampleRate: 48_000, channels: 1)
        let reference = try WAVFileAudioSource(path: try Self.tone("ref-\(codec).wav", rate: 48_000, channels: 1), format: format)
        let source = try WAVFileAudioSource(path: try Self.tone("\(codec).wav", rate: 48_000, channels: 1, codec: codec), format: format)
        #expect(source.fileSampleFormat == expected)
        let want = try Self.play(reference, runs: 10).samples
        let got = try Self.play(source, runs: 10).samples
        let count = min(want.count, got.count)
        #expect(count >= 10 * 1024)
        // 8-bit keeps 8 bits: its step is 256 of 16 bits; the others lose nothing but dither.
        let tolerance = expected == .unsigned8 ? 300 : 4
        let worst = zip(want[0..<count], got[0..<count]).map { abs(Int($0) - Int($1)) }.max() ?? Int.max
        #expect(worst <= tolerance, "largest difference from the 16-bit file: \(worst)")
        let samples = got[0..<count].map { Double($0) / 32768 }
        #expect(Goertzel.power(of: samples, at: 1000, sampleRate: 48_000) > 0.45 * Goertzel.meanSquare(samples))
    }

    @Test func badFilesAreStartupErrors() throws {
        func error(_ path: String) -> AudioCaptureError? {
            #expect(throws: AudioCaptureError.self) {
                _ = try WAVFileAudioSource(path: path, format: AudioFormat(sampleRate: 48_000, channels: 1))
            }
        }
        #expect(error("/nonexistent/tone.wav") == .fileUnreadable(path: "/nonexistent/tone.wav", errno: ENOENT))
        let alaw = try Self.tone("alaw.wav", rate: 8_000, channels: 1, codec: "pcm_alaw")
        #expect(error(alaw) == .badWAV(path: alaw, .notPCM(formatTag: 6)))
        // Cut inside the header, and cut inside the data.
        let good = try Data(contentsOf: URL(fileURLWithPath: try Self.tone("cut.wav", rate: 48_000, channels: 1)))
        let directory = try Project.scratchDirectory("wav-source")
        let header = directory.appendingPathComponent("cut-header.wav")
        try good.prefix(30).write(to: header)
        #expect(error(header.path) == .badWAV(path: header.path, .truncatedHeader(at: 30)))
        let data = directory.appendingPathComponent("cut-data.wav")
        try good.prefix(1000).write(to: data)
        guard case .badWAV(_, .truncatedData) = error(data.path) else {
            Issue.record("\(String(describing: error(data.path)))")
            return
        }
        // Not a file.
        #expect(error(directory.path) == .fileUnreadable(path: directory.path, errno: EISDIR))
    }
}
