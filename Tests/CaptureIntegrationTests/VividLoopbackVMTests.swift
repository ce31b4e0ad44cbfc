import Foundation
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
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let command = "\(VividEnvironment.insideVMVariable)=1 \(VividEnvironment.loopbackVariable)=1 exec '\(bundle)' --testing-library swift-testing --filter '\(Self.inVMSuite)'"
        let finished: ProcessResult
        do {
            finished = try VividVM.run(command, settings: ["VIVID_TIMEOUT": "480", "VIVID_OPTS": VividVM.loopbackOptions], timeout: 540)
        } catch let unavailable as VividVM.Unavailable {
            Issue.record("the tests could not run: \(unavailable)")
            return
        }
        let report = (finished.stdout + finished.stderr).replacing(/\x1B\[[0-9;]*m/, with: "")
        let transcript = VividVM.transcript(of: finished)
        #expect(finished.status == 0, "in-VM tests failed (exit \(finished.status))\n\(transcript)")
        // Proof they ran rather than skipped: Swift Testing's summary names every test that passed.
        let passed = report.split(separator: "\n").filter { $0.contains("✔ Test ") && $0.contains(" passed after ") }
        #expect(!report.contains(" skipped"), "in-VM tests were skipped\n\(transcript)")
        for name in [
            "framesQueuedOnTheOutputArriveInTheCaptureInOrder(nodes:)",
            "aCaptureOnlyNodeIsRefusedAsAnOutputAndTheDriverChecksWhatIsQueued()",
        ] {
            #expect(passed.contains { $0.contains("✔ Test \(name)") }, "\(name) did not pass in the VM\n\(transcript)")
        }
    }
}
