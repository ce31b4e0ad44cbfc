import Foundation
import TestSupport
import Testing

/// Where the capture tests run (inside the vivid VM or not) and how they set vivid's controls.
enum VividEnvironment {
    /// Set by the host-side test for the test bundle it runs inside the vivid VM.
    static let insideVMVariable = "CAMCAST_TEST_IN_VIVID_VM"
    static var insideVM: Bool { ProcessInfo.processInfo.environment[insideVMVariable] == "1" }
    /// Set when vivid was loaded with `multiplanar=2`: the node then speaks only the multi-planar API.
    static let multiPlanarVariable = "CAMCAST_VIVID_MULTIPLANAR"
    static var multiPlanar: Bool { ProcessInfo.processInfo.environment[multiPlanarVariable] == "1" }

    /// Set when vivid was loaded with `VividVM.loopbackOptions`: output nodes beside the capture nodes.
    static let loopbackVariable = "CAMCAST_VIVID_LOOPBACK"
    static var insideLoopbackVM: Bool { insideVM && ProcessInfo.processInfo.environment[loopbackVariable] == "1" }

    /// The capture node vivid creates with the harness's default options.
    static let device = "/dev/video0"

    /// `v4l2-ctl ARGUMENTS` inside the VM; fails the test if it fails.
    @discardableResult
    static func v4l2ctl(_ arguments: [String]) throws -> String {
        let finished = try ProcessRunner.run("/usr/bin/v4l2-ctl", arguments)
        try #require(finished.status == 0, "v4l2-ctl \(arguments.joined(separator: " ")) failed: \(finished.stderr)")
        return finished.stdout
    }

    /// Sets a vivid control from a second process, as an operator (or a flaky USB bus) would.
    static func setControl(_ name: String, _ value: Int = 1) throws {
        try v4l2ctl(["-d", device, "-c", "\(name)=\(value)"])
    }
}
