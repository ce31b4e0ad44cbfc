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
        let problems = try VividVM.runSuiteInside(
            Self.inVMSuite,
            environment: [VividEnvironment.insideVMVariable: "1", VividEnvironment.multiPlanarVariable: multiPlanar ? "1" : "0"],
            settings: ["VIVID_TIMEOUT": "480", "VIVID_OPTS": VividVM.webcamOptions + (multiPlanar ? " multiplanar=2" : "")],
            timeout: 540,
            expecting: [
                "captures90ContinuousFrames(format:)", "autoPicksNV12()", "listingAgreesWithV4L2Ctl()",
                "disconnectSendsPlaceholdersThenResumes()", "fatalStreamingErrorIsReportedAsFailingAndRecovers()",
                "errorFlaggedBufferIsSkippedAndCounted()", "driverDropsAreCountedFromSequenceGaps()",
                "anUnofferedFormatFailsAtStartNamingWhatIsOffered()", "nodeSpeaksTheExpectedBufferAPI()",
                "twoBuffersStreamWithTheLastFrameHeldBack()",
            ])
        for problem in problems { Issue.record("\(problem)") }
    }
}
