import Media

/// The interleaving rule, without threads: packets of two tracks in, one sequence out in
/// non-decreasing timestamp (DTS) order. `PacketInterleaver` runs it on its own thread.
///
/// Each track's packets are held until nothing earlier can still come from the other track:
/// until that track's newest packet is as late or later, or until the track has announced that
/// its next packet will be (`announce`). The announcement is what keeps the latency down with
/// sound: an AAC encoder hands out a frame two frames after its samples were captured, so a
/// picture that waited for the first AAC packet at or after its own time waited three AAC frames
/// (75 ms at 48 kHz, measured); the encoder knows the next packet's time as soon as it has handed
/// out the one before, one frame earlier.
///
/// The wait is bounded in media time, not wall time: a packet is released anyway once its own
/// track has run `window` milliseconds past it (the other track stalled — an audio device that
/// hangs, an encoder that fell behind), so a stalled track adds at most that much latency and
/// never stops the other. A packet that then arrives behind what was released is moved up to the
/// last released time (its pts with it, keeping pts − dts), and past its own track's last time by
/// a millisecond where several land there (a track's times must rise: FFmpeg rejects equal DTS
/// within a stream, "non monotonically increasing dts"), and counted in `late`: the stream's time
/// line never goes backwards. The same bound in media time also holds for sources played faster
/// than real time.
///
/// Even announced, the audio that covers a picture's instant exists only 43–64 ms after it (an
/// AAC frame is complete 21 ms after its first sample and libavcodec hands it out two frames
/// later). So the order can put every presentation time `presentationDelay` later (audio's dts
/// and pts, video's pts) while a picture keeps its decode time: the picture is then decoded that
/// much ahead of its showing, as a B-frame stream's are, its composition offset says so, and it
/// goes out with the audio of its decode time, which exists already. Sync is unchanged: both
/// tracks are shown on the same presentation time line, moved as one.
///
/// The delay only ever grows (`raisePresentationDelay`): a reload to a lower sample rate makes
/// the AAC frames longer (three are 384 ms at 8 kHz), and a delay that stayed at the old rate's
/// would hold every picture until the sound caught up. Growing it moves the time line forward,
/// which players take as a short gap; shrinking it would move it back, and RTMP servers and FFmpeg
/// reject times that go back. The sound takes the new delay at once (its new encoder's packets
/// come after the old one's last), the pictures at the next keyframe: a picture after it may not
/// be shown before one ahead of it (B-frames), and after a keyframe none is.
struct PacketOrder {
    private struct Track {
        var held: [MediaPacket] = []
        var head = 0
        /// Nothing earlier than this will come from the track: its newest packet, or the time it
        /// announced for its next one, whichever is later.
        var horizon: Int64?
        /// The newest DTS pushed on the track, for the window.
        var newest: Int64?
        /// The last DTS released on the track.
        var last: Int64 = .min

        var first: MediaPacket? { head < held.count ? held[head] : nil }

        mutating func removeFirst() -> MediaPacket {
            defer {
                head += 1
                if head == held.count {
                    held.removeAll(keepingCapacity: true)
                    head = 0
                }
            }
            return held[head]
        }

        mutating func raiseHorizon(_ dts: Int64) { horizon = max(horizon ?? .min, dts) }
    }

    let window: Int64
    /// Added to audio's decode and presentation times (0: none): the delay in force.
    private(set) var presentationDelay: Int64
    /// Added to pictures' presentation times: `presentationDelay`, from the first keyframe after
    /// a raise on.
    private var videoDelay: Int64
    /// A raised delay the pictures take at their next keyframe.
    private var pendingVideoDelay: Int64?
    private var video = Track()
    private var audio = Track()
    private var lastReleased: Int64 = .min
    /// Packets that arrived behind the released time line and were moved up to it.
    private(set) var late = 0
    /// After `releaseAll`, nothing is held any more: packets pass in order of arrival.
    private(set) var isFlushed = false

    init(windowMilliseconds: Int64, presentationDelayMilliseconds: Int64 = 0) {
        window = windowMilliseconds
        presentationDelay = presentationDelayMilliseconds
        videoDelay = presentationDelayMilliseconds
    }

    /// Raises the delay to `milliseconds` (the sound's now, the pictures' at their next keyframe);
    /// false, changing nothing, if it is not larger than the one in force.
    mutating func raisePresentationDelay(to milliseconds: Int64) -> Bool {
        guard milliseconds > presentationDelay else { return false }
        presentationDelay = milliseconds
        pendingVideoDelay = milliseconds
        return true
    }

    /// Takes `packet` and appends to `released` whatever may go now, in order.
    mutating func push(_ packet: MediaPacket, releasing released: inout [MediaPacket]) {
        var packet = packet
        switch packet.mediaKind {
        case .video:
            if packet.isKeyframe, let pending = pendingVideoDelay {
                videoDelay = pending
                pendingVideoDelay = nil
            }
            packet.pts += videoDelay
            video.held.append(packet)
            video.newest = max(video.newest ?? .min, packet.dts)
            video.raiseHorizon(packet.dts)
        case .audio:
            packet.dts += presentationDelay
            packet.pts += presentationDelay
            audio.held.append(packet)
            audio.newest = max(audio.newest ?? .min, packet.dts)
            audio.raiseHorizon(packet.dts)
        }
        release(into: &released, all: isFlushed)
    }

    /// The track of `kind` says its next packet will not be earlier than `dts`.
    mutating func announce(_ kind: MediaPacket.MediaKind, next dts: Int64, releasing released: inout [MediaPacket]) {
        switch kind {
        case .video: video.raiseHorizon(dts)
        case .audio: audio.raiseHorizon(dts + presentationDelay)
        }
        release(into: &released, all: isFlushed)
    }

    /// Releases everything held (at stop); later pushes pass straight through, moved up where needed.
    mutating func releaseAll(into released: inout [MediaPacket]) {
        isFlushed = true
        release(into: &released, all: true)
    }

    private mutating func release(into released: inout [MediaPacket], all: Bool) {
        while true {
            let takeVideo: Bool
            switch (video.first, audio.first) {
            case (nil, nil):
                return
            case (let first?, let other?):
                // At equal times video first: a run starts at a video keyframe, and audio at that
                // instant then goes with it rather than before it.
                takeVideo = first.dts <= other.dts
            case (let first?, nil):
                guard all || ready(first.dts, other: audio.horizon, own: video.newest) else { return }
                takeVideo = true
            case (nil, let first?):
                guard all || ready(first.dts, other: video.horizon, own: audio.newest) else { return }
                takeVideo = false
            }
            var packet = takeVideo ? video.removeFirst() : audio.removeFirst()
            let trackLast = takeVideo ? video.last : audio.last
            if packet.dts < lastReleased {
                let earliest = max(lastReleased, trackLast == .min ? .min : trackLast + 1)
                let shift = earliest - packet.dts
                packet.dts += shift
                packet.pts += shift
                late += 1
            }
            lastReleased = max(lastReleased, packet.dts)
            if takeVideo { video.last = packet.dts } else { audio.last = packet.dts }
            released.append(packet)
        }
    }

    /// A lone track's packet may go once the other track can bring nothing earlier (its horizon
    /// has reached the packet's time: what comes at the same time goes after it, still in
    /// order), or once its own track has run a window past it (the other stalled). A track that
    /// has never delivered anything does not hold the other up beyond the window.
    private func ready(_ dts: Int64, other: Int64?, own: Int64?) -> Bool {
        if let other, other >= dts { return true }
        return (own ?? dts) - dts > window
    }
}
