import Logging
import Media
import V4L2

/// The MJPEG step of camera capture: decodes one frame to NV12 in the layout the capture loop
/// delivers (`V4L2FrameLayout.decodedMJPEG`), or drops a bad one, counts it and says why.
///
/// The V4L2 capture loop and the MJPEG replay source both go through this, so a replayed stream
/// is decoded, laid out and rejected exactly as the camera's would be. Used by one thread.
///
/// No allocation per frame: the picture is decoded into arrays kept here. With two (the V4L2 loop)
/// they are used in turn, so the one handed out last stays untouched: the loop keeps it as its last
/// good frame for placeholders, and a failed decode, which may have written part of its buffer,
/// must not spoil it. A source that keeps nothing (the replay source) needs one, and saves a
/// picture's memory (3 MB at 1080p; peak RSS is a benchmark target). Either way a buffer is written
/// in place, which needs no copy as long as nobody kept the frame that used it before (the encoder
/// does not); a consumer that does keeps its own copy, made by the array's copy-on-write.
final class MJPEGFrameDecoding {
    let layout: V4L2FrameLayout
    private let decoder: MJPEGDecoder
    private let logger: Logger
    private let countCorrupt: () -> Void
    /// The pictures decoded into in turn, and which one is next.
    private var pictures: [[UInt8]]
    private var next = 0
    /// When a bad frame was last reported, and the bad frames since then not yet reported: a
    /// corrupt stream is one warning per `warningIntervalNanoseconds` with a count, not one each.
    private var lastWarning: MonotonicTime?
    private var unreported = 0
    static let warningIntervalNanoseconds: UInt64 = 10_000_000_000

    /// `keepsLastPicture`: the caller holds on to the last picture (see above), so two buffers are
    /// used in turn. Nil if TurboJPEG cannot make a decompressor (out of memory).
    init?(width: Int, height: Int, keepsLastPicture: Bool, logger: Logger, countCorrupt: @escaping () -> Void) {
        guard let decoder = MJPEGDecoder() else { return nil }
        pictures = keepsLastPicture ? [[], []] : [[]]
        self.decoder = decoder
        layout = .decodedMJPEG(width: width, height: height)
        self.logger = logger
        self.countCorrupt = countCorrupt
    }

    /// The frame's picture as tightly packed NV12, or nil when it is dropped (corrupt, truncated,
    /// another size); `sequence` is only for the log.
    func decode(_ jpeg: UnsafeRawBufferPointer, sequence: UInt64) -> [UInt8]? {
        // Allocated on first use, so a decoder that never sees a frame costs nothing.
        if pictures[next].count != layout.byteCount { pictures[next] = [UInt8](repeating: 0, count: layout.byteCount) }
        do {
            // Written in place through the subscript's modify access: no copy unless the array is
            // still referenced from a frame someone kept.
            try pictures[next].withUnsafeMutableBufferPointer { (bytes) throws(MJPEGDecoder.DecodeError) in
                try decoder.decodeNV12(jpeg, width: layout.width, height: layout.height, into: bytes)
            }
        } catch {
            countCorrupt()
            reportBadFrame(reason: error.reason, sequence: sequence)
            return nil
        }
        defer { next = (next + 1) % pictures.count }
        return pictures[next]
    }
}

extension MJPEGFrameDecoding {
    /// The first bad frame is reported at once; later ones at most once per 10 s, with how many
    /// were dropped since the last report and the latest reason.
    private func reportBadFrame(reason: String, sequence: UInt64) {
        unreported += 1
        let now = MonotonicTime.now()
        if let lastWarning, now < lastWarning.adding(nanoseconds: Self.warningIntervalNanoseconds) { return }
        let count = unreported
        unreported = 0
        let message: Logger.Message = lastWarning == nil
            ? "dropped a bad MJPEG frame" : "dropped bad MJPEG frames"
        lastWarning = now
        logger.warning(message, metadata: [
            "count": "\(count)", "reason": "\(reason)", "sequence": "\(sequence)",
            "next_report": "at most one per \(Self.warningIntervalNanoseconds / 1_000_000_000) s",
        ])
    }
}

extension V4L2FrameLayout {
    /// What an MJPEG stream is delivered as once decoded: tightly packed NV12 at the frame size.
    static func decodedMJPEG(width: Int, height: Int) -> V4L2FrameLayout {
        V4L2FrameLayout(pixelFormat: .nv12, width: width, height: height, bytesPerLine: width, sizeImage: 0)!
    }
}
