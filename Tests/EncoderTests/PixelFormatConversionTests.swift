import Encoder
import Foundation
import Media
import TestSupport
import Testing

/// Each input format goes through the conversion stage (libyuv, or straight on), as in the
/// pipeline, is encoded at a generous bitrate,
/// decoded by ffmpeg to yuv420p, and its luma compared with the source's.
@Suite struct PixelFormatConversionTests {
    /// Every decoded frame must be at least this close to the source luma. At 4 Mbit/s for 320x180
    /// x264 reaches ~45 dB here; a wrong conversion (swapped R/B, swapped planes, wrong strides)
    /// lands far below.
    static let minimumPSNR = 30.0

    static let width = 320, height = 180, count = 20

    static func settings(configure: (inout EncoderSettings) -> Void = { _ in }) -> EncoderSettings {
        Harness.settings(width: width, height: height, kbps: 4000) {
            $0.preset = "veryfast"
            configure(&$0)
        }
    }

    @Test(arguments: [PixelFormat.i420, .yv12, .nv12, .nv21, .yuyv, .uyvy, .rgb24, .bgr24, .bgra32])
    func decodedLumaMatchesTheSource(_ format: PixelFormat) throws {
        let pictures = try Harness.encode(Self.settings(), count: Self.count, format: format)
        let file = try Harness.writeAnnexB(pictures, name: "\(format.rawValue).h264")
        try FFmpegTools.decodesCleanly(file)
        let decoded = try FFmpegTools.decodedLuma(file, width: Self.width, height: Self.height)
        try #require(decoded.count == Self.count)
        for (index, luma) in decoded.enumerated() {
            let expected = TestFrames.frame(format, width: Self.width, height: Self.height, index: index).luma
            let psnr = TestFrames.psnr(luma, expected)
            #expect(psnr > Self.minimumPSNR, "\(format) frame \(index): \(psnr) dB")
        }
    }

    /// The check above can fail: luma computed with R and B swapped (what calling libyuv's RGB24
    /// where RAW is meant would produce) is far from what the encoder saw.
    @Test(arguments: [PixelFormat.rgb24, .bgr24])
    func swappedRedAndBlueWouldFailTheThreshold(_ format: PixelFormat) throws {
        let pictures = try Harness.encode(Self.settings(), count: 1, format: format)
        let file = try Harness.writeAnnexB(pictures, name: "swap-\(format.rawValue).h264")
        let decoded = try #require(try FFmpegTools.decodedLuma(file, width: Self.width, height: Self.height).first)
        let rgb = TestFrames.rgb(width: Self.width, height: Self.height, index: 0)
        #expect(TestFrames.psnr(decoded, rgb.luma) > Self.minimumPSNR)
        #expect(TestFrames.psnr(decoded, rgb.swappedLuma) < Self.minimumPSNR - 5)
    }

    /// For YUV inputs the chroma must survive too: swapped U/V planes (YV12, NV21) or a wrong
    /// chroma stride show here, not in luma.
    @Test(arguments: [PixelFormat.i420, .yv12, .nv12, .nv21, .yuyv, .uyvy])
    func decodedChromaMatchesTheSource(_ format: PixelFormat) throws {
        let pictures = try Harness.encode(Self.settings(), count: 5, format: format)
        let file = try Harness.writeAnnexB(pictures, name: "chroma-\(format.rawValue).h264")
        let decoded = try FFmpegTools.decodedPlanes(file, width: Self.width, height: Self.height)
        try #require(decoded.count == 5)
        for (index, planes) in decoded.enumerated() {
            let source = TestFrames.i420(width: Self.width, height: Self.height, index: index)
            #expect(TestFrames.psnr(planes.u, source.u) > Self.minimumPSNR, "\(format) frame \(index) U")
            #expect(TestFrames.psnr(planes.v, source.v) > Self.minimumPSNR, "\(format) frame \(index) V")
            // Negative control: the planes are distinguishable, so a U/V swap cannot pass.
            #expect(TestFrames.psnr(planes.u, source.v) < Self.minimumPSNR, "\(format) frame \(index) U vs V")
        }
    }

