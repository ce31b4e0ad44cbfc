import Encoder
import Foundation
import Logging
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
        let stages = PipelineStages(settings: settings, encoder: encoder, stop: StopSignal(), latency: nil) { 0 }
        control.attach(Pipeline(settings: settings, logger: logger, control: control), stages)

        var received: [String] = []
        for _ in 0..<10 {
            if let datagram = socket.receive() { received.append(datagram) }
            if received.contains(where: { $0.contains("READY=1") }) { break }
        }
        #expect(received.contains { $0.contains("READY=1") }, "got \(received)")
    }
}
