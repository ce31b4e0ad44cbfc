import Foundation
import Media

/// Synthetic moving pictures: a luma ramp that shifts every frame, two chroma ramps, and a box
/// that moves, so every frame differs from the last and motion estimation has work to do.
enum TestFrames {
    static let frameIntervalNanoseconds: UInt64 = 33_333_333
    /// Capture clock origin, away from 0 like a real CLOCK_MONOTONIC.
    static let originNanoseconds: UInt64 = 5_000_000_000

    static func timestamp(_ index: Int) -> MonotonicTime {
        MonotonicTime(nanoseconds: originNanoseconds + UInt64(index) * frameIntervalNanoseconds)
    }

    /// Tightly packed I420 planes for frame `index`.
    static func i420(width: Int, height: Int, index: Int) -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        var y = [UInt8](repeating: 0, count: width * height)
        var u = [UInt8](repeating: 0, count: cw * ch)
        var v = [UInt8](repeating: 0, count: cw * ch)
        let box = boxOrigin(width: width, height: height, index: index)
        for row in 0..<height {
            for column in 0..<width {
                // Triangle wave rather than a sawtooth: no hard edge where the ramp wraps.
                let t = (column + row / 2 + 3 * index) % 440
                var luma = 16 + (t < 220 ? t : 439 - t)
                if (box.x..<box.x + 32).contains(column) && (box.y..<box.y + 32).contains(row) {
                    luma = luma > 128 ? 30 : 220
                }
                y[row * width + column] = UInt8(luma)
            }
        }
        for row in 0..<ch {
            for column in 0..<cw {
                u[row * cw + column] = UInt8(64 + column * 128 / cw)
                v[row * cw + column] = UInt8(64 + ((row + index) % ch) * 128 / ch)
            }
        }
        return (y, u, v)
    }

    static func boxOrigin(width: Int, height: Int, index: Int) -> (x: Int, y: Int) {
        ((index * 4) % max(1, width - 32), (index * 2) % max(1, height - 32))
    }

    /// Frame `index` in `format`, built from the I420 picture (or, for RGB formats, from `rgb`).
    /// Also returns the luma the encoder should see.
    static func frame(_ format: PixelFormat, width: Int, height: Int, index: Int) -> (frame: VideoFrame, luma: [UInt8]) {
        let (y, u, v) = i420(width: width, height: height, index: index)
        let cw = (width + 1) / 2
        var bytes: [UInt8] = []
        var planes: [VideoPlane] = []
        var luma = y
        switch format {
        case .i420:
            planes = [.init(offset: 0, bytesPerRow: width), .init(offset: y.count, bytesPerRow: cw),
                      .init(offset: y.count + u.count, bytesPerRow: cw)]
            bytes = y + u + v
        case .yv12:
            planes = [.init(offset: 0, bytesPerRow: width), .init(offset: y.count, bytesPerRow: cw),
                      .init(offset: y.count + u.count, bytesPerRow: cw)]
            bytes = y + v + u
        case .nv12, .nv21:
            var chroma: [UInt8] = []
            for (first, second) in zip(u, v) {
                chroma += format == .nv12 ? [first, second] : [second, first]
            }
            planes = [.init(offset: 0, bytesPerRow: width), .init(offset: y.count, bytesPerRow: 2 * cw)]
            bytes = y + chroma
        case .yuyv, .uyvy:
            // 4:2:2 from 4:2:0 by repeating each chroma row; the converter averages them back.
            for row in 0..<height {
                for pair in 0..<width / 2 {
                    let y0 = y[row * width + 2 * pair], y1 = y[row * width + 2 * pair + 1]
                    let cu = u[(row / 2) * cw + pair], cv = v[(row / 2) * cw + pair]
                    bytes += format == .yuyv ? [y0, cu, y1, cv] : [cu, y0, cv, y1]
                }
            }
            planes = [.init(offset: 0, bytesPerRow: 2 * width)]
        case .rgb24, .bgr24, .bgra32:
            let rgb = self.rgb(width: width, height: height, index: index)
            luma = rgb.luma
            for pixel in rgb.pixels {
                switch format {
                case .rgb24: bytes += [pixel.r, pixel.g, pixel.b]
                case .bgr24: bytes += [pixel.b, pixel.g, pixel.r]
                default: bytes += [pixel.b, pixel.g, pixel.r, 255]
                }
            }
            planes = [.init(offset: 0, bytesPerRow: width * (format == .bgra32 ? 4 : 3))]
        case .mjpeg:
            fatalError("no synthetic MJPEG")
        }
        let frame = VideoFrame(
            width: width, height: height, pixelFormat: format, planes: planes, bytes: bytes,
            timestamp: timestamp(index), sequence: UInt64(index))
        return (frame, luma)
    }

    struct RGB { var r, g, b: UInt8 }

    /// A strongly coloured picture (red rises left to right while blue falls), so that swapping R
    /// and B changes the luma a lot; with its BT.601 studio-range luma, and the luma a converter
    /// that swapped R and B would produce.
    static func rgb(width: Int, height: Int, index: Int) -> (pixels: [RGB], luma: [UInt8], swappedLuma: [UInt8]) {
        var pixels: [RGB] = []
        var luma: [UInt8] = []
        var swapped: [UInt8] = []
        let box = boxOrigin(width: width, height: height, index: index)
        for row in 0..<height {
            for column in 0..<width {
                let ramp = ((column + 2 * index) % width) * 255 / max(1, width - 1)
                var pixel = RGB(r: UInt8(ramp), g: UInt8(row * 160 / max(1, height - 1)), b: UInt8(255 - ramp))
                if (box.x..<box.x + 32).contains(column) && (box.y..<box.y + 32).contains(row) {
                    pixel = RGB(r: 250, g: 250, b: 250)
                }
                pixels.append(pixel)
                luma.append(bt601Luma(pixel.r, pixel.g, pixel.b))
                swapped.append(bt601Luma(pixel.b, pixel.g, pixel.r))
            }
        }
        return (pixels, luma, swapped)
    }

    /// ITU-R BT.601 studio range: Y = 16 + (65.738 R + 129.057 G + 25.064 B) / 256.
    static func bt601Luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let weighted: Int = 66 * Int(r) + 129 * Int(g) + 25 * Int(b) + 128
        return UInt8((weighted >> 8) + 16)
    }

    /// Luma PSNR in dB of `decoded` against `reference` (same size); infinity if identical.
    static func psnr(_ decoded: ArraySlice<UInt8>, _ reference: [UInt8]) -> Double {
        precondition(decoded.count == reference.count)
        var squared = 0.0
        for (a, b) in zip(decoded, reference) {
            let d = Double(a) - Double(b)
            squared += d * d
        }
        let mse = squared / Double(reference.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
