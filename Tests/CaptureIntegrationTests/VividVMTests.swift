import Foundation
import TestSupport
import Testing

/// Boots the vivid VM (scripts/vivid-vm/run) and runs this very test bundle inside it with
/// CAMCAST_TEST_IN_VIVID_VM=1, so `VividCaptureTests` capture from a real V4L2 driver. Fails, saying
/// what is missing, when the VM cannot start: a skipped hardware test would hide a broken harness.
@Suite(.serialized, .enabled(if: !VividEnvironment.insideVM, "already inside the VM"))
struct VividVMTests {
    static let inVMSuite = "CaptureIntegrationTests.VividCaptureTests"

    /// vivid's single-planar node, then (`multiplanar=2`) its multi-planar one.
    @Test(.timeLimit(.minutes(10)), arguments: [false, true])
    func captureTestsPassInsideTheVividVM(multiPlanar: Bool) throws {
        // The bundle running now is the one to run inside (the host's / is the VM's root).
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let command = "\(VividEnvironment.insideVMVariable)=1 \(VividEnvironment.multiPlanarVariable)=\(multiPlanar ? 1 : 0) exec '\(bundle)' --testing-library swift-testing --filter '\(Self.inVMSuite)'"
        let finished: ProcessResult
        do {
            finished = try VividVM.run(
                command,
                settings: ["VIVID_TIMEOUT": "480", "VIVID_OPTS": VividVM.webcamOptions + (multiPlanar ? " multiplanar=2" : "")],
                timeout: 540)
        } catch let unavailable as VividVM.Unavailable {
            Issue.record("the tests could not run: \(unavailable)")
            return
        }
        // Swift Testing reports on stderr. The guest's output is a serial line, which it may take
        // for a terminal: drop colour codes.
        let report = (finished.stdout + finished.stderr).replacing(/\x1B\[[0-9;]*m/, with: "")
        let transcript = VividVM.transcript(of: finished)
        #expect(finished.status == 0, "in-VM tests failed (exit \(finished.status))\n\(transcript)")
        // Proof they ran rather than skipped: Swift Testing's summary names every test that passed.
        let passed = report.split(separator: "\n").filter { $0.contains("✔ Test ") && $0.contains(" passed after ") }
        #expect(!report.contains(" skipped"), "in-VM tests were skipped\n\(transcript)")
        for name in [
            "captures90ContinuousFrames(format:)", "autoPicksNV12()", "listingAgreesWithV4L2Ctl()",
            "disconnectSendsPlaceholdersThenResumes()", "fatalStreamingErrorIsReportedAsFailingAndRecovers()",
            "errorFlaggedBufferIsSkippedAndCounted()", "driverDropsAreCountedFromSequenceGaps()",
            "anUnofferedFormatFailsAtStartNamingWhatIsOffered()", "nodeSpeaksTheExpectedBufferAPI()",
            "twoBuffersStreamWithTheLastFrameHeldBack()",
        ] {
            #expect(passed.contains { $0.contains("✔ Test \(name)") }, "\(name) did not pass in the VM\n\(transcript)")
        }
    }
}
