#if canImport(Glibc)
import Glibc
#endif
internal import CTurboJPEG
import Overlay

/// The operator's slate picture: a JPEG file decoded once with libturbojpeg into RGB, for the
/// Overlay stage's `SlatePainter` to stretch to the stream's size.
public enum SlateImage {
    /// The largest file read (a slate is one still picture; 32 MiB holds an 8K JPEG).
    static let maxBytes = 32 << 20

    /// Why the file cannot be the slate, or its picture.
    public static func load(path: String) -> Result<RGBPicture, SlateImageError> {
        guard let file = fopen(path, "rb") else {
            return .failure(SlateImageError(path: path, reason: errno == ENOENT ? "no such file" : "cannot be read (check its permissions)"))
        }
        defer { fclose(file) }
        var jpeg: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            jpeg += chunk.prefix(count)
            if jpeg.count > maxBytes { return .failure(SlateImageError(path: path, reason: "is larger than 32 MiB")) }
        }
        return decode(jpeg, path: path)
    }

    static func decode(_ jpeg: [UInt8], path: String) -> Result<RGBPicture, SlateImageError> {
        func failure(_ reason: String) -> Result<RGBPicture, SlateImageError> { .failure(SlateImageError(path: path, reason: reason)) }
        guard let handle = tjInitDecompress() else { return failure("libturbojpeg could not start") }
        defer { tjDestroy(handle) }
        var (width, height, subsampling, colorspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard !jpeg.isEmpty,
            tjDecompressHeader3(handle, jpeg, UInt(jpeg.count), &width, &height, &subsampling, &colorspace) == 0
        else { return failure("is not a JPEG file") }
        guard (1...8192).contains(width), (1...8192).contains(height) else {
            return failure("is \(width)x\(height); a slate picture may be at most 8192x8192")
        }
        var rgb = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
        let status = tjDecompress2(handle, jpeg, UInt(jpeg.count), &rgb, width, 0, height, Int32(TJPF_RGB.rawValue), 0)
        guard status == 0 else {
            let reason = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            return failure("cannot be decoded: \(reason)")
        }
        return .success(RGBPicture(width: Int(width), height: Int(height), pixels: rgb))
    }
}

/// A slate picture that cannot be used: a configuration error.
public struct SlateImageError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
