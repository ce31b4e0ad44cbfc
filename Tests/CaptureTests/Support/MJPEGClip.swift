import Foundation
import TestSupport

/// Motion JPEG streams written by ffmpeg (an encoder nobody here wrote), as `ffmpeg -f mjpeg`
/// writes a recording and a UVC camera sends frames: JPEG images back to back.
enum MJPEGClip {
    /// `frames` frames of testsrc2 (a moving picture: every frame differs) at `width`x`height`.
    static func stream(width: Int = 320, height: Int = 180, frames: Int, pixelFormat: String = "yuvj422p") throws -> [UInt8] {
        [UInt8](try FFmpegTools.run("ffmpeg", [
            "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30",
            "-frames:v", "\(frames)", "-pix_fmt", pixelFormat, "-f", "mjpeg", "-",
        ]))
    }

    /// The images of `stream`, split at each SOI that follows an EOI (testsrc2 JPEGs from ffmpeg
    /// carry no thumbnail, so this naive split is right for them and independent of the reader).
    static func images(_ stream: [UInt8]) -> [[UInt8]] {
        var images: [[UInt8]] = []
        var start = 0
        var index = 2
        while index + 3 < stream.count {
            if stream[index] == 0xFF, stream[index + 1] == 0xD9, stream[index + 2] == 0xFF, stream[index + 3] == 0xD8 {
                images.append(Array(stream[start..<(index + 2)]))
                start = index + 2
            }
            index += 1
        }
        images.append(Array(stream[start...]))
        return images
    }

    static func file(_ bytes: [UInt8], name: String = "clip.mjpeg") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-mjpeg-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
