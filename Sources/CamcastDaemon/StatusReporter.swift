import Logging
import Media

/// Tells systemd when the pipeline runs (READY=1), then logs the one-line status and sends it as
/// STATUS= every `status.interval_seconds`.
struct StatusReporter {
    let notifier: SystemdNotifier
    let control: PipelineControl
    let logger: Logger
    let initialIntervalSeconds: Double

    /// Runs until cancelled.
    func run() async {
        // READY=1 once the first picture is encoded: the source runs, the encoder works and every
        // output was opened before the source started. Polled, because it happens exactly once.
        while control.framesEncoded == 0 {
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                return
            }
        }
        guard var previous = control.snapshot() else { return }
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
