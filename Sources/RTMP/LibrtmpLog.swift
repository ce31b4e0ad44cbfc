internal import CRTMP
#if canImport(Glibc)
import Glibc
#endif

/// Routing of librtmp's process-global log callback to the publisher that caused the line.
///
/// librtmp has one callback for the whole process, but it calls it synchronously on the
/// thread that is inside a librtmp function. Every publisher makes its librtmp calls inside
/// `LibrtmpLog.withSink(_:_:)`, which binds its sink to the current thread (a task-local,
/// which outside a task is stored per thread), so several publishers on several threads each
/// get their own lines. A line with no sink bound (none is expected) is dropped: with no
/// redactor known it could contain a key.
enum LibrtmpLog {
    @TaskLocal static var currentSink: LibrtmpLogSink?

    static func withSink<T>(_ sink: LibrtmpLogSink, _ body: () throws(RTMPError) -> T) throws(RTMPError) -> T {
        let result: Result<T, RTMPError> = $currentSink.withValue(sink) {
            Result { () throws(RTMPError) -> T in try body() }
        }
        return try result.get()
    }

    /// Once per process: ignore SIGPIPE (librtmp uses send() without MSG_NOSIGNAL, so a
    /// closed peer would kill the daemon), install the callback at debug level (the
    /// onStatus and "Invoking" lines used for classification are debug lines; per-packet
    /// lines are DEBUG2 and stay filtered inside librtmp), and run librtmp's one-time TLS
    /// initialisation, which `RTMP_Init` does unsynchronised on first use.
    static func setUpProcessOnce() { _ = processSetup }

    private static let processSetup: Void = {
        signal(SIGPIPE, SIG_IGN)
        crtmp_install_log_callback(Int32(RTMP_LOGDEBUG.rawValue))
        if let scratch = RTMP_Alloc() {
            RTMP_Init(scratch)
            RTMP_Free(scratch)
        }
    }()
}

/// Asked by `crtmp_log_trampoline` before it formats a debug line it does not classify.
@_cdecl("camcast_rtmp_log_debug_enabled")
func camcastRTMPLogDebugEnabled() -> Int32 {
    LibrtmpLog.currentSink?.debugLogging == true ? 1 : 0
}

/// Called by `crtmp_log_trampoline` (shim.h) with one formatted line.
@_cdecl("camcast_rtmp_log_line")
func camcastRTMPLogLine(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line, let sink = LibrtmpLog.currentSink else { return }
    sink.receive(level: level, line: String(cString: line))
}
