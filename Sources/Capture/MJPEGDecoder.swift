internal import CTurboJPEG
import Media

/// Decodes Motion JPEG camera frames into I420 with libjpeg-turbo's TurboJPEG API. Owns one
/// decompressor handle, destroyed in `deinit`; used by one thread (the capture thread).
///
/// Cameras send 4:2:2 JPEG as often as 4:2:0, so other chroma subsamplings are decoded as they are
/// and resampled to 4:2:0 (nearest sample: cheap, and the encoder blurs chroma anyway). Corrupt or
/// truncated data is an error, never a crash: TurboJPEG catches libjpeg's errors itself, and
/// `TJFLAG_STOPONWARNING` turns "premature end of data" (which would give a half-grey picture)
/// into one too. After a failure the handle is replaced: libjpeg's state after an aborted decode
/// is not trusted to read the next frame right (seen: a good frame then failing with "Bogus Huffman
/// table definition").
///
/// JPEG (JFIF) samples are full range (0–255); the output is converted to the limited range
/// (16–235 luma, 16–240 chroma, BT.601) that camera YUYV/NV12 and the encoder use.
final class MJPEGDecoder {
    private var handle: tjhandle

    struct DecodeError: Error, Equatable, CustomStringConvertible {
        var reason: String
        var description: String { "bad JPEG frame: \(reason)" }
    }

    init?() {
        guard let handle = tjInitDecompress() else { return nil }
        self.handle = handle
    }

    deinit {
        tjDestroy(handle)
    }

    /// Decodes `jpeg`, which must be a `width`×`height` image (both even), into tightly packed I420.
    func decodeI420(_ jpeg: UnsafeRawBufferPointer, width: Int, height: Int) throws(DecodeError) -> [UInt8] {
        do {
            var picture = try decodeFullRange(jpeg, width: width, height: height)
            Self.toLimitedRange(&picture, lumaCount: width * height)
            return picture
        } catch {
            if let fresh = tjInitDecompress() {
                tjDestroy(handle)
                handle = fresh
            }
            throw error
        }
    }

    /// The width and height in a JPEG's frame header, or nil if it has none that TurboJPEG reads.
    func size(of jpeg: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard let source = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), jpeg.count > 0 else { return nil }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, source, UInt(jpeg.count), &width, &height, &subsampling, &colorspace) == 0 else {
            return nil
        }
        return (Int(width), Int(height))
    }

    /// Lookup tables full → limited range: Y' = 16 + Y·219/255, C' = 128 + (C−128)·224/255, rounded.
    private static let lumaTable: [UInt8] = (0...255).map { UInt8(16 + ($0 * 219 + 127) / 255) }
    private static let chromaTable: [UInt8] = (0...255).map { UInt8(clamping: 128 + Int((Double($0 - 128) * 224 / 255).rounded())) }

    /// Through pointers, not array subscripts: per byte of a 1080p frame, bounds checks and the
    /// static tables' lazy-initialisation check cost more than the lookup (perf: ~8 % of the CPU).
    private static func toLimitedRange(_ picture: inout [UInt8], lumaCount: Int) {
        lumaTable.withUnsafeBufferPointer { luma in
            chromaTable.withUnsafeBufferPointer { chroma in
                picture.withUnsafeMutableBufferPointer { bytes in
                    let base = bytes.baseAddress!
                    for index in 0..<lumaCount { base[index] = luma[Int(base[index])] }
                    for index in lumaCount..<bytes.count { base[index] = chroma[Int(base[index])] }
                }
            }
        }
    }

    private func decodeFullRange(_ jpeg: UnsafeRawBufferPointer, width: Int, height: Int) throws(DecodeError) -> [UInt8] {
        guard let source = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), jpeg.count > 0 else {
            throw DecodeError(reason: "empty buffer")
        }
        var jpegWidth: Int32 = 0, jpegHeight: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, source, UInt(jpeg.count), &jpegWidth, &jpegHeight, &subsampling, &colorspace) == 0 else {
            throw DecodeError(reason: lastError())
        }
        guard Int(jpegWidth) == width, Int(jpegHeight) == height else {
            throw DecodeError(reason: "image is \(jpegWidth)x\(jpegHeight), the stream is \(width)x\(height)")
        }
        let layout = VideoFrame.i420Planes(width: width, height: height)
        var output = [UInt8](repeating: 128, count: layout.byteCount)
        let flags = Int32(TJFLAG_STOPONWARNING)
        let chromaWidth = width / 2, chromaHeight = height / 2

        if subsampling == Int32(TJSAMP_420.rawValue) {
            try output.withUnsafeMutableBufferPointer { (out) throws(DecodeError) in
                let base = out.baseAddress!
                var planes: [UnsafeMutablePointer<UInt8>?] = layout.planes.map { base + $0.offset }
                var strides: [Int32] = layout.planes.map { Int32($0.bytesPerRow) }
                guard tjDecompressToYUVPlanes(handle, source, UInt(jpeg.count), &planes, Int32(width), &strides, Int32(height), flags) == 0 else {
                    throw DecodeError(reason: lastError())
                }
            }
            return output
        }

        // Any other subsampling: luma straight into place, chroma into scratch planes, then resampled.
        let isGray = subsampling == Int32(TJSAMP_GRAY.rawValue)
        let scratchWidth = isGray ? 0 : Int(tjPlaneWidth(1, Int32(width), subsampling))
        let scratchHeight = isGray ? 0 : Int(tjPlaneHeight(1, Int32(height), subsampling))
        guard scratchWidth >= 0, scratchHeight >= 0 else { throw DecodeError(reason: "unsupported chroma subsampling \(subsampling)") }
        var scratchU = [UInt8](repeating: 128, count: max(1, scratchWidth * scratchHeight))
        var scratchV = scratchU
        try output.withUnsafeMutableBufferPointer { (out) throws(DecodeError) in
            try scratchU.withUnsafeMutableBufferPointer { (u) throws(DecodeError) in
                try scratchV.withUnsafeMutableBufferPointer { (v) throws(DecodeError) in
                    var planes: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress!, u.baseAddress, v.baseAddress]
                    var strides: [Int32] = [Int32(width), Int32(scratchWidth), Int32(scratchWidth)]
                    guard tjDecompressToYUVPlanes(handle, source, UInt(jpeg.count), &planes, Int32(width), &strides, Int32(height), flags) == 0 else {
                        throw DecodeError(reason: lastError())
                    }
                }
            }
        }
        guard !isGray else { return output }  // chroma stays 128: grey
        output.withUnsafeMutableBufferPointer { out in
            for (scratch, plane) in [(scratchU, layout.planes[1]), (scratchV, layout.planes[2])] {
                scratch.withUnsafeBufferPointer { scratch in
                    for y in 0..<chromaHeight {
                        let sourceRow = scratch.baseAddress! + (y * scratchHeight / chromaHeight) * scratchWidth
                        let outputRow = out.baseAddress! + plane.offset + y * plane.bytesPerRow
                        if scratchWidth == chromaWidth {
                            // 4:2:2 (and 4:4:0): whole rows, every other one.
                            outputRow.update(from: sourceRow, count: chromaWidth)
                        } else {
                            for x in 0..<chromaWidth { outputRow[x] = sourceRow[x * scratchWidth / chromaWidth] }
                        }
                    }
                }
            }
        }
        return output
    }

    private func lastError() -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }
}
