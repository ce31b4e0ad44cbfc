import Foundation
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
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let command = "modprobe snd-aloop && \(ALSAVMEnvironment.insideVMVariable)=1 exec '\(bundle)' --testing-library swift-testing --filter '\(Self.inVMSuite)'"
        let finished: ProcessResult
        do {
            finished = try VividVM.run(command, settings: ["VIVID_TIMEOUT": "200", "VIVID_OPTS": "none", "VIVID_NET": "0"], timeout: 240)
        } catch let unavailable as VividVM.Unavailable {
            Issue.record("the tests could not run: \(unavailable)")
            return
        }
        let report = (finished.stdout + finished.stderr).replacing(/\x1B\[[0-9;]*m/, with: "")
        let transcript = VividVM.transcript(of: finished)
        #expect(finished.status == 0, "in-VM tests failed (exit \(finished.status))\n\(transcript)")
        let passed = report.split(separator: "\n").filter { $0.contains("✔ Test ") && $0.contains(" passed after ") }
        #expect(!report.contains(" skipped"), "in-VM tests were skipped\n\(transcript)")
        for name in [
            "toneArrivesAndSurvivesOverrunPlayerLossAndCardRemoval()", "aDeviceInUseStartsOnSilenceAndIsTakenWhenFreed()", "aFormatTheDeviceRefusesIsNamed()",
            "plugDeviceConvertsAndKeepsTheClock()",
        ] {
            #expect(passed.contains { $0.contains("✔ Test \(name)") }, "\(name) did not pass in the VM\n\(transcript)")
        }
    }
}
