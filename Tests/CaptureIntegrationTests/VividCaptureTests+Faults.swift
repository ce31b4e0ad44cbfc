import Capture
import Foundation
import Logging
import Media
import TestSupport
import Testing

/// Device faults injected with vivid's error-injection controls, set by v4l2-ctl from a second
/// process while capturing. The source must not stop: placeholders at the frame rate while the
/// device is gone or failing, live frames again once it is back.
extension VividCaptureTests {
    static func isGone(_ state: V4L2CaptureState) -> Bool {
        if case .placeholder(.gone) = state { return true }
        return false
    }

    static func isFailing(_ state: V4L2CaptureState) -> Bool {
        if case .placeholder(.failing) = state { return true }
        return false
    }

    /// Captures, runs `inject` after 30 live frames, and waits until `faultState` frames arrived
    /// and then 30 live ones after the last placeholder.
    static func captureThroughFault(
        control: String, faultState: @escaping @Sendable (V4L2CaptureState) -> Bool
    ) async throws -> (source: V4L2CaptureSource, frames: [FrameRecorder.Entry], logs: [RecordingLogHandler.Record]) {
        let logs = RecordingLogHandler.Store()
        let source = try V4L2CaptureSource(settings: settings(.yuyv), logger: RecordingLogHandler.logger(logs))
        let recorder = FrameRecorder()
        try source.start { [source] frame in recorder.record(frame, state: source.state) }
        defer { source.stop() }
        try #require(try await recorder.wait(seconds: 20) { recorder.count >= 30 }, "no live frames before the fault")
        try VividEnvironment.setControl(control)
        try #require(try await recorder.wait(seconds: 10) { recorder.all.contains { faultState($0.state) } },
                     "no placeholder frames after \(control); state \(source.state)")
        let resumed = try await recorder.wait(seconds: 20) {
            let frames = recorder.all
            guard let lastPlaceholder = frames.lastIndex(where: { $0.state != .live }) else { return false }
            return frames.count - lastPlaceholder > 30
        }
        try #require(resumed, "live capture did not resume after \(control); state \(source.state), reopens \(source.reopenCount)")
        return (source, recorder.all, logs.all)
    }

    /// What every fault must preserve: one format for the encoder, a clock that only moves
    /// forward, and no hole in the stream that the driver's own drops do not explain.
    static func checkStreamStayedAlive(_ frames: [FrameRecorder.Entry]) {
        let first = frames[0]
        #expect(frames.allSatisfy {
            $0.width == first.width && $0.height == first.height && $0.pixelFormat == first.pixelFormat
                && $0.planes == first.planes && $0.byteCount == first.byteCount
        })
        for (previous, next) in zip(frames, frames.dropFirst()) {
            let delta = next.timestamp.nanoseconds(since: previous.timestamp)
            #expect(delta > 0, "timestamps must increase")
            // Two frames lent from the driver's buffers carry its own stamps: how far apart vivid
            // takes them under emulation is the VM's speed, not ours. Wherever a placeholder is
            // involved the stamp is ours, and each frame slot between the two is one the sequence
            // moved by: placeholders continue the clock from the last live frame exactly, and the
            // slots before the camera's first frame back go out ahead of it, so no such gap is
            // wider than its slots plus the half interval that is the live frame's own.
            guard !(previous.isBorrowed && next.isBorrowed) else { continue }  // both the driver's
            let slots = Double(next.sequence - previous.sequence)
            #expect(Double(delta) <= (slots + 0.5) * interval,
                    "a \(Double(delta) / 1e6) ms hole at sequence \(previous.sequence) → \(next.sequence) (\(previous.state) → \(next.state)): not the driver's drops")
        }
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.sequence > $0.sequence })
        // Placeholders follow the frame clock exactly: one interval apart.
        let placeholders = frames.filter { $0.state != .live }
        for (previous, next) in zip(placeholders, placeholders.dropFirst()) where next.sequence == previous.sequence + 1 {
            #expect(UInt64(next.timestamp.nanoseconds(since: previous.timestamp)) == rate.frameIntervalNanoseconds)
        }
        // The placeholder is the last good frame, frozen.
        if let firstPlaceholder = frames.firstIndex(where: { $0.state != .live }), firstPlaceholder > 0 {
            #expect(frames[firstPlaceholder].checksum == frames[firstPlaceholder - 1].checksum)
        }
        // Live frames come uncopied from the driver's buffers; placeholders have bytes of their
        // own, since they are sent while the device is closed and its buffers unmapped.
        #expect(frames.filter { $0.state == .live }.allSatisfy { $0.isBorrowed })
        #expect(frames.filter { $0.state != .live }.allSatisfy { !$0.isBorrowed })
    }

    /// Unplug: DQBUF fails with ENODEV and the node disappears until every fd and mapping of it is
    /// gone; then vivid registers it again.
    @Test func disconnectSendsPlaceholdersThenResumes() async throws {
        let (source, frames, logs) = try await Self.captureThroughFault(control: "disconnect", faultState: Self.isGone)
        Self.checkStreamStayedAlive(frames)
        let placeholders = frames.filter { $0.state != .live }
        #expect(placeholders.count >= 10, "\(placeholders.count) placeholders")
        #expect(placeholders.allSatisfy { Self.isGone($0.state) }, "an unplug is reported as gone, never failing")
        #expect(source.placeholderFrames == placeholders.count)
        #expect(source.reopenCount == 1)
        // One copy for the whole fault: the last good frame, taken before the buffers were unmapped.
        #expect(source.copiedFrames == 1)
        #expect(source.errorBuffers == 0)
        #expect(logs.contains { $0.level == .warning && $0.message.hasPrefix("camera lost") && $0.metadata["camera"] == "gone" })
        #expect(logs.contains { $0.level == .notice && $0.message.hasPrefix("camera back") })
        #expect(!logs.contains { $0.metadata["camera"] == "failing" })
        let report = try #require(logs.first { $0.message.hasPrefix("camera lost") })
        // Whichever buffer call comes first after the unplug fails: the dequeue or the re-queue.
        let reason = report.metadata["reason"] ?? ""
        #expect(reason.wholeMatch(of: /VIDIOC_(DQ|Q)BUF failed: No such device \(errno 19\)/) != nil, "\(report.metadata)")
    }

    /// A fatal streaming error: DQBUF fails with EIO while the device stays present.
    @Test func fatalStreamingErrorIsReportedAsFailingAndRecovers() async throws {
        let (source, frames, logs) = try await Self.captureThroughFault(control: "inject_fatal_streaming_error", faultState: Self.isFailing)
        Self.checkStreamStayedAlive(frames)
        let placeholders = frames.filter { $0.state != .live }
        #expect(!placeholders.isEmpty && placeholders.allSatisfy { Self.isFailing($0.state) })
        #expect(source.placeholderFrames == placeholders.count)
        #expect(source.reopenCount == 1)
        #expect(source.copiedFrames == 1)
        let report = try #require(logs.first { $0.message.hasPrefix("camera lost") })
        #expect(report.level == .error && report.metadata["camera"] == "failing")
        // vivid fails whichever buffer call comes next: the dequeue, or the re-queue after it.
        let reason = report.metadata["reason"] ?? ""
        #expect(reason.wholeMatch(of: /VIDIOC_(DQ|Q)BUF failed: Input\/output error \(errno 5\)/) != nil, "\(report.metadata)")
    }

    /// One buffer flagged V4L2_BUF_FLAG_ERROR: dropped and counted; capture goes on undisturbed.
    @Test func errorFlaggedBufferIsSkippedAndCounted() async throws {
        let logs = RecordingLogHandler.Store()
        let source = try V4L2CaptureSource(settings: Self.settings(.yuyv), logger: RecordingLogHandler.logger(logs))
        let recorder = FrameRecorder()
        try source.start { [source] frame in recorder.record(frame, state: source.state) }
        defer { source.stop() }
        try #require(try await recorder.wait(seconds: 20) { recorder.count >= 30 })
        try VividEnvironment.setControl("inject_v4l2_buf_flag_error")
        try #require(try await recorder.wait(seconds: 10) { source.errorBuffers == 1 }, "no error buffer counted")
        let countAtError = recorder.count
        try #require(try await recorder.wait(seconds: 10) { recorder.count >= countAtError + 30 })
        source.stop()
        let frames = recorder.all
        #expect(frames.allSatisfy { $0.state == .live })
        #expect(source.errorBuffers == 1 && source.reopenCount == 0 && source.placeholderFrames == 0)
        // The flagged buffer's slot is a missing sequence number. Under emulation on a busy host
        // vivid may also drop a frame now and then: every other missing slot must be one counted
        // as a driver drop, so nothing goes missing unaccounted.
        let steps = zip(frames, frames.dropFirst()).map { $1.sequence - $0.sequence }
        #expect(steps.contains { $0 >= 2 })
        #expect(steps.reduce(0) { $0 + Int($1) - 1 } == 1 + source.driverDroppedFrames, "steps \(steps.filter { $0 != 1 })")
        #expect(logs.all.contains { $0.level == .warning && $0.message.contains("flagged a buffer as corrupt") })
    }

    /// Frames the driver drops show as sequence gaps, counted as driver drops.
    @Test func driverDropsAreCountedFromSequenceGaps() async throws {
        let source = try V4L2CaptureSource(settings: Self.settings(.yuyv), logger: Logger(label: "test"))
        let recorder = FrameRecorder()
        try source.start { [source] frame in recorder.record(frame, state: source.state) }
        defer { source.stop() }
        try #require(try await recorder.wait(seconds: 20) { recorder.count >= 10 })
        try VividEnvironment.setControl("percentage_of_dropped_buffers", 50)
        try #require(try await recorder.wait(seconds: 20) { source.driverDroppedFrames >= 10 })
        try VividEnvironment.setControl("percentage_of_dropped_buffers", 0)
        source.stop()
        let frames = recorder.all
        let gaps = zip(frames, frames.dropFirst()).map { Int($1.sequence - $0.sequence) - 1 }.reduce(0, +)
        #expect(gaps == source.driverDroppedFrames)
        #expect(source.errorBuffers == 0 && source.placeholderFrames == 0)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.timestamp > $0.timestamp && $1.sequence > $0.sequence })
    }
}
