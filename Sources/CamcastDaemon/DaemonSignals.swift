#if canImport(Glibc)
import Glibc
#endif
@preconcurrency import Dispatch

/// SIGTERM, SIGINT, SIGHUP and SIGUSR1 (log the full status), delivered as a stream instead of killing the process.
///
/// The daemon handles them itself rather than through ServiceGroup's signal options because it
/// needs to count them (a second stop signal exits at once) and to reload on SIGHUP.
///
/// A dispatch signal source is how a signal reaches Swift code safely (the handler runs on a
/// queue, not inside the interrupted thread), not a way for one thread to wait for another, so it
/// stays beside Media's `ConditionLock`; ServiceLifecycle's own signal handling is built the same way.
enum DaemonSignals {
    static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]

    /// Sets the signals' default action aside and returns them as they arrive.
    static func start() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let queue = DispatchQueue(label: "camcast.signals")
        let sources = handled.map { number -> DispatchSourceSignal in
            // Ignored first, so that the kernel queues the signal for the dispatch source instead
            // of running the default action (terminate).
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        continuation.onTermination = { _ in sources.forEach { $0.cancel() } }
        return stream
    }

    static func name(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGUSR1: "SIGUSR1"
        default: "signal \(number)"
        }
    }
}
