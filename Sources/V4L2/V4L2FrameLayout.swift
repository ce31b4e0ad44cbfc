import Media

/// Where the planes of one captured frame lie in a V4L2 buffer, from the format the driver
/// granted (`struct v4l2_pix_format`: `bytesperline` is the stride of the first plane; for the
/// planar 4:2:0 formats the chroma planes follow with half that stride — Linux media API,
/// "Image Formats", V4L2_PIX_FMT_YUV420 / NV12).
public struct V4L2FrameLayout: Sendable, Hashable {
    public var pixelFormat: PixelFormat
    public var width: Int
    public var height: Int
    public var planes: [VideoPlane]
    /// Bytes of one frame: the end of the last plane (for MJPEG, the largest image the driver allows).
    public var byteCount: Int

    /// nil if the granted values cannot describe a frame (stride narrower than a row, odd 4:2:0 size).
    public init?(pixelFormat: PixelFormat, width: Int, height: Int, bytesPerLine: Int, sizeImage: Int) {
        guard width > 0, height > 0 else { return nil }
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        if pixelFormat == .mjpeg {
            planes = []
            byteCount = sizeImage
            return
        }
        if pixelFormat.isChromaSubsampled420 && (width % 2 != 0 || height % 2 != 0) { return nil }
        let rowBytes = width * Self.lumaBytesPerPixel(pixelFormat)
        let stride = bytesPerLine > 0 ? bytesPerLine : rowBytes
        guard stride >= rowBytes else { return nil }
        let lumaSize = stride * height
        switch pixelFormat {
        case .nv12, .nv21:
            planes = [VideoPlane(offset: 0, bytesPerRow: stride), VideoPlane(offset: lumaSize, bytesPerRow: stride)]
            byteCount = lumaSize + stride * height / 2
        case .i420, .yv12:
            let chromaStride = stride / 2
            let chromaSize = chromaStride * height / 2
            planes = [
                VideoPlane(offset: 0, bytesPerRow: stride),
                VideoPlane(offset: lumaSize, bytesPerRow: chromaStride),
                VideoPlane(offset: lumaSize + chromaSize, bytesPerRow: chromaStride),
            ]
            byteCount = lumaSize + 2 * chromaSize
        default:
            planes = [VideoPlane(offset: 0, bytesPerRow: stride)]
            byteCount = lumaSize
        }
    }

    /// Bytes per pixel in the first plane.
    public static func lumaBytesPerPixel(_ format: PixelFormat) -> Int {
        switch format {
        case .i420, .yv12, .nv12, .nv21, .mjpeg: 1
        case .yuyv, .uyvy: 2
        case .rgb24, .bgr24: 3
        case .bgra32: 4
        }
    }
}
