import AudioCapture
import Glibc
import Media
import Testing
import TestSupport

/// What can be checked without a sound card: a device that is not there at start is what a device
/// lost mid-run is (issue 25): silence goes out on the sample clock and the device is retried.
/// Capture from a real kernel driver runs in the vivid VM (ALSALoopbackVMTests).
@Suite struct ALSAAudioSourceTests {
    /// Starts a source on `device`, collects what it delivers for about 300 ms, stops it.
    static func silenceFromMissing(_ device: String) throws -> (frames: [AudioFrame], status: AudioSourceStatus) {
        let source = ALSAAudioSource(device: device, format: AudioFormat(sampleRate: 48_000, channels: 1), reopenIntervalSeconds: 0.1)
        let frames = SharedLock<[AudioFrame]>([])
        try source.start { frame in frames.withLock { $0.append(frame) } }
        // Let it send a few silence runs and fail a few reopen attempts.
        for _ in 0..<100 where frames.withLock({ $0.count }) < 8 { usleep(20_000) }
        let status = source.status
        source.stop()
        return (frames.withLock { $0 }, status)
    }

    @Test(arguments: ["hw:CARD=NoSuchCard,DEV=0", "no_such_pcm_name"])
    func aMissingDeviceStartsOnSilenceAndIsRetried(device: String) throws {
        let (frames, status) = try Self.silenceFromMissing(device)
        #expect(frames.count >= 8)
        #expect(frames.allSatisfy { $0.samples.allSatisfy { $0 == 0 } })
        // On the sample clock: each run continues the one before.
        for (earlier, later) in zip(frames, frames.dropFirst()) { #expect(later.timestamp > earlier.timestamp) }
        #expect(status.substitutedSampleFrames == status.deliveredSampleFrames)
        #expect(status.deliveredSampleFrames > 0)
        switch status.device {
        case .silenced(let reason), .reopening(let reason): #expect(reason == "not found")
        case .live: Issue.record("a missing device reported live")
        }
    }

    @Test func onlyARefusedFormatIsFinalAtStart() {
        #expect(AudioCaptureError.formatRefused(device: "hw:0", what: "the rate", code: -22, message: "Invalid argument").isFinalAtStart)
        #expect(!AudioCaptureError.deviceNotFound(device: "hw:9", code: -2, message: "No such file or directory").isFinalAtStart)
        #expect(!AudioCaptureError.deviceBusy(device: "hw:0", code: -16, message: "Device or resource busy").isFinalAtStart)
    }
}
