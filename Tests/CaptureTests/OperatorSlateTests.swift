import Foundation
import Media
import Overlay
import TestSupport
import Testing

@testable import Capture
import V4L2

/// The operator's slate: their JPEG (made by ffmpeg, decoded by libturbojpeg) stretched to the
/// stream's size, their text drawn over it by the overlay's renderer and read back by tesseract.
@Suite struct OperatorSlateTests {
    static var hasTools: Bool {
        ProcessInfo.processInfo.environment["CAMCAST_TEST_REQUIRE_INTEGRATION"] == "1"
            || (FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/tesseract"))
    }

    /// A 320x240 JPEG of one colour.
    static func jpeg(colour: String, in dir: URL) throws -> URL {
        let file = dir.appendingPathComponent("slate.jpg")
        let made = try FFmpegTools.result(
            "ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=\(colour):size=320x240", "-frames:v", "1", "-y", file.path])
        guard made.status == 0 else { throw HarnessError("ffmpeg could not make the JPEG: \(made.stderr)") }
        return file
    }

    @Test(.enabled(if: hasTools, "needs ffmpeg and tesseract-ocr"))
    func pictureStretchedAndTextReadable() throws {
        let dir = try Project.scratchDirectory("slate")
        let image = try Self.jpeg(colour: "0x3060C0", in: dir)
        let layout = try #require(V4L2FrameLayout(pixelFormat: .nv12, width: 640, height: 360, bytesPerLine: 640, sizeImage: 640 * 540))
        let slate = SlateSettings(text: "Camera offline\nBack soon", imagePath: image.path)
        let bytes = OfflineSlate.bytes(for: layout, slate: slate)
        #expect(bytes.count == layout.byteCount)
        // The picture's blue reaches every corner (stretched, not letterboxed): Cb well above grey.
        let uv = 640 * 360
        for (x, y) in [(0, 0), (318, 0), (0, 178), (318, 178)] {
            let cb = Int(bytes[uv + y * 640 + x * 2])
            #expect(cb > 150, "Cb \(cb) at chroma (\(x), \(y))")
        }
        // Painted once: the same bytes again without another decode.
        #expect(OfflineSlate.bytes(for: layout, slate: slate) == bytes)

        var pgm = Data("P5\n640 360\n255\n".utf8)
        pgm.append(contentsOf: bytes.prefix(uv))
        let file = dir.appendingPathComponent("slate.pgm")
        try pgm.write(to: file)
        // One OpenMP thread: the same text at under half the CPU (see OverlayFrames.read).
        let read = try ProcessRunner.run("/usr/bin/env", ["OMP_THREAD_LIMIT=1", "/usr/bin/tesseract", file.path, "-", "--psm", "6"], timeout: 60)
        #expect(read.status == 0)
        let lines = read.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(lines == ["Camera offline", "Back soon"], "tesseract read \(lines)")
    }

    @Test func aFileThatIsNoJPEGIsRefused() {
        guard case .failure(let error) = SlateImage.load(path: "/etc/hostname") else {
            Issue.record("a text file decoded as a JPEG")
            return
        }
        #expect(error.reason == "is not a JPEG file")
        guard case .failure(let missing) = SlateImage.load(path: "/nonexistent/slate.jpg") else {
            Issue.record("a missing file loaded as a slate")
            return
        }
        #expect(missing.reason == "no such file")
    }

    @Test func withoutASlateTheFlatOneStays() throws {
        let layout = try #require(V4L2FrameLayout(pixelFormat: .yuyv, width: 4, height: 2, bytesPerLine: 8, sizeImage: 16))
        #expect(OfflineSlate.bytes(for: layout, slate: nil) == OfflineSlate.bytes(for: layout))
    }
}
