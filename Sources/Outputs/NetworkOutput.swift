import Media
import Telemetry

/// An output that publishes over a network connection of its own (RTMP, SRT): what a group of
/// legs (`OutputGroup`) and an outage recording need to know of it, whatever its transport.
package protocol NetworkOutput: StreamOutput {
    /// Its meter: the phase says whether it streams now.
    var meter: OutputMeter { get }
    /// Publishing now (connected, published, not stopping): a group's test of a leg.
    var isStreaming: Bool { get }
    /// Video frames handed to the socket so far.
    var sentFrameCount: Int { get }
    /// Since when a live connection has carried nothing (data waiting, nothing acknowledged): a
    /// black-holed link is down from then, long before its connection is cut. nil while it
    /// progresses, or where the transport does not say.
    var stalledSince: MonotonicTime? { get }
}

extension RTMPOutput: NetworkOutput {
    package var stalledSince: MonotonicTime? {
        let since = stallStartNanoseconds.load(ordering: .relaxed)
        return since == 0 ? nil : MonotonicTime(nanoseconds: since)
    }

    package var isInterrupted: Bool {
        state.withLock { $0.isInterrupted(hasStreamed: sentFrames.load(ordering: .relaxed) > 0) }
    }

    package var isStreaming: Bool {
        state.withLock { if case .streaming = $0 { true } else { false } }
    }

    package var sentFrameCount: Int { sentFrames.load(ordering: .relaxed) }
}

extension SRTOutput: NetworkOutput {
    /// From libsrt's statistics: packets waiting and none acknowledged (see `readStatistics`).
    /// The connection is cut by libsrt's peer idle timeout; a group fails over from here sooner.
    package var stalledSince: MonotonicTime? {
        let since = stallStartNanoseconds.load(ordering: .relaxed)
        return since == 0 ? nil : MonotonicTime(nanoseconds: since)
    }

    package var isInterrupted: Bool {
        state.withLock { $0.isInterrupted(hasStreamed: sentFrames.load(ordering: .relaxed) > 0) }
    }

    package var isStreaming: Bool {
        state.withLock { if case .streaming = $0 { true } else { false } }
    }

    package var sentFrameCount: Int { sentFrames.load(ordering: .relaxed) }
}
