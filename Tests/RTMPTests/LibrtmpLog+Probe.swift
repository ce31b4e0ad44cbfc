import CRTMPLogProbe
@testable import RTMP

extension LibrtmpLog {
    /// `RTMP_Log(level, format, argument)` as librtmp's own code calls it (`format` takes one
    /// `%s`), for tests of what reaches the sink.
    static func logThroughLibrtmp(level: Int32, format: String, _ argument: String) {
        setUpProcessOnce()
        crtmp_probe_log_string(level, format, argument)
    }
}