    @Test func largerFramesAreScaledToTheEncodeSize() throws {
        // 640x360 in, 320x180 out: the decoded luma must match a 2x2 average of the source.
        let pictures = try Harness.encode(Self.settings(), count: 10, format: .i420, sourceWidth: 640, sourceHeight: 360)
        let file = try Harness.writeAnnexB(pictures, name: "scaled.h264")
        let probe = try FFmpegTools.probe(file)
        #expect(probe.width == 320 && probe.height == 180 && probe.frameCount == 10)
        let decoded = try FFmpegTools.decodedLuma(file, width: 320, height: 180)
        for (index, luma) in decoded.enumerated() {
            let source = TestFrames.i420(width: 640, height: 360, index: index).y
            var expected = [UInt8](repeating: 0, count: 320 * 180)
            for row in 0..<180 {
                for column in 0..<320 {
                    let a = Int(source[(2 * row) * 640 + 2 * column]), b = Int(source[(2 * row) * 640 + 2 * column + 1])
                    let c = Int(source[(2 * row + 1) * 640 + 2 * column]), d = Int(source[(2 * row + 1) * 640 + 2 * column + 1])
                    expected[row * 320 + column] = UInt8((a + b + c + d + 2) / 4)
                }
            }
            let psnr = TestFrames.psnr(luma, expected)
            #expect(psnr > 28, "scaled frame \(index): \(psnr) dB")
        }
    }

