import Foundation

/// scripts/vivid-vm/run: boots the host's kernel under QEMU with the kernel's vivid V4L2 test
/// driver loaded (the host's / is the guest's root, read-only with a writable overlay) and runs
/// one shell command inside.
public enum VividVM {
    /// vivid with one capture node, /dev/video0, whose one input is a webcam.
    public static let webcamOptions = "n_devs=1 node_types=0x1 num_inputs=1 input_types=0x0"
    /// … whose one input is S-Video: a capture card with a PAL signal that can be taken away.
    public static let sVideoOptions = "n_devs=1 node_types=0x1 num_inputs=1 input_types=0x2"

    /// Two instances, each a capture node whose one input is HDMI beside an output node whose one
    /// output is HDMI, so vivid can loop what the output is given into the capture ("Loop Video"
    /// needs HDMI, or S-Video, on both sides): instance 0 single-planar (/dev/video0 capture,
    /// /dev/video1 output), instance 1 multi-planar (/dev/video2, /dev/video3).
    public static let loopbackOptions = "n_devs=2 node_types=0x101,0x101 multiplanar=1,2 vid_cap_nr=0,2 vid_out_nr=1,3 "
        + "num_inputs=1,1 input_types=0x3,0x3 num_outputs=1,1 output_types=0x1,0x1"

    /// The VM itself could not run the command (harness exit 124, timeout, or 125, something
    /// missing or broken): a hardware test must fail on this, never pass by skipping.
    public struct Unavailable: Error, CustomStringConvertible {
        public var result: ProcessResult

        public var description: String {
            let missing = result.stderr.split(separator: "\n").first { $0.hasPrefix("vivid-run: missing") }
            return "the vivid VM could not run (exit \(result.status)): \(missing.map(String.init) ?? "see transcript")\n"
                + transcript(of: result)
        }
    }

    /// Runs `command` in the guest, with the harness's `VIVID_*` knobs in `settings`; returns what
    /// the command printed and its exit status, or throws `Unavailable`.
    public static func run(_ command: String, settings: [String: String], timeout: Double) throws -> ProcessResult {
        let harness = Project.root.appendingPathComponent("scripts/vivid-vm/run").path
        guard FileManager.default.isExecutableFile(atPath: harness) else { throw HarnessError("the VM harness \(harness) is missing") }
        let assignments = settings.merging(["NO_COLOR": "1"]) { $1 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let result = try ProcessRunner.run("/usr/bin/env", assignments + ["/bin/bash", harness, command], timeout: timeout)
        guard result.status != 124, result.status != 125 else { throw Unavailable(result: result) }
        return result
    }

    /// Both outputs of a harness run, for failure messages.
    public static func transcript(of result: ProcessResult) -> String {
        "--- vivid-vm/run exit \(result.status)\n--- stdout\n\(result.stdout)\n--- stderr\n\(result.stderr)"
    }
}
