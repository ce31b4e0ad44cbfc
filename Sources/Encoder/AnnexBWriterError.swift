#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an `AnnexBWriter` could not write.
public enum AnnexBWriterError: Error, Hashable, CustomStringConvertible {
    case open(path: String, errno: Int32)
    case write(errno: Int32)

    public var description: String {
        switch self {
        case .open(let path, let code): "cannot create \(path): \(String(cString: strerror(code)))"
        case .write(let code): "write to .h264 file failed: \(String(cString: strerror(code)))"
        }
    }
}
