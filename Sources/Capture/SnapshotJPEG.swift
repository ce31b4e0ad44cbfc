internal import CTurboJPEG
import Media

/// A picture as JPEG, for the operator's `/snapshot.jpg`, with libjpeg-turbo's TurboJPEG API
/// (here because Capture is the one module that imports it). Called at most once a second, on
/// an owned copy of a frame, never on the capture thread: clarity before speed, so every layout
/// is first brought to three planes (4:2:0 or 4:2:2) and compressed from those.
public enum SnapshotJPEG {
    /// The JPEG of `frame`, nil for a layout or size it cannot take.
    public static func encode(_ frame: VideoFrame, quality: Int32 = 80) -> [UInt8]? {
        if frame.pixelFormat == .mjpeg { return frame.copiedBytes() }
        guard frame.width > 0, frame.height > 0, let handle = tjInitCompress() else { return nil }
        defer { tjDestroy(handle) }
        switch frame.pixelFormat {
        case .rgb24, .bgr24, .bgra32:
            let format = frame.pixelFormat == .rgb24 ? TJPF_RGB : frame.pixelFormat == .bgr24 ? TJPF_BGR : TJPF_BGRA
            return frame.withUnsafeBytes { bytes in
                compress(handle) { buffer, size in
                    tjCompress2(
                        handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self).advanced(by: frame.planes[0].offset),
                        Int32(frame.width), Int32(frame.planes[0].bytesPerRow), Int32(frame.height), Int32(format.rawValue),
                        buffer, size, Int32(TJSAMP_420.rawValue), quality, 0)
                }
            }
        default:
            guard let planes = YUVPlanes(frame) else { return nil }
            return planes.y.withUnsafeBufferPointer { y in
                planes.u.withUnsafeBufferPointer { u in
                    planes.v.withUnsafeBufferPointer { v in
                        var sources: [UnsafePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress]
                        var strides: [Int32] = [Int32(frame.width), Int32(planes.chromaWidth), Int32(planes.chromaWidth)]
                        return compress(handle) { buffer, size in
                            tjCompressFromYUVPlanes(
                                handle, &sources, Int32(frame.width), &strides, Int32(frame.height),
                                Int32((planes.fullHeightChroma ? TJSAMP_422 : TJSAMP_420).rawValue), buffer, size, quality, 0)
                        }
                    }
                }
            }
        }
    }

    /// Runs one TurboJPEG compress call and takes its output buffer.
    private static func compress(
        _ handle: tjhandle, _ call: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<UInt>) -> Int32
    ) -> [UInt8]? {
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = call(&buffer, &size)
        defer { if let buffer { tjFree(buffer) } }
        guard status == 0, let buffer, size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}
