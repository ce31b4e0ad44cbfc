internal import CTurboJPEG
import Media

/// Decodes Motion JPEG camera frames into NV12 — the layout x264 keeps its pictures in, so x264's
/// input copy is a plain copy rather than an interleave — with libjpeg-turbo's TurboJPEG API. Owns
/// one decompressor handle, destroyed in `deinit`; used by one thread (the capture thread).
///
/// Luma is decoded straight into the caller's picture and brought to limited range in place;
/// chroma is decoded into scratch planes kept between frames, then resampled to 4:2:0, brought to
/// limited range and interleaved in one pass (`MJPEGDecoder+LimitedRange`). Cameras send 4:2:2
/// JPEG as often as 4:2:0; 4:2:2 chroma rows are averaged in pairs, as libyuv's I422ToNV21 does.
///
/// Corrupt or truncated data is an error, never a crash: TurboJPEG catches libjpeg's errors itself,
/// and `TJFLAG_STOPONWARNING` turns "premature end of data" (which would give a half-grey picture)
/// into one too. After a failure the handle is replaced: libjpeg's state after an aborted decode
/// is not trusted to read the next frame right (seen: a good frame then failing with "Bogus Huffman
/// table definition"). A failed decode may have written part of the picture.
final class MJPEGDecoder {
    private var handle: tjhandle
    /// The JPEG's own chroma planes (U then V), before resampling; grown, never shrunk.
    private var chroma: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)

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
        chroma.deallocate()
    }

    /// Bytes of a `width`×`height` NV12 picture: the Y plane, then interleaved U/V at half height.
    static func nv12ByteCount(width: Int, height: Int) -> Int { width * height * 3 / 2 }

    /// Decodes `jpeg`, which must be a `width`×`height` image (both even), into `picture`: tightly
    /// packed NV12 (Y with `width` bytes a row, then U/V pairs with `width` bytes a row), limited
    /// range. `picture` holds at least `nv12ByteCount` bytes.
    func decodeNV12(
        _ jpeg: UnsafeRawBufferPointer, width: Int, height: Int, into picture: UnsafeMutableBufferPointer<UInt8>
    ) throws(DecodeError) {
        precondition(picture.count >= Self.nv12ByteCount(width: width, height: height), "picture buffer too small")
        do {
            try decode(jpeg, width: width, height: height, into: picture.baseAddress!)
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

    private func decode(_ jpeg: UnsafeRawBufferPointer, width: Int, height: Int, into y: UnsafeMutablePointer<UInt8>) throws(DecodeError) {
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
        let uv = y + width * height
        let isGray = subsampling == Int32(TJSAMP_GRAY.rawValue)
        let sourceWidth = isGray ? 0 : Int(tjPlaneWidth(1, Int32(width), subsampling))
        let sourceHeight = isGray ? 0 : Int(tjPlaneHeight(1, Int32(height), subsampling))
        guard sourceWidth >= 0, sourceHeight >= 0 else { throw DecodeError(reason: "unsupported chroma subsampling \(subsampling)") }
        let planeSize = sourceWidth * sourceHeight
        if chroma.count < 2 * planeSize {
            chroma.deallocate()
            chroma = .allocate(capacity: 2 * planeSize)
        }
        let u = chroma.baseAddress, v = chroma.baseAddress.map { $0 + planeSize }
        var planes: [UnsafeMutablePointer<UInt8>?] = [y, u, v]
        var strides: [Int32] = [Int32(width), Int32(sourceWidth), Int32(sourceWidth)]
        guard tjDecompressToYUVPlanes(handle, source, UInt(jpeg.count), &planes, Int32(width), &strides, Int32(height), Int32(TJFLAG_STOPONWARNING)) == 0
        else {
            throw DecodeError(reason: lastError())
        }
        Self.limitLuma(y, count: width * height)
        if !isGray, let u, let v {
            Self.limitAndInterleaveChroma(
                u: u, v: v, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                into: uv, width: width / 2, height: height / 2)
        } else {
            uv.update(repeating: 128, count: width * height / 2)  // grey: no colour
        }
    }

    private func lastError() -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }
}
