import Encoder
import Logging
import Media
import Synchronization
import TestSupport
import Testing

@testable import CamcastDaemon

/// The interleaver thread's view of the outputs is that thread's alone (issue 39 #6): debug builds
/// bind it to its first reader and check every later read.
@Suite struct OutputsViewConfinementTests {
    #if DEBUG
    @Test("the outputs view read from a second thread fails the debug check; its first reader's reads pass")
    func theViewBelongsToItsFirstReader() throws {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let settings = ReloadPlanTests.settings()
        let encoder = try EncoderSession(settings: settings.encoder, logger: logger) { _ in }
        let stages = PipelineStages(
            settings: settings, encoder: EncoderStage(session: encoder, upstream: .live, logger: logger, failed: { _ in }), stop: StopSignal(),
            latency: nil) { 0 }
        let view = OutputsView()
        let caught = CaughtFailures()
        view.confinement.check.catchFailures { caught.add($0) }
        let interleaver = try DedicatedThread {
            _ = view.current(stages)
            _ = view.current(stages)
        }
        interleaver.join()
        #expect(caught.all.isEmpty)

        _ = view.current(stages)
        #expect(caught.all == ["reading the outputs view ran off the outputs view's reader's thread"])
    }
    #endif
}
