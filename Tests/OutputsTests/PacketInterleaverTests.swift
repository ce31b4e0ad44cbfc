#if canImport(Glibc)
import Glibc
#endif
import Media
import Testing
@testable import Outputs
import TestSupport

/// The interleaver as a stage: the audio's announced next time lets a picture go before the AAC
/// packet that follows it exists, and the outputs are called on the interleaver's thread.
@Suite struct PacketInterleaverTests {
    @Test("a picture waits for audio until the audio track announces its next packet at or after the picture's time")
    func announcedAudioReleasesThePicture() {
        var order = PacketOrder(windowMilliseconds: 300)
        var released: [MediaPacket] = []
        let video = FrameStream(gop: 30)
        order.push(AudioStream.packet(0), releasing: &released)
        order.push(AudioStream.packet(1), releasing: &released)  // 21 ms
        order.push(video.packet(0), releasing: &released)  // 0 ms
        order.push(video.packet(1), releasing: &released)  // 33 ms: audio has only reached 21
        #expect(released.map(\.dts) == [0, 0, 21])
        order.announce(.audio, next: 32, releasing: &released)
        #expect(released.count == 3, "an announced time before the picture's holds it")
        order.announce(.audio, next: 33, releasing: &released)
        #expect(released.map(\.dts) == [0, 0, 21, 33])
        #expect(released.last?.mediaKind == .video)
        // The announced packet comes after the picture, still in order, nothing moved.
        order.push(AudioStream.packet(2), releasing: &released)  // 42 ms
        order.releaseAll(into: &released)
        #expect(released.map(\.dts) == [0, 0, 21, 33, 42])
        #expect(order.late == 0)
    }

    @Test("with a presentation delay, a picture goes with the audio of its decode time: the audio that covers its instant need not exist yet; both tracks are shown as one later")
    func presentationDelayLetsThePictureGoFirst() {
        var order = PacketOrder(windowMilliseconds: 300, presentationDelayMilliseconds: 64)
        var released: [MediaPacket] = []
        let video = FrameStream(gop: 30)
        for number in 0...3 { order.push(AudioStream.packet(number), releasing: &released) }  // 0…64 ms of sound
        order.announce(.audio, next: 85, releasing: &released)
        // Pictures up to 85 + 64 ms go at once, though no sound after 85 ms exists.
        for number in 0...4 { order.push(video.packet(number), releasing: &released) }  // 0…132 ms
        let pictures = released.filter { $0.mediaKind == .video }
        #expect(pictures.map(\.dts) == [0, 33, 66, 99, 132])
        #expect(pictures.map(\.pts) == [64, 97, 130, 163, 196])
        // The sound is shown with them: its times move by the same 64 ms, and the order holds.
        #expect(released.filter { $0.mediaKind == .audio }.map(\.pts) == [64, 85, 106, 128])
        #expect(zip(released, released.dropFirst()).allSatisfy { $0.dts <= $1.dts })
        #expect(order.late == 0)
    }

    @Test("the delay is the AAC encoder's: three 1024-sample frames, in whole milliseconds rounded up")
    func presentationDelayIsThreeAACFrames() {
        #expect(PacketInterleaver.presentationDelay(sampleRate: 48_000) == 64)
        #expect(PacketInterleaver.presentationDelay(sampleRate: 44_100) == 70)
        #expect(PacketInterleaver.presentationDelay(sampleRate: 16_000) == 192)
    }

    @Test("the outputs are called on the interleaver's own thread, not on a track's")
    func deliversOnItsOwnThread() throws {
        let threads = SharedLock<[pthread_t]>([])
        let interleaver = try PacketInterleaver(windowMilliseconds: 300) { batch in threads.withLock { $0 += batch.map { _ in pthread_self() } } }
        defer { interleaver.close() }
        let pusher = pthread_self()
        let video = FrameStream(gop: 30)
        for number in 0..<10 {
            interleaver.push(video.packet(number))
            interleaver.push(AudioStream.packet(number))
        }
        interleaver.flush()
        let seen = threads.withLock { $0 }
        #expect(seen.count == 20)
        #expect(!seen.contains { pthread_equal($0, pusher) != 0 })
    }
}
