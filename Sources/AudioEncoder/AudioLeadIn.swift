import Media

/// Silence from the stream's origin (the video's first picture) to the first sample a late audio
/// device delivered, so that the sound track starts with the picture on any machine.
///
/// A device that needs longer to start than the camera (ALSA preparing a card: tens of ms here,
/// 100-300 ms in an emulated VM) would otherwise start the audio track that much after the video;
/// players then show the picture without sound, and some ingests take the first packet of each
/// track as its start. What is filled is silence, because nothing was captured then. It is filled
/// only up to `limitNanoseconds`: past that the interleaver has already released the first
/// pictures, and packets stamped before them could only be moved up (PacketOrder), so the track
/// starts where its first sample is and the log says by how much.
enum AudioLeadIn {
    /// The silent frame to encode before `first`, or nil if `first` starts at or before `origin`
    /// (less than one sample after it) or later than `limitNanoseconds` after it.
    static func silence(before first: AudioFrame, origin: MonotonicTime, limitNanoseconds: UInt64) -> AudioFrame? {
        let gap = first.timestamp.nanoseconds(since: origin)
        guard gap > 0, UInt64(gap) <= limitNanoseconds else { return nil }
        let frames = Int(Int64(first.format.sampleRate) * gap / 1_000_000_000)
        guard frames > 0 else { return nil }
        return AudioFrame(format: first.format, samples: [Int16](repeating: 0, count: frames * first.format.channels), timestamp: origin)
    }
}
