internal import CX264
import Logging

/// Carries x264's log lines into swift-log.
///
/// x264 calls `pf_log` with a va_list; the C trampoline in CX264's shim formats it and calls
/// `callback` with this object as context. x264 may log from its worker threads, so this is
/// immutable and Sendable.
final class X264LogBridge: Sendable {
    let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// The x264 log level to ask for: formatting lines nobody will see is wasted work.
    var x264LogLevel: Int32 {
        logger.logLevel <= .debug ? X264_LOG_INFO : X264_LOG_WARNING
    }

    static let callback: cx264_log_callback = { context, level, message in
        guard let context, let message else { return }
        let bridge = Unmanaged<X264LogBridge>.fromOpaque(context).takeUnretainedValue()
        bridge.log(level: level, message: String(cString: message))
    }

    private func log(level: Int32, message: String) {
        let text = message.trimmingTrailingNewlines()
        switch level {
        case X264_LOG_ERROR: logger.error("x264: \(text)")
        case X264_LOG_WARNING: logger.warning("x264: \(text)")
        case X264_LOG_INFO: logger.debug("x264: \(text)")
        default: logger.trace("x264: \(text)")
        }
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> Substring {
        var text = self[...]
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
