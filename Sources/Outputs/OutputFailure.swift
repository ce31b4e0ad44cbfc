/// Why an output could not start, or ended for good. One line, safe to log: `output` is a path
/// or a redacted URL, never a stream key.
package struct OutputFailure: Error, Equatable, CustomStringConvertible {
    package var output: String
    package var reason: String

    package init(output: String, reason: String) {
        self.output = output
        self.reason = reason
    }

    package var description: String { "output \(output) failed: \(reason)" }
}
