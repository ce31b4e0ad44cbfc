import Foundation

/// Where the package lives and where `swift build` put the `camcast` binary.
public enum Project {
    /// Tests/TestSupport/Project.swift → the package root.
    public static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    public static var camcastBinary: URL {
        if let path = ProcessInfo.processInfo.environment["CAMCAST_BINARY"] { return URL(fileURLWithPath: path) }
        return root.appendingPathComponent(".build/debug/camcast")
    }

    /// A fresh directory under /tmp for one test's files.
    public static func scratchDirectory(_ name: String) throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/camcast-tests/\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
