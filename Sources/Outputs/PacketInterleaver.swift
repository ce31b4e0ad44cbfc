import Media
import Synchronization

/// Puts the packets of two encoders — video on the capture thread, audio on the audio thread —
/// into one sequence in non-decreasing timestamp (DTS) order, before they reach the outputs.
///
/// Why here and not in each output: every output needs the same order (FLV files and RTMP
/// connections alike require tags in time order), and ordering once before the outputs' queues
/// keeps those queues, the keyframe gate and the muxers single-stream and unchanged. The
/// interleaver holds each track's packets until the other track has caught up with them (its
/// newest packet is as late or later), so nothing from the other track can still come earlier.
///
/// The wait is bounded in media time, not wall time: a packet is released anyway once its own
/// track has run `windowMilliseconds` past it (the other track stalled — an audio device that
/// hangs, an encoder that fell behind), so a stalled track adds at most that much latency and
/// never stops the other. A packet that then arrives behind what was released is moved up to the
/// last released time (its pts with it, keeping pts − dts), and past its own track's last time by
/// a millisecond where several land there (a track's times must rise: FFmpeg rejects equal DTS
/// within a stream, "non monotonically increasing dts"), and counted in `latePackets`: the
/// stream's time line never goes backwards. The same bound in media time also holds for sources
/// played faster than real time.
///
/// Delivery happens under the interleaver's lock, which is what keeps the order: two threads
/// that released packets in order would otherwise race to the outputs. Delivery is a queue push
/// (`StreamOutput.write` never blocks), so the lock is held for microseconds.
package final class PacketInterleaver: Sendable {
    private struct State {
        var video: [MediaPacket] = []
        var audio: [MediaPacket] = []
        /// The newest DTS pushed on each track: nothing earlier will come from it.
        var newestVideo: Int64?
        var newestAudio: Int64?
        var lastReleased: Int64 = .min
        /// The last DTS released on each track.
        var lastVideo: Int64 = .min
        var lastAudio: Int64 = .min
        var late = 0
        var isFlushed = false
    }

    package static let defaultWindowMilliseconds: Int64 = 300

    private let state = Mutex(State())
    private let window: Int64
    private let deliver: @Sendable (MediaPacket) -> Void

    package init(windowMilliseconds: Int64 = PacketInterleaver.defaultWindowMilliseconds, deliver: @escaping @Sendable (MediaPacket) -> Void) {
        window = windowMilliseconds
        self.deliver = deliver
    }

    /// Packets that arrived behind the released time line and were moved up to it.
    package var latePackets: Int { withState { $0.late } }

    package func push(_ packet: MediaPacket) {
        withState { state in
            switch packet.mediaKind {
            case .video:
                state.video.append(packet)
                state.newestVideo = max(state.newestVideo ?? .min, packet.dts)
            case .audio:
                state.audio.append(packet)
                state.newestAudio = max(state.newestAudio ?? .min, packet.dts)
            }
            releaseReady(&state, all: state.isFlushed)
        }
    }

    /// Releases everything held, in order (at stop, before the outputs finish); later pushes pass
    /// straight through in order of arrival, moved up where needed.
    package func flush() {
        withState { state in
            state.isFlushed = true
            releaseReady(&state, all: true)
        }
    }

    /// `state.withLock`, annotated so ThreadSanitizer sees the handover between the capture and
    /// audio threads, which contend for this lock (see `ThreadSanitizer`).
    private func withState<R>(_ body: (inout State) -> R) -> R {
        let address = Unmanaged.passUnretained(self).toOpaque()
        return state.withLock { state in
            ThreadSanitizer.acquire(address)
            defer { ThreadSanitizer.release(address) }
            return body(&state)
        }
    }

    private func releaseReady(_ state: inout State, all: Bool) {
        while true {
            let takeVideo: Bool
            switch (state.video.first, state.audio.first) {
            case (nil, nil):
                return
            case (let video?, let audio?):
                // At equal times video first: a run starts at a video keyframe, and audio at that
                // instant then goes with it rather than before it.
                takeVideo = video.dts <= audio.dts
            case (let video?, nil):
                guard all || ready(video.dts, other: state.newestAudio, own: state.newestVideo) else { return }
                takeVideo = true
            case (nil, let audio?):
                guard all || ready(audio.dts, other: state.newestVideo, own: state.newestAudio) else { return }
                takeVideo = false
            }
            var packet = takeVideo ? state.video.removeFirst() : state.audio.removeFirst()
            let trackLast = takeVideo ? state.lastVideo : state.lastAudio
            if packet.dts < state.lastReleased {
                let earliest = max(state.lastReleased, trackLast == .min ? .min : trackLast + 1)
                let shift = earliest - packet.dts
                packet.dts += shift
                packet.pts += shift
                state.late += 1
            }
            state.lastReleased = max(state.lastReleased, packet.dts)
            if takeVideo { state.lastVideo = packet.dts } else { state.lastAudio = packet.dts }
            deliver(packet)
        }
    }

    /// A lone track's packet may go once the other track has reached its time (nothing earlier
    /// can come from it), or once its own track has run a window past it (the other stalled).
    /// A track that has never delivered anything does not hold the other up beyond the window.
    private func ready(_ dts: Int64, other: Int64?, own: Int64?) -> Bool {
        if let other, other >= dts { return true }
        return (own ?? dts) - dts > window
    }
}
