import Media
import Synchronization

/// The live counters behind `AudioSourceStatus`: written by the source's thread, read by the status line.
final class AudioSourceCounters: Sendable {
    let deliveredFrames = Atomic<Int>(0)
    let deliveredSampleFrames = Atomic<Int64>(0)
    let substitutedSampleFrames = Atomic<Int64>(0)
    let xruns = Atomic<Int>(0)
    let reopens = Atomic<Int>(0)
    let device = Lock<AudioSourceStatus.DeviceState>(.live)

    func delivered(sampleFrames: Int, substituted: Bool) {
        deliveredFrames.add(1, ordering: .relaxed)
        deliveredSampleFrames.add(Int64(sampleFrames), ordering: .relaxed)
        if substituted { substitutedSampleFrames.add(Int64(sampleFrames), ordering: .relaxed) }
    }

    var status: AudioSourceStatus {
        AudioSourceStatus(
            deliveredFrames: deliveredFrames.load(ordering: .relaxed),
            deliveredSampleFrames: deliveredSampleFrames.load(ordering: .relaxed),
            substitutedSampleFrames: substitutedSampleFrames.load(ordering: .relaxed),
            xruns: xruns.load(ordering: .relaxed), reopens: reopens.load(ordering: .relaxed),
            device: device.withLock { $0 })
    }
}
