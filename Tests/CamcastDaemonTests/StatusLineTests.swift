import Media
import Testing

@testable import CamcastDaemon
@testable import Outputs

@Suite struct StatusLineTests {
    private func snapshot(atSeconds seconds: UInt64, captured: Int, encoded: Int, bytes: Int, sent: Int? = nil) -> PipelineSnapshot {
        PipelineSnapshot(
            at: MonotonicTime(nanoseconds: seconds * 1_000_000_000), size: VideoSize(width: 1280, height: 720),
            targetKbps: 2500, framesCaptured: captured, framesEncoded: encoded, encodedBytes: bytes,
            skippedAtSource: 3, outputs: 2, queuedPackets: 4, droppedFrames: 5, reconnects: 1, framesSent: sent ?? encoded)
    }

    /// Issue 14 #14: "out" was the encoder's rate, so a stream whose every frame was dropped
    /// still read "out 30.0 fps".
    @Test func outCountsFramesThatLeftNotFramesEncoded() {
        let previous = snapshot(atSeconds: 100, captured: 3000, encoded: 3000, bytes: 10_000_000, sent: 2000)
        let current = snapshot(atSeconds: 110, captured: 3300, encoded: 3300, bytes: 13_125_000, sent: 2000)
        let line = StatusLine(previous: previous, current: current, uptimeSeconds: 5).text
        #expect(line.contains("in 30.0 fps out 0.0 fps"), "\(line)")
    }

    @Test func ratesAreOverTheIntervalBetweenSnapshots() {
        let previous = snapshot(atSeconds: 100, captured: 3000, encoded: 2990, bytes: 10_000_000)
        // 10 s later: 300 frames in, 299 out, 3 125 000 bytes = 2500 kbit/s.
        let current = snapshot(atSeconds: 110, captured: 3300, encoded: 3289, bytes: 13_125_000)
        let line = StatusLine(previous: previous, current: current, uptimeSeconds: 93784).text
        #expect(
            line == "1280x720 in 30.0 fps out 29.9 fps 2500/2500 kbit/s queue 0.0 s dropped 8 reconnects 1 outputs 2 up 1d02:03:04")
    }

    @Test func placeholdersLeadTheLineAndDriverDropsCountAsDropped() {
        let previous = snapshot(atSeconds: 100, captured: 3000, encoded: 2990, bytes: 10_000_000)
        var current = snapshot(atSeconds: 110, captured: 3300, encoded: 3289, bytes: 13_125_000)
        current.droppedByDriver = 7
        current.placeholderReason = "waiting for camera /dev/video0"
        let line = StatusLine(previous: previous, current: current, uptimeSeconds: 5).text
        #expect(
            line == "[waiting for camera /dev/video0] 1280x720 in 30.0 fps out 29.9 fps 2500/2500 kbit/s queue 0.0 s dropped 15 reconnects 1 outputs 2 up 0:00:05")
    }

    /// A live picture dropped at the encoder stage's full queue is a frame lost, as a skip is.
    @Test func picturesDroppedAtTheEncodersQueueCountAsDropped() {
        let previous = snapshot(atSeconds: 100, captured: 3000, encoded: 2990, bytes: 10_000_000)
        var current = snapshot(atSeconds: 110, captured: 3300, encoded: 3289, bytes: 13_125_000)
        current.droppedAtEncoder = 6
        let line = StatusLine(previous: previous, current: current, uptimeSeconds: 5).text
        #expect(line.contains(" dropped 14 "), "\(line)")
    }

    @Test func adaptiveBitrateShowsTheBitrateInUse() {
        let previous = snapshot(atSeconds: 100, captured: 3000, encoded: 2990, bytes: 10_000_000)
        var current = snapshot(atSeconds: 110, captured: 3300, encoded: 3289, bytes: 10_650_000)
        current.adaptedKbps = 500
        let line = StatusLine(previous: previous, current: current, uptimeSeconds: 5).text
        #expect(
            line == "1280x720 in 30.0 fps out 29.9 fps 520/2500 kbit/s abr 500 queue 0.0 s dropped 8 reconnects 1 outputs 2 up 0:00:05")
    }

    @Test func audioFiguresFollowTheOutputsAndADeviceProblemLeads() {
        var previous = snapshot(atSeconds: 100, captured: 3000, encoded: 2990, bytes: 10_000_000)
        var current = snapshot(atSeconds: 110, captured: 3300, encoded: 3289, bytes: 13_125_000)
        previous.audio = PipelineSnapshot.Audio(frames: 1000, xruns: 1, trouble: nil)
        current.audio = PipelineSnapshot.Audio(frames: 1469, xruns: 2, trouble: nil)
        let line = StatusLine(previous: previous, current: current, uptimeSeconds: 5).text
        #expect(line == "1280x720 in 30.0 fps out 29.9 fps 2500/2500 kbit/s queue 0.0 s dropped 8 reconnects 1 outputs 2 audio 46.9/s xruns 2 up 0:00:05")
        current.audio?.trouble = "silenced: device unplugged"
        let gone = StatusLine(previous: previous, current: current, uptimeSeconds: 5).text
        #expect(gone.hasPrefix("[audio silenced: device unplugged] 1280x720 in 30.0 fps"), "\(gone)")
    }

    @Test(arguments: [(0.0, "0:00:00"), (5.9, "0:00:05"), (3661, "1:01:01"), (86399, "23:59:59"), (86400, "1d00:00:00")])
    func uptime(_ seconds: Double, _ text: String) {
        #expect(StatusLine.duration(seconds) == text)
    }

    @Test func oneDecimal() {
        #expect(StatusLine.oneDecimal(29.97) == "30.0")
        #expect(StatusLine.oneDecimal(0.04) == "0.0")
        #expect(StatusLine.oneDecimal(7.25) == "7.3")
    }
}
