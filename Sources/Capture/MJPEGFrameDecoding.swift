import Logging

/// The MJPEG step of camera capture: decodes one frame to I420 in the layout the capture loop
/// delivers (`V4L2FrameLayout.decodedMJPEG`), or drops a bad one, counts it and says why.
///
/// The V4L2 capture loop and the MJPEG replay source both go through this, so a replayed stream
/// is decoded, laid out and rejected exactly as the camera's would be. Used by one thread.
final class MJPEGFrameDecoding {
    let layout: V4L2FrameLayout
    private let decoder: MJPEGDecoder
    private let logger: Logger
    private let countCorrupt: () -> Void

    /// Nil if TurboJPEG cannot make a decompressor (out of memory).
    init?(width: Int, height: Int, logger: Logger, countCorrupt: @escaping () -> Void) {
        guard let decoder = MJPEGDecoder() else { return nil }
        self.decoder = decoder
        layout = .decodedMJPEG(width: width, height: height)
        self.logger = logger
        self.countCorrupt = countCorrupt
    }

    /// The frame's picture as tightly packed I420, or nil when it is dropped (corrupt, truncated,
    /// another size); `sequence` is only for the log.
    func decode(_ jpeg: UnsafeRawBufferPointer, sequence: UInt64) -> [UInt8]? {
        do {
            return try decoder.decodeI420(jpeg, width: layout.width, height: layout.height)
        } catch {
            countCorrupt()
            logger.warning("dropped a bad MJPEG frame", metadata: ["reason": "\(error.reason)", "sequence": "\(sequence)"])
            return nil
        }
    }
}

extension V4L2FrameLayout {
    /// What an MJPEG stream is delivered as once decoded: tightly packed I420 at the frame size.
    static func decodedMJPEG(width: Int, height: Int) -> V4L2FrameLayout {
        V4L2FrameLayout(pixelFormat: .i420, width: width, height: height, bytesPerLine: width, sizeImage: 0)!
    }
}
