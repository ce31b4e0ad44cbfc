import Foundation
import Media
import TestSupport
import Testing

@testable import Capture

/// /snapshot.jpg's encoder: each layout a camera or the slate may hand on becomes a JPEG that
/// FFmpeg decodes at the frame's size and in the frame's colour.
@Suite struct SnapshotJPEGTests {
    static let width = 64
    static let height = 48
    /// Limited-range BT.601 red.
    static let (y, u, v): (UInt8, UInt8, UInt8) = (81, 90, 240)

    static func frame(_ format: PixelFormat) -> VideoFrame {
        let w = width, h = height
        let luma = [UInt8](repeating: y, count: w * h)
        let quarter = w / 2 * h / 2
        let bytes: [UInt8]
        let planes: [VideoPlane]
        switch format {
        case .i420:
            bytes = luma + [UInt8](repeating: u, count: quarter) + [UInt8](repeating: v, count: quarter)
            planes = [VideoPlane(offset: 0, bytesPerRow: w), VideoPlane(offset: w * h, bytesPerRow: w / 2),
                      VideoPlane(offset: w * h + quarter, bytesPerRow: w / 2)]
        case .nv12:
            bytes = luma + Array((0..<quarter).flatMap { _ in [u, v] })
            planes = [VideoPlane(offset: 0, bytesPerRow: w), VideoPlane(offset: w * h, bytesPerRow: w)]
        case .yuyv:
            bytes = Array((0..<(w * h / 2)).flatMap { _ in [y, u, y, v] })
            planes = [VideoPlane(offset: 0, bytesPerRow: w * 2)]
        default:
            bytes = Array((0..<(w * h)).flatMap { _ in [255, 0, 0] as [UInt8] })
            planes = [VideoPlane(offset: 0, bytesPerRow: w * 3)]
        }
        return VideoFrame(
            width: w, height: h, pixelFormat: format, planes: planes, bytes: bytes, timestamp: MonotonicTime(nanoseconds: 0), sequence: 0)
    }

    @Test(arguments: [PixelFormat.i420, .nv12, .yuyv, .rgb24])
    func decodesAtTheFrameSizeInItsColour(_ format: PixelFormat) throws {
        let jpeg = try #require(SnapshotJPEG.encode(Self.frame(format)))
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(format)-\(getpid()).jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(jpeg).write(to: file)
        let rgb = try FFmpegTools.run("ffmpeg", ["-v", "error", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        #expect(rgb.count == Self.width * Self.height * 3, "decoded \(rgb.count) bytes")
        let middle = (Self.height / 2 * Self.width + Self.width / 2) * 3
        let (r, g, b) = (Int(rgb[middle]), Int(rgb[middle + 1]), Int(rgb[middle + 2]))
        #expect(r > 180 && g < 70 && b < 70, "\(format): (\(r), \(g), \(b)) is not red")
    }
}
