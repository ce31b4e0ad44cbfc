@testable import Capture
import Media

extension TestPatternSource {
    /// Frame `index` of the pattern on its own, rendered as the source's thread renders it (a
    /// renderer of the same size; the pattern depends only on the size and the index). Test-only:
    /// the product never needs a frame outside the paced stream.
    func frame(index: UInt64, timestamp: MonotonicTime) -> VideoFrame {
        let renderer = TestPatternRenderer(width: size.width, height: size.height)
        var bytes = [UInt8](repeating: 0, count: renderer.layout.byteCount)
        renderer.render(frame: index, into: &bytes)
        return VideoFrame(
            width: size.width, height: size.height, pixelFormat: .i420, planes: renderer.layout.planes,
            bytes: bytes, timestamp: timestamp, sequence: index)
    }
}
