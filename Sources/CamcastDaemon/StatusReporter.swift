import Logging
import Media
import ServiceLifecycle

/// Tells systemd when the pipeline runs (READY=1), then logs the one-line status and sends it as
/// STATUS= every `status.interval_seconds`.
struct StatusReporter: Service {
    let notifier: SystemdNotifier
    let control: PipelineControl
    let logger: Logger
    let initialIntervalSeconds: Double

    /// Runs until the service group shuts down (or the task is cancelled).
    func run() async {
        await cancelWhenGracefulShutdown { await report() }
    }

    private func report() async {
        // READY=1 once the first picture is encoded and the pipeline is attached: the source
        // runs, the encoder works and every output was made before the source started. Both are
        // awaited: frames may flow a moment before `control.attach`, and READY=1 must still come
        // (it used to be lost for good then, issue 14 #5). Polled, because it happens exactly once.
        var first: PipelineSnapshot?
        while first == nil {
            if control.framesEncoded > 0 { first = control.snapshot() }
            if first != nil { break }
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                return
            }
        }
        guard var previous = first else { return }
        notifier.ready(status: "streaming \(previous.size), \(previous.targetKbps) kbit/s, \(previous.outputs) outputs")
        logger.info("ready", metadata: ["systemd": "\(notifier.isEnabled)"])
        while !Task.isCancelled {
            let seconds = control.statusIntervalSeconds ?? initialIntervalSeconds
            do {
                try await Task.sleep(for: .seconds(seconds))
            } catch {
                return
            }
            guard let current = control.snapshot() else { return }
            let uptime = Double(current.at.nanoseconds(since: control.startedAt)) / 1e9
            let line = StatusLine(previous: previous, current: current, uptimeSeconds: uptime).text
            logger.info("status \(line)")
            notifier.status(line)
            previous = current
        }
    }
}
