import Encoder
import Logging
import Media
import Synchronization
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
        let caught = Mutex<[String]>([])
        view.confinement.check.catchFailures { message in caught.withLock { $0.append(message) } }
        let interleaver = try DedicatedThread {
            _ = view.current(stages)
            _ = view.current(stages)
        }
        interleaver.join()
        #expect(caught.withLock { $0 }.isEmpty)

        _ = view.current(stages)
        #expect(caught.withLock { $0 } == ["reading the outputs view ran off the outputs view's reader's thread"])
    }
    #endif
}
