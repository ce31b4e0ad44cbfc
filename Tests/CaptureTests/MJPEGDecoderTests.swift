@testable import Capture
import Foundation
import Media
import TestSupport
import Testing

/// The JPEG images come from ffmpeg (an encoder nobody here wrote), and the decoded pictures are
/// compared with ffmpeg's own decode of the same file.
@Suite struct MJPEGDecoderTests {
    static let width = 320
    static let height = 180

    static func ffmpeg(_ arguments: [String]) throws -> Data {
        try FFmpegTools.run("ffmpeg", ["-hide_banner", "-loglevel", "error"] + arguments)
    }

    /// A 320x180 test picture as JPEG in the given chroma layout (yuvj420p, yuvj422p, yuvj444p, gray).
    static func jpeg(_ pixelFormat: String) throws -> Data {
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=1", "-frames:v", "1",
                    "-pix_fmt", pixelFormat, "-f", "mjpeg", "-"])
    }

    /// `decoder`'s NV12 picture of `jpeg`, in a buffer of its own.
    static func decode(_ jpeg: some ContiguousBytes, with decoder: MJPEGDecoder, width: Int = width, height: Int = height) throws -> [UInt8] {
        var picture = [UInt8](repeating: 0, count: MJPEGDecoder.nv12ByteCount(width: width, height: height))
        try jpeg.withUnsafeBytes { jpeg in
            try picture.withUnsafeMutableBufferPointer { try decoder.decodeNV12(jpeg, width: width, height: height, into: $0) }
        }
        return picture
    }

    /// ffmpeg's decode of `jpeg` as NV12 (limited range: swscale converts the full-range yuvj input).
    static func reference(_ jpeg: Data) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-\(UInt32.random(in: 0...UInt32.max)).jpg")
        try jpeg.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return [UInt8](try ffmpeg(["-i", file.path, "-pix_fmt", "nv12", "-f", "rawvideo", "-"]))
    }

    static func meanAbsoluteDifference(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Double {
        Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    @Test(arguments: ["yuvj420p", "yuvj422p", "yuvj444p", "gray"])
    func decodesToNV12LikeFFmpeg(pixelFormat: String) throws {
        let jpeg = try Self.jpeg(pixelFormat)
        let decoder = try #require(MJPEGDecoder())
        let picture = try Self.decode(jpeg, with: decoder)
        let expected = try Self.reference(jpeg)
        let lumaSize = Self.width * Self.height
        try #require(picture.count == lumaSize * 3 / 2)
        try #require(expected.count == picture.count)
        // Two IDCT implementations: luma agrees to rounding, chroma also to the resampling filter.
        #expect(Self.meanAbsoluteDifference(picture[..<lumaSize], expected[..<lumaSize]) < 1.0)
        #expect(Self.meanAbsoluteDifference(picture[lumaSize...], expected[lumaSize...]) < 3.0)
        // And the picture is not flat: testsrc2 has colour bars and moving shapes.
        #expect(Set(picture[..<lumaSize]).count > 50)
    }

    @Test func rejectsAnImageOfAnotherSize() throws {
        let jpeg = try Self.jpeg("yuvj420p")
        let decoder = try #require(MJPEGDecoder())
        #expect(throws: MJPEGDecoder.DecodeError(reason: "image is 320x180, the stream is 640x360")) {
            try Self.decode(jpeg, with: decoder, width: 640, height: 360)
        }
    }

    /// Every truncation, byte-by-byte near the end (where cameras cut frames short) and in steps
    /// elsewhere, is rejected and never crashes; the decoder still works afterwards.
    @Test func truncatedImagesAreRejected() throws {
        let jpeg = [UInt8](try Self.jpeg("yuvj422p"))
        let decoder = try #require(MJPEGDecoder())
        let lengths = Array(stride(from: 0, to: jpeg.count - 64, by: 97)) + Array((jpeg.count - 64)..<jpeg.count - 2)
        for length in lengths {
            #expect(throws: MJPEGDecoder.DecodeError.self, "prefix of \(length) bytes") {
                try Self.decode(Array(jpeg[..<length]), with: decoder)
            }
        }
        let whole = try Self.decode(jpeg, with: decoder)
        #expect(whole == (try Self.decode(jpeg, with: try #require(MJPEGDecoder()))))
    }

    @Test func corruptDataIsRejected() throws {
        let decoder = try #require(MJPEGDecoder())
        var noise = [UInt8](repeating: 0, count: 4096)
        var seed: UInt32 = 12345
        for index in noise.indices {
            seed = seed &* 1_103_515_245 &+ 12345
            noise[index] = UInt8(truncatingIfNeeded: seed >> 16)
        }
        #expect(throws: MJPEGDecoder.DecodeError.self) {
            try Self.decode(noise, with: decoder)
        }
        // A real header followed by garbage entropy-coded data.
        var damaged = [UInt8](try Self.jpeg("yuvj420p"))
        for index in stride(from: damaged.count / 2, to: damaged.count - 2, by: 7) { damaged[index] = 0xFF }
        #expect(throws: MJPEGDecoder.DecodeError.self) {
            try Self.decode(damaged, with: decoder)
        }
        #expect(throws: MJPEGDecoder.DecodeError(reason: "empty buffer")) {
            try Self.decode([UInt8](), with: decoder)
        }
    }
}
