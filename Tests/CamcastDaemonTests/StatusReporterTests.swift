import Encoder
import Foundation
import Logging
import ServiceLifecycle
import Testing
@testable import CamcastDaemon
@testable import Outputs

/// Issue 14 #5: READY=1 was lost for good when frames flowed before the pipeline attached to
/// its control (the reporter found no snapshot and returned).
@Suite("Status reporter")
struct StatusReporterTests {
    @Test func readyComesEvenWhenFramesFlowBeforeTheControlIsAttached() async throws {
        let address = "@camcast-status-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let socket = try NotifySocket(address: address)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": address])
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let control = PipelineControl()
        control.counters.framesEncoded.add(1, ordering: .relaxed)
        let reporter = StatusReporter(notifier: notifier, control: control, logger: logger, initialIntervalSeconds: 60)
        let task = Task { await reporter.run() }
        defer { task.cancel() }
        try await Task.sleep(for: .milliseconds(200))

        let settings = ReloadPlanTests.settings()
        let encoder = try EncoderSession(settings: settings.encoder, logger: logger) { _ in }
        let stages = PipelineStages(
            settings: settings, encoder: EncoderStage(session: encoder, upstream: .live, logger: logger, failed: { _ in }), stop: StopSignal(), latency: nil) { 0 }
        control.attach(Pipeline(settings: settings, logger: logger, control: control), stages)

        var received: [String] = []
        for _ in 0..<10 {
            if let datagram = socket.receive() { received.append(datagram) }
            if received.contains(where: { $0.contains("READY=1") }) { break }
        }
        #expect(received.contains { $0.contains("READY=1") }, "got \(received)")
    }
}

/// A clean stop exited 1 now and then (seen in the adaptive-bitrate namespace runs): when the
/// pipeline ended, the status reporter found no snapshot and returned on its own while the group
/// was still shutting down a later service, which ServiceLifecycle reports as
/// `serviceFinishedUnexpectedly`.
@Suite("Status reporter at shutdown")
struct StatusReporterShutdownTests {
    /// Ends the run as the pipeline does: its state detached, then the service returns.
    struct EndingPipeline: Service {
        let control: PipelineControl
        func run() async throws {
            try await Task.sleep(for: .milliseconds(200))
            control.detach()
        }
    }

    /// A service that takes a while to stop, as the HTTP endpoint does (closing its channel).
    struct SlowToStop: Service {
        func run() async throws {
            try? await gracefulShutdown()
            try await Task.sleep(for: .milliseconds(300))
        }
    }

    @Test func theReporterWaitsForTheGroupInsteadOfEndingOnItsOwn() async throws {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let control = PipelineControl()
        control.counters.framesEncoded.add(1, ordering: .relaxed)
        var settings = ReloadPlanTests.settings()
        settings.statusIntervalSeconds = 0.01
        let encoder = try EncoderSession(settings: settings.encoder, logger: logger) { _ in }
        let stages = PipelineStages(
            settings: settings, encoder: EncoderStage(session: encoder, upstream: .live, logger: logger, failed: { _ in }), stop: StopSignal(), latency: nil) { 0 }
        control.attach(Pipeline(settings: settings, logger: logger, control: control), stages)
        let reporter = StatusReporter(
            notifier: SystemdNotifier(environment: [:]), control: control, logger: logger, initialIntervalSeconds: 0.01)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: EndingPipeline(control: control), successTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: reporter, successTerminationBehavior: .ignore),
                    .init(service: SlowToStop(), successTerminationBehavior: .ignore),
                ],
                logger: logger))
        // Threw serviceFinishedUnexpectedly(StatusReporter) before the fix.
        try await group.run()
    }
}
