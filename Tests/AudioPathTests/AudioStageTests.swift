import AudioCapture
import Foundation
@testable import AudioPath
import Logging
import Media
import Testing
import TestSupport

/// The audio stage's session opens on the video's first picture, whichever comes first: the
/// picture or the audio source's start.
@Suite struct AudioStageTests {
    static let settings = AudioSettings(source: .silent, format: AudioFormat(sampleRate: 48_000, channels: 1), bitrateKbps: 128)

    static func run(videoFirst: Bool) throws -> [MediaPacket] {
        let packets = SharedLock<[MediaPacket]>([])
        let failures = SharedLock<[String]>([])
        let stage = AudioStage(
            settings: settings, logger: Logger(label: "test.audio"), startMilliseconds: 0,
            output: { packet in packets.withLock { $0.append(packet) } },
            onFailure: { failure in failures.withLock { $0.append(failure) } })
        let origin = MonotonicTime.now().milliseconds
        if videoFirst { stage.videoStarted(originMilliseconds: origin) }
        try stage.start()
        if !videoFirst { stage.videoStarted(originMilliseconds: origin) }
        // Silence comes in 1024-sample runs (21 ms): wait for a few AAC frames, bounded so a
        // stage that never opens its session fails instead of hanging.
        for _ in 0..<300 where packets.withLock({ $0.count }) < 5 { usleep(10_000) }
        stage.stop()
        #expect(failures.withLock { $0 }.isEmpty)
        return packets.withLock { $0 }
    }

    /// A picture encoded before the source finished starting (a device slow to open, a loaded
    /// machine): the track used to never start, and the stream went out without sound.
    @Test func thePictureBeforeTheSourceStillOpensTheSession() throws {
        let packets = try Self.run(videoFirst: true)
        #expect(packets.count >= 5, "\(packets.count) AAC packets")
        #expect(packets.allSatisfy { $0.codec == .aac })
    }

    /// The usual order; the track starts at stream time 0, within an AAC frame.
    @Test func theSourceBeforeThePictureOpensTheSessionOnThePicture() throws {
        let packets = try Self.run(videoFirst: false)
        #expect(packets.count >= 5, "\(packets.count) AAC packets")
        #expect((packets.first?.dts ?? .max) <= 43, "first AAC packet at \(packets.first?.dts ?? -1) ms")
    }
}
