import Encoder
import FLV
import Logging
import Media
import Synchronization
import Telemetry
import TestSupport
import Testing
@testable import CamcastDaemon
@testable import Outputs

/// Issue 14 #8: one failing output (a full disk under an FLV recording) used to stop the whole
/// run, RTMP included. Now it leaves the stream alone; only the last one's failure stops the run.
@Suite("Output failures")
struct OutputFailureTests {
    final class CountingOutput: StreamOutput {
        let name: String
        let threadName = "counting"
        let written = Atomic<Int>(0)
        init(_ name: String) { self.name = name }
        func open() throws(OutputFailure) {}
        func write(_ packet: MediaPacket) { written.add(1, ordering: .relaxed) }
        func finish(endTime: Int64, drainSeconds: Double) {}
        var statistics: OutputStatistics { OutputStatistics() }
    }

    @Test func aFailedOutputLeavesTheOthersStreaming() throws {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let settings = ReloadPlanTests.settings()
        let encoder = try EncoderSession(settings: settings.encoder, logger: logger) { _ in }
        let stop = StopSignal()
        let stages = PipelineStages(
            settings: settings, encoder: EncoderStage(session: encoder, upstream: .live, logger: logger, failed: { _ in }), stop: stop, latency: nil) { 0 }
        let file = CountingOutput("a.flv")
        let server = CountingOutput("rtmp")
        let fileIdentity = OutputIdentity()
        fileIdentity.set(file)
        let serverIdentity = OutputIdentity()
        serverIdentity.set(server)
        stages.add(file, for: .flvFile(path: "a.flv"))
        stages.add(server, for: ReloadPlanTests.server)

        stages.outputFailed(fileIdentity, .outputFailed(output: "a.flv", reason: "No space left on device"), logger: logger)
        #expect(!stop.hasFired)
        #expect(stages.currentOutputs.map(\.name) == ["rtmp"])
        let packet = FrameStream(gop: 10).packet(0)
        for output in stages.streamingOutputs { output.write(packet) }
        #expect(server.written.load(ordering: .relaxed) == 1)
        #expect(file.written.load(ordering: .relaxed) == 0)

        stages.outputFailed(serverIdentity, .outputFailed(output: "rtmp", reason: "gave up"), logger: logger)
        #expect(stop.hasFired)
        #expect(stages.failedOutputs.withLock { $0.count } == 2)
    }
}
