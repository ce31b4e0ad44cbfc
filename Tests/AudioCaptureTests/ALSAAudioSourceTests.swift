import AudioCapture
import Media
import Testing

/// What can be checked without a sound card: a device that is not there is a clear start error.
/// Capture from a real kernel driver runs in the vivid VM (ALSALoopbackVMTests).
@Suite struct ALSAAudioSourceTests {
    @Test func missingCardIsDeviceNotFound() throws {
        let source = ALSAAudioSource(device: "hw:CARD=NoSuchCard,DEV=0", format: AudioFormat(sampleRate: 48_000, channels: 1))
        let error = try #require(throws: AudioCaptureError.self) { try source.start { _ in } }
        guard case .deviceNotFound(let device, let code, let message) = error else {
            Issue.record("not 'not found': \(error)")
            return
        }
        #expect(device == "hw:CARD=NoSuchCard,DEV=0")
        #expect(code < 0 && !message.isEmpty)
        #expect("\(error)".hasPrefix("ALSA device hw:CARD=NoSuchCard,DEV=0 not found: "))
        #expect(source.status.deliveredFrames == 0)
    }

    @Test func unknownPCMNameIsAnError() {
        let source = ALSAAudioSource(device: "no_such_pcm_name", format: AudioFormat(sampleRate: 48_000, channels: 1))
        #expect(throws: AudioCaptureError.self) { try source.start { _ in } }
    }
}
