import Logging
import Media

/// `mode: outage`: in front of a `SegmentRecorder`, keeps the pre-roll in memory while every RTMP
/// output streams, and when one stops, hands the recorder the pre-roll and everything after it,
/// until `postSeconds` of stream time after the last one streams again (ending at a keyframe,
/// which starts the next pre-roll). On the output thread only, like the recorder: not `Sendable`,
/// reached only through its `RecordingFile`, whose calls debug builds check are on that thread.
final class OutageRecorder {
    private let recorder: SegmentRecorder
    private let policy: OutagePolicy
    private let isDown: @Sendable () -> Bool
    private let logger: Logger
    private var preRoll: PreRoll
    private var recording = false
    /// Stream time (ms) at which every output streamed again; nil while one is down.
    private var restoredAt: Int64?
    private var down = false

    init(recorder: SegmentRecorder, policy: OutagePolicy, isDown: @escaping @Sendable () -> Bool, logger: Logger) {
        self.recorder = recorder
        self.policy = policy
        self.isDown = isDown
        self.logger = logger
        preRoll = PreRoll(seconds: policy.preSeconds, maxBytes: policy.preBytes)
    }

    func handle(_ packet: MediaPacket) {
        // The outputs' state is read once per picture; the sound goes with it.
        if packet.mediaKind == .video { down = isDown() }
        guard recording else {
            preRoll.append(packet)
            guard down else { return }
            let kept = preRoll.take()
            recording = true
            restoredAt = nil
            let seconds = kept.first.map { Double(packet.dts - $0.dts) / 1000 } ?? 0
            logger.notice("an RTMP output is down; recording the outage", metadata: ["from_seconds_before": "\(seconds)"])
            for earlier in kept { recorder.handle(earlier) }
            return
        }
        if down {
            restoredAt = nil
        } else if restoredAt == nil {
            restoredAt = packet.dts
        }
        if let restoredAt, packet.mediaKind == .video, packet.isKeyframe,
            packet.dts - restoredAt >= Int64((policy.postSeconds * 1000).rounded())
        {
            recorder.finish()
            recording = false
            self.restoredAt = nil
            logger.notice("every RTMP output streams again; the outage recording ends")
            preRoll.append(packet)
            return
        }
        recorder.handle(packet)
    }

    func finish() {
        if recording { recorder.finish() }
    }
}
