import Logging
import Media
import ServiceLifecycle
import Telemetry

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
        // awaited, in either order: frames may flow a moment before `control.attach`, and READY=1
        // must still come (it used to be lost for good then, issue 14 #5). Each is an event the
        // pipeline sets (`AwaitableFlag`), so this task sleeps until then; a graceful shutdown
        // cancels the wait.
        var first: PipelineSnapshot?
        while first == nil {
            guard await control.counters.framesEncoded.firstStep.wait(), await control.attached.wait() else { return }
            // Nil only when the pipeline detached again meanwhile: the next attach is awaited.
            first = control.snapshot()
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
            // No pipeline (it stopped, or a reload is between two): nothing to report this time.
            // The reporter still runs until the group shuts it down: a service that ends on its
            // own while the group is shutting down another one makes the whole run fail
            // (ServiceGroupError.serviceFinishedUnexpectedly, exit 1 after a clean stop).
            guard let current = control.snapshot() else { continue }
            let uptime = Double(current.at.nanoseconds(since: control.startedAt)) / 1e9
            let line = StatusLine(previous: previous, current: current, uptimeSeconds: uptime).text
            logger.info("status \(line)")
            // systemctl status shows the line while all is well, and leads with what is wrong
            // when an output or the camera is not: READY and the watchdog say nothing of that.
            let report = control.telemetry.report()
            notifier.status(report.healthProblems.isEmpty ? line : report.shortStatus)
            previous = current
        }
    }

    /// SIGUSR1: everything /status has, as log lines (for a box without the HTTP endpoint).
    static func logFullStatus(_ report: TelemetryReport, graph: PipelineGraph?, logger: Logger) {
        let problems = report.healthProblems
        logger.notice(
            "status: \(problems.isEmpty ? "healthy" : "unhealthy")",
            metadata: [
                "summary": "\(report.shortStatus)", "version": "\(report.version)", "uptime_s": "\(Int(report.uptimeSeconds))",
                "source": "\(report.facts.source)", "camera": "\(report.cameraTrouble ?? "live")",
                "frames_captured": "\(report.framesCaptured)", "placeholder_frames": "\(report.placeholderFrames)",
                "frames_encoded": "\(report.framesEncoded)", "bitrate_kbps": "\(report.configuredKbps)",
                "adapted_kbps": "\(report.adaptedKbps)", "audio_frames": "\(report.audioFrames)", "xruns": "\(report.audioXruns)",
                "problems": "\(problems.joined(separator: "; "))",
            ])
        for output in report.outputs {
            logger.notice(
                "status: output \(output.name)",
                metadata: [
                    "kind": "\(output.kind)", "target": "\(output.target)", "state": "\(output.phase.rawValue)",
                    "for_s": "\(Int(output.secondsInPhase))", "attempts": "\(output.connectAttempts)",
                    "failures": "\(output.failuresByReason.values.reduce(0, +))", "sent_bytes": "\(output.sentBytes)",
                    "queue_s": "\(StatusLine.oneDecimal(output.queueSeconds))", "last_error": "\(output.lastError ?? "none")",
                ])
        }
        // The graph as it runs, one line per stage and per hand-off (as the stop summary prints it).
        for line in graph?.lines() ?? [] {
            logger.notice("status: graph: \(line)")
        }
    }
}
