import TestSupport
import Testing

/// Boots the vivid VM with output nodes (`VividVM.loopbackOptions`) and runs `VividLoopbackTests`
/// from this very test bundle inside it: the V4L2 output side against a real driver. Fails, saying
/// what is missing, when the VM cannot start, as `VividVMTests` does.
@Suite(.serialized, .enabled(if: !VividEnvironment.insideVM, "already inside the VM"))
struct VividLoopbackVMTests {
    static let inVMSuite = "CaptureIntegrationTests.VividLoopbackTests"

    @Test(.timeLimit(.minutes(10)))
    func loopbackTestsPassInsideTheVividVM() throws {
        let problems = try VividVM.runSuiteInside(
            Self.inVMSuite, environment: [VividEnvironment.insideVMVariable: "1", VividEnvironment.loopbackVariable: "1"],
            settings: ["VIVID_TIMEOUT": "480", "VIVID_OPTS": VividVM.loopbackOptions], timeout: 540,
            expecting: [
                "framesQueuedOnTheOutputArriveInTheCaptureInOrder(nodes:)",
                "aCaptureOnlyNodeIsRefusedAsAnOutputAndTheDriverChecksWhatIsQueued()",
            ])
        for problem in problems { Issue.record("\(problem)") }
    }
}
