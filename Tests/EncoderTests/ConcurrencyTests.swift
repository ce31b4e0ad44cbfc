import Encoder
import Foundation
import Media
import Synchronization
import TestSupport
import Testing

@Suite struct ConcurrencyTests {
    /// One thread encodes 600 frames while two others hammer reconfigure (bitrate and keyframe
    /// interval) and requestKeyframe: nothing crashes, every frame comes out exactly once, in order,
    /// every requested keyframe lands on the frame `requestKeyframe` named, and the stream decodes.
    /// scripts/test also runs this under ThreadSanitizer.
    @Test func encodeWhileOtherThreadsReconfigureAndRequestKeyframes() async throws {
        let settings = Harness.settings { $0.preset = "ultrafast" }
        let collector = PictureCollector()
        let session = try EncoderSession(settings: settings, logger: Harness.quietLogger) { collector.add($0) }
        let frameCount = 600, callsPerThread = 400
        let frames = (0..<frameCount).map { TestFrames.frame(.i420, width: 320, height: 180, index: $0).frame }
        let encodeErrors = Atomic<Int>(0)
        let reconfigureErrors = Atomic<Int>(0)

        let encoder = Thread.detachNewThreadReturning {
            for frame in frames {
                do { try session.encode(frame) } catch { encodeErrors.add(1, ordering: .relaxed) }
            }
            return true
        }
        let reconfigurer = Thread.detachNewThreadReturning {
            for call in 0..<callsPerThread {
                do {
                    try session.reconfigure(bitrateKbps: 300 + (call % 20) * 100)
                    if call % 10 == 0 { try session.reconfigure(keyframeIntervalSeconds: call % 20 == 0 ? 1 : 2) }
                } catch {
                    reconfigureErrors.add(1, ordering: .relaxed)
                }
            }
            return true
        }
        let keyframer = Thread.detachNewThreadReturning {
            var requested: Set<Int64> = []
            for _ in 0..<callsPerThread {
                requested.insert(session.requestKeyframe())
                _ = session.bitrateKbps
                usleep(200)  // spread the requests over the run rather than all before frame 5
            }
            return requested
        }
        let (_, _, requested) = (encoder.wait(), reconfigurer.wait(), keyframer.wait())
        try session.flush()

        #expect(encodeErrors.load(ordering: .relaxed) == 0)
        #expect(reconfigureErrors.load(ordering: .relaxed) == 0)
        let pictures = collector.all
        #expect(pictures.count == frameCount)
        #expect(pictures.map(\.pts) == frames.map(\.timestamp.milliseconds))
        #expect(pictures.allSatisfy { !$0.nalUnits.isEmpty })
        #expect(pictures.first?.isKeyframe == true)
        // Zero latency: output order is input order, so picture i is the i-th accepted frame. A
        // request made after the last frame names frame 600, which never came.
        let landed = requested.filter { $0 < frameCount }
        #expect(landed.count > 10, "requests reached only frames \(landed.sorted())")
        #expect(landed.filter { !pictures[Int($0)].isKeyframe }.isEmpty)

        let file = try Harness.writeAnnexB(pictures, name: "concurrent.h264")
        #expect(try FFmpegTools.probe(file).frameCount == frameCount)
        try FFmpegTools.decodesCleanly(file)
    }

    @Test func closeFromAnotherThreadStopsEncodingCleanly() async throws {
        let collector = PictureCollector()
        let session = try EncoderSession(settings: Harness.settings { $0.preset = "ultrafast" }, logger: Harness.quietLogger) {
            collector.add($0)
        }
        let closedErrors = Atomic<Int>(0)
        let otherErrors = Atomic<Int>(0)
        let encoder = Thread.detachNewThreadReturning {
            for index in 0..<200 {
                do {
                    try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: index).frame)
                } catch EncoderError.closed {
                    closedErrors.add(1, ordering: .relaxed)
                } catch {
                    otherErrors.add(1, ordering: .relaxed)
                }
            }
            return true
        }
        while collector.all.count < 20 { usleep(1_000) }
        session.close()
        _ = encoder.wait()
        // Every frame was either delivered or refused as closed; none failed otherwise.
        #expect(otherErrors.load(ordering: .relaxed) == 0)
        #expect(collector.all.count + closedErrors.load(ordering: .relaxed) == 200)
        #expect(closedErrors.load(ordering: .relaxed) > 0)
    }
}
