import Foundation

/// Runs a tool to completion and returns its exit status and output.
struct ToolResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

struct ToolMissing: Error, CustomStringConvertible {
    var description: String
}

enum ProcessRunner {
    static func path(of tool: String) -> String? {
        for directory in ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin", "/sbin"] {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func require(_ tool: String, hint: String) throws -> String {
        guard let path = path(of: tool) else { throw ToolMissing(description: "\(tool) is not installed: \(hint)") }
        return path
    }

    /// Output goes to temporary files, so neither stream can fill a pipe and block the child.
    static func run(_ tool: String, _ arguments: [String]) throws -> ToolResult {
        let fm = FileManager.default
        let base = fm.temporaryDirectory.path + "/camcast-tool-\(UInt64.random(in: 0...UInt64.max))"
        let outPath = base + ".out", errPath = base + ".err"
        _ = fm.createFile(atPath: outPath, contents: nil)
        _ = fm.createFile(atPath: errPath, contents: nil)
        defer { try? fm.removeItem(atPath: outPath); try? fm.removeItem(atPath: errPath) }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try require(tool, hint: "apt-get install -y ffmpeg"))
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ToolResult(status: process.terminationStatus,
                          stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                          stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}
