import Foundation

/// Where the package lives and where `swift build` put the `camcast` binary.
public enum Project {
    /// Tests/TestSupport/Project.swift → the package root.
    public static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    public static var camcastBinary: URL {
        if let path = ProcessInfo.processInfo.environment["CAMCAST_TEST_BINARY"] { return URL(fileURLWithPath: path) }
        return root.appendingPathComponent(".build/debug/camcast")
    }

    /// Whether `camcastBinary` was built with AddressSanitizer (its runtime is linked into the
    /// executable: the symbol's name is in the file), for bounds ASan's own memory would break.
    public static let camcastIsAddressSanitized: Bool = {
        guard let handle = FileHandle(forReadingAtPath: camcastBinary.path) else { return false }
        defer { try? handle.close() }
        let marker = Data("__asan_init".utf8)
        var tail = Data()
        while let chunk = try? handle.read(upToCount: 1 << 22), !chunk.isEmpty {
            let window = tail + chunk
            if window.range(of: marker) != nil { return true }
            tail = window.suffix(marker.count - 1)
        }
        return false
    }()

    /// A fresh directory for one test's files, in the temporary directory: `scripts/test` points
    /// TMPDIR at a directory of its own run and removes it when the run passes.
    public static func scratchDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-tests/\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
