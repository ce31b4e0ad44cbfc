import TestSupport
import Testing

/// Boots the vivid VM (scripts/vivid-vm/run, without vivid) with snd-aloop loaded and runs this
/// test bundle's `ALSALoopbackTests` inside it, so ALSAAudioSource captures from a real kernel
/// driver. Fails, saying what is missing, when the VM cannot start.
@Suite(.serialized, .enabled(if: !ALSAVMEnvironment.insideVM, "already inside the VM"))
struct ALSALoopbackVMTests {
    static let inVMSuite = "AudioCaptureIntegrationTests.ALSALoopbackTests"

    @Test(.timeLimit(.minutes(5)))
    func alsaTestsPassInsideTheVM() throws {
        let problems = try VividVM.runSuiteInside(
            Self.inVMSuite, environment: [ALSAVMEnvironment.insideVMVariable: "1"], prelude: "modprobe snd-aloop",
            settings: ["VIVID_TIMEOUT": "200", "VIVID_OPTS": "none", "VIVID_NET": "0"], timeout: 240,
            expecting: [
                "toneArrivesAndSurvivesOverrunPlayerLossAndCardRemoval()", "aDeviceInUseStartsOnSilenceAndIsTakenWhenFreed()",
                "aFormatTheDeviceRefusesIsNamed()", "plugDeviceConvertsAndKeepsTheClock()",
            ])
        for problem in problems { Issue.record("\(problem)") }
    }
}
