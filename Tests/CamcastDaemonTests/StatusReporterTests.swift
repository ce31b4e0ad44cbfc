import Encoder
import Foundation
import Logging
import Media
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
        // The reporter sleeps on the attach event (it used to look every 20 ms); a reporter that
        // never waits there fails here after a bound no answer needs.
        try await Self.waitUntil("the reporter awaits the attach") { control.attached.waiting == 1 }

        let settings = ReloadPlanTests.settings()
        let encoder = try EncoderSession(settings: settings.encoder, logger: logger) { _ in }
        let stages = PipelineStages(
            settings: settings, encoder: EncoderStage(session: encoder, upstream: .live, logger: logger, failed: { _ in }), stop: StopSignal(), latency: nil) { 0 }
        control.attach(Pipeline(settings: settings, logger: logger, control: control), stages)

        let received = await Self.datagrams(until: "READY=1", from: socket)
        #expect(received.contains { $0.contains("READY=1") }, "got \(received)")
    }

    /// The other order: attached first, the first picture later. The reporter sleeps on the
    /// encoded-picture count's first step, and READY=1 comes when the picture is counted.
    @Test func readyComesAtTheFirstPictureAfterTheAttach() async throws {
        let address = "@camcast-status-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let socket = try NotifySocket(address: address)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": address])
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let control = PipelineControl()
        let settings = ReloadPlanTests.settings()
        let encoder = try EncoderSession(settings: settings.encoder, logger: logger) { _ in }
        let stages = PipelineStages(
            settings: settings, encoder: EncoderStage(session: encoder, upstream: .live, logger: logger, failed: { _ in }), stop: StopSignal(), latency: nil) { 0 }
        control.attach(Pipeline(settings: settings, logger: logger, control: control), stages)
        let reporter = StatusReporter(notifier: notifier, control: control, logger: logger, initialIntervalSeconds: 60)
        let task = Task { await reporter.run() }
        defer { task.cancel() }
        try await Self.waitUntil("the reporter awaits the first picture") { control.counters.framesEncoded.firstStep.waiting == 1 }
        #expect(await DedicatedThread.run { socket.receive() } == nil, "a datagram before the first picture")

        control.counters.framesEncoded.add(1, ordering: .relaxed)
        let received = await Self.datagrams(until: "READY=1", from: socket)
        #expect(received.contains { $0.contains("READY=1") }, "got \(received)")
    }

    /// A graceful shutdown before the pipeline ever ran ends the reporter's wait for READY: the
    /// group's run returns (it would hang on a wait the cancellation did not end).
    @Test(.timeLimit(.minutes(1))) func aShutdownEndsTheWaitForReady() async throws {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let control = PipelineControl()
        let reporter = StatusReporter(notifier: SystemdNotifier(environment: [:]), control: control, logger: logger, initialIntervalSeconds: 60)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: reporter, successTerminationBehavior: .ignore)], logger: logger))
        let run = Task { try await group.run() }
        try await Self.waitUntil("the reporter awaits the first picture") { control.counters.framesEncoded.firstStep.waiting == 1 }
        await group.triggerGracefulShutdown()
        try await run.value
        #expect(control.counters.framesEncoded.firstStep.waiting == 0)
    }

    /// Waits until `condition` holds; fails after 180 s. The condition becomes true in
    /// microseconds or never, but this task needs a thread of the cooperative pool to look, and the
    /// unit suites run side by side on it: tests that block its threads (encodes, joins) kept both
    /// of a 2-core machine's busy for 40 s at a time, and a 30-s bound failed on that alone. A
    /// harness wait for an event that must come, not a bound on the reporter.
    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(180)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "never: \(what)")
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// What the socket receives until a datagram holds `text` (or 900 receives, 180 s, go by: the
    /// reporter's task needs the pool, as `waitUntil` says). The
    /// receives block: on a thread of their own, not the cooperative pool the reporter under test
    /// runs on (two tests blocking its two threads here starved both reporters).
    static func datagrams(until text: String, from socket: NotifySocket) async -> [String] {
        await DedicatedThread.run { receivedDatagrams(until: text, from: socket) }
    }

    private static func receivedDatagrams(until text: String, from socket: NotifySocket) -> [String] {
        var received: [String] = []
        for _ in 0..<900 {
            if let datagram = socket.receive() { received.append(datagram) }
            if received.contains(where: { $0.contains(text) }) { break }
        }
        return received
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