    /// ffmpeg's own bilinear scale of a width×height I420 frame's luma: the reference a scaled
    /// picture is compared with.
    static func ffmpegScaledLuma(_ y: [UInt8], _ u: [UInt8], _ v: [UInt8], width: Int, height: Int, to size: (Int, Int)) throws -> [UInt8] {
        let path = Harness.temporaryFile("source.yuv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(y + u + v).write(to: URL(fileURLWithPath: path))
        let data = try FFmpegTools.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-i", path,
            "-vf", "scale=\(size.0):\(size.1):flags=bilinear", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-",
        ])
        return Array([UInt8](data).prefix(size.0 * size.1))
    }

    /// Columns `columns` of every row of a 320-wide luma plane.
    static func columns(_ luma: ArraySlice<UInt8>, _ columns: Range<Int>, width: Int = 320) -> [UInt8] {
        stride(from: luma.startIndex, to: luma.endIndex, by: width).flatMap { luma[$0 + columns.lowerBound..<$0 + columns.upperBound] }
    }

    @Test func fitKeepsTheAspectRatioWithBlackBars() throws {
        // 4:3 into 16:9: a 240x180 picture centred between two 40-pixel black bars.
        let settings = Self.settings()
        #expect(settings.scaling == .fit)
        let pictures = try Harness.encode(settings, count: 5, format: .i420, sourceWidth: 320, sourceHeight: 240)
        let file = try Harness.writeAnnexB(pictures, name: "fit.h264")
        let decoded = try FFmpegTools.decodedPlanes(file, width: 320, height: 180)
        try #require(decoded.count == 5)
        for (index, planes) in decoded.enumerated() {
            let source = TestFrames.i420(width: 320, height: 240, index: index)
            let expected = try Self.ffmpegScaledLuma(source.y, source.u, source.v, width: 320, height: 240, to: (240, 180))
            let picture = Self.columns(planes.y, 40..<280)
            #expect(TestFrames.psnr(picture[...], expected) > 28, "frame \(index) picture area")
            let bars = Self.columns(planes.y, 0..<40) + Self.columns(planes.y, 280..<320)
            #expect(bars.allSatisfy { abs(Int($0) - 16) <= 3 }, "frame \(index): bars are not black")
            let chromaBars = Self.columns(planes.u, 0..<20, width: 160) + Self.columns(planes.v, 140..<160, width: 160)
            #expect(chromaBars.allSatisfy { abs(Int($0) - 128) <= 3 }, "frame \(index): bars are not neutral")
            // Negative control: the stretched picture is clearly different.
            let stretched = try Self.ffmpegScaledLuma(source.y, source.u, source.v, width: 320, height: 240, to: (320, 180))
            #expect(TestFrames.psnr(planes.y, stretched) < 20)
        }
    }

    @Test func fillCropsTheCentreAndStretchDistorts() throws {
        // 4:3 into 16:9, fill: rows 30..<210 of the source, unscaled.
        let filled = try Harness.encode(Self.settings { $0.scaling = .fill }, count: 3, sourceWidth: 320, sourceHeight: 240)
        let fillDecoded = try FFmpegTools.decodedLuma(try Harness.writeAnnexB(filled, name: "fill.h264"), width: 320, height: 180)
        // Stretch: the whole source squeezed vertically.
        let stretched = try Harness.encode(Self.settings { $0.scaling = .stretch }, count: 3, sourceWidth: 320, sourceHeight: 240)
        let stretchDecoded = try FFmpegTools.decodedLuma(try Harness.writeAnnexB(stretched, name: "stretch.h264"), width: 320, height: 180)
        try #require(fillDecoded.count == 3 && stretchDecoded.count == 3)
        for index in 0..<3 {
            let source = TestFrames.i420(width: 320, height: 240, index: index)
            let centre = Array(source.y[30 * 320..<210 * 320])
            let squeezed = try Self.ffmpegScaledLuma(source.y, source.u, source.v, width: 320, height: 240, to: (320, 180))
            let fill = TestFrames.psnr(fillDecoded[index], centre)
            let stretch = TestFrames.psnr(stretchDecoded[index], squeezed)
            #expect(fill > 28, "fill frame \(index): \(fill) dB")
            #expect(stretch > 28, "stretch frame \(index): \(stretch) dB")
            // Negative controls (the smooth test pattern keeps wrong matches above 20 dB, so by margin):
            // each mode's output is far closer to its own reference than to the other's.
            #expect(fill > TestFrames.psnr(fillDecoded[index], squeezed) + 6, "fill frame \(index) looks stretched")
            #expect(stretch > TestFrames.psnr(stretchDecoded[index], centre) + 6, "stretch frame \(index) looks cropped")
        }
    }

    @Test func oddSizedPackedFramesAreConvertedAndScaled() throws {
        // An odd-sized RGB frame cannot go to x264 as is; convert + scale must still give a clean stream.
        let pictures = try Harness.encode(Self.settings(), count: 5, format: .rgb24, sourceWidth: 333, sourceHeight: 187)
        let file = try Harness.writeAnnexB(pictures, name: "odd.h264")
        let probe = try FFmpegTools.probe(file)
        #expect(probe.width == 320 && probe.height == 180 && probe.frameCount == 5)
        try FFmpegTools.decodesCleanly(file)
    }

    @Test func paddedRowsAreRespected() throws {
        // A driver may pad each row (bytesPerRow > width); the encoder must use the stride.
        let collector = PictureCollector()
        let session = try EncoderSession(settings: Self.settings(), logger: Harness.quietLogger) { collector.add($0) }
        let (y, u, v) = TestFrames.i420(width: 320, height: 180, index: 0)
        let yStride = 384, cStride = 192
        var bytes = [UInt8](repeating: 0x55, count: yStride * 180 + 2 * cStride * 90)
        for row in 0..<180 { bytes.replaceSubrange(row * yStride..<row * yStride + 320, with: y[row * 320..<row * 320 + 320]) }
        for row in 0..<90 {
            bytes.replaceSubrange(yStride * 180 + row * cStride..<yStride * 180 + row * cStride + 160, with: u[row * 160..<row * 160 + 160])
            bytes.replaceSubrange(yStride * 180 + cStride * 90 + row * cStride..<yStride * 180 + cStride * 90 + row * cStride + 160, with: v[row * 160..<row * 160 + 160])
        }
        let frame = VideoFrame(
            width: 320, height: 180, pixelFormat: .i420,
            planes: [.init(offset: 0, bytesPerRow: yStride), .init(offset: yStride * 180, bytesPerRow: cStride),
                     .init(offset: yStride * 180 + cStride * 90, bytesPerRow: cStride)],
            bytes: bytes, timestamp: TestFrames.timestamp(0), sequence: 0)
        try session.encode(frame)
        let file = try Harness.writeAnnexB(collector.all, name: "padded.h264")
        let decoded = try #require(try FFmpegTools.decodedLuma(file, width: 320, height: 180).first)
        #expect(TestFrames.psnr(decoded, y) > Self.minimumPSNR)
    }
}
