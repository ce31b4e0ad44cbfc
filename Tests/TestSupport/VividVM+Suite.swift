import Foundation

extension VividVM {
    /// Runs `suite` of the test bundle running now inside the VM (the host's / is the guest's
    /// root, so the same file is there), with `environment` set and after `prelude` (a shell
    /// command, e.g. loading a module). Returns what went wrong, empty when the bundle exited 0 and
    /// every test in `expecting` passed there: Swift Testing's summary names each test that
    /// passed, which proves they ran rather than skipped. A VM that could not run is a problem
    /// too: a hardware test must fail on it, never pass by skipping.
    public static func runSuiteInside(
        _ suite: String, environment: [String: String], prelude: String? = nil, settings: [String: String], timeout: Double,
        expecting names: [String]
    ) throws -> [String] {
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value) " }.joined()
        let run = "\(assignments)exec '\(bundle)' --testing-library swift-testing --filter '\(suite)'"
        let finished: ProcessResult
        do {
            finished = try VividVM.run(prelude.map { "\($0) && \(run)" } ?? run, settings: settings, timeout: timeout)
        } catch let unavailable as Unavailable {
            return ["the tests could not run: \(unavailable)"]
        }
        // Swift Testing reports on stderr. The guest's output is a serial line, which it may take
        // for a terminal: drop colour codes.
        let report = (finished.stdout + finished.stderr).replacing(/\x1B\[[0-9;]*m/, with: "")
        let transcript = transcript(of: finished)
        var problems: [String] = []
        if finished.status != 0 { problems.append("in-VM tests failed (exit \(finished.status))\n\(transcript)") }
        let lines = report.split(separator: "\n")
        // Not in the "↳" lines under a failure: they quote the suite's comment, which may say "skipped".
        if lines.contains(where: { $0.contains(" skipped") && !$0.drop { $0 == " " }.hasPrefix("↳") }) {
            problems.append("in-VM tests were skipped\n\(transcript)")
        }
        let passed = lines.filter { $0.contains("✔ Test ") && $0.contains(" passed after ") }
        for name in names where !passed.contains(where: { $0.contains("✔ Test \(name)") }) {
            problems.append("\(name) did not pass in the VM\n\(transcript)")
        }
        return problems
    }
}
