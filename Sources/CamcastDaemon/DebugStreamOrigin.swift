#if canImport(Glibc)
import Glibc
#endif

/// Test hook, debug builds only: `CAMCAST_DEBUG_STREAM_ORIGIN_MS=4294960000` makes the stream
/// clock start at that many milliseconds instead of 0, so a test reaches RTMP's 32-bit timestamp
/// wrap (2^32 ms, 49.7 days) in seconds (issue 14 #3). Release builds ignore it.
enum DebugStreamOrigin {
    static let environmentVariable = "CAMCAST_DEBUG_STREAM_ORIGIN_MS"

    static func fromEnvironment() -> Int64 {
        #if DEBUG
        guard let text = getenv(environmentVariable).map({ String(cString: $0) }), let value = Int64(text), value >= 0
        else { return 0 }
        return value
        #else
        return 0
        #endif
    }
}
