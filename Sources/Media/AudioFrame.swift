/// A run of PCM samples from one audio source, on its way to the audio encoder.
///
/// Samples are signed 16-bit, interleaved by channel (L R L R … for stereo), which is what ALSA
/// captures, what a PCM WAV holds and what costs the least to make silent. `timestamp` is the
/// capture instant of the first sample on the same CLOCK_MONOTONIC as `VideoFrame.timestamp`, so
/// the outputs can place audio and video on one time line and lip sync holds over hours.
public struct AudioFrame: Sendable, Equatable {
    public var format: AudioFormat
    public var samples: [Int16]
    public var timestamp: MonotonicTime

    public init(format: AudioFormat, samples: [Int16], timestamp: MonotonicTime) {
        precondition(samples.count % format.channels == 0, "samples must hold whole sample frames")
        self.format = format
        self.samples = samples
        self.timestamp = timestamp
    }

    /// Sample frames (one sample per channel) in this run.
    public var frameCount: Int { samples.count / format.channels }

    /// How long the run lasts at its sample rate.
    public var durationNanoseconds: UInt64 {
        UInt64(frameCount) * 1_000_000_000 / UInt64(format.sampleRate)
    }
}

/// The shape of PCM audio: sample rate and channel count.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        precondition(sampleRate > 0 && channels > 0, "an audio format needs a rate and at least one channel")
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { "\(sampleRate) Hz, \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels")" }
}
