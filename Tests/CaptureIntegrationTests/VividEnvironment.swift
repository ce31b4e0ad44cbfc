import Foundation
import Testing

/// Where the integration tests run and how they reach the outside: the VM harness, the test bundle
/// itself, and helper processes (v4l2-ctl).
enum VividEnvironment {
    /// Set by the host-side test for the test bundle it runs inside the vivid VM.
    static let insideVMVariable = "CAMCAST_TEST_IN_VIVID_VM"
    static var insideVM: Bool { ProcessInfo.processInfo.environment[insideVMVariable] == "1" }
    /// Set when vivid was loaded with `multiplanar=2`: the node then speaks only the multi-planar API.
    static let multiPlanarVariable = "CAMCAST_VIVID_MULTIPLANAR"
    static var multiPlanar: Bool { ProcessInfo.processInfo.environment[multiPlanarVariable] == "1" }

    /// The capture node vivid creates with the harness's default options.
    static let device = "/dev/video0"

    /// The package root, from this file's path (Tests/CaptureIntegrationTests/<file>).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    struct Finished {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `executable` with `arguments` to completion, collecting both outputs.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // stderr goes to a file, so a chatty child cannot block on a pipe nobody is reading.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Finished(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
    }

    /// `v4l2-ctl ARGUMENTS` inside the VM; fails the test if it fails.
    @discardableResult
    static func v4l2ctl(_ arguments: [String]) throws -> String {
        let finished = try run("/usr/bin/v4l2-ctl", arguments)
        try #require(finished.status == 0, "v4l2-ctl \(arguments.joined(separator: " ")) failed: \(finished.error)")
        return finished.output
    }

    /// Sets a vivid control from a second process, as an operator (or a flaky USB bus) would.
    static func setControl(_ name: String, _ value: Int = 1) throws {
        try v4l2ctl(["-d", device, "-c", "\(name)=\(value)"])
    }
}
