import Foundation
import Media
import Synchronization
import Testing
import TestSupport
@testable import CamcastDaemon

/// The debug builds' capture stall (a wedged driver, for tests) sleeps until its file goes — on
/// inotify, where it used to look every 10 ms — and only then: an unrelated change in the same
/// directory wakes it to look, not to return.
@Suite(.timeLimit(.minutes(1))) struct DebugCaptureStallTests {
    @Test func theStallEndsWhenItsFileGoesAndNotBefore() throws {
        let directory = NSTemporaryDirectory() + "camcast-stall-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stall"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let fileAtReturn = SharedLock<Bool?>(nil)
        let stalled = try DedicatedThread {
            DebugCaptureStall(path: path).waitWhileStalled()
            fileAtReturn.withLock { $0 = FileManager.default.fileExists(atPath: path) }
        }
        // Until the stall sleeps on its inotify descriptor (seen from outside in /proc/self/fd):
        // the changes below are then events it must look at.
        while !Self.hasInotifyDescriptor() { usleep(1_000) }
        // Events in the directory that are not the file's removal.
        for index in 0..<3 {
            let other = directory + "/other-\(index)"
            #expect(FileManager.default.createFile(atPath: other, contents: nil))
            try FileManager.default.removeItem(atPath: other)
        }
        try FileManager.default.removeItem(atPath: path)
        stalled.join()
        #expect(fileAtReturn.withLock { $0 } == false, "the stall ended while its file was still there")
    }

    static func hasInotifyDescriptor() -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == "anon_inode:inotify" }
    }
}
