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
    /// A stall on its own thread: `returnedAt` is set when it returns.
    final class Stall: Sendable {
        let returnedAt = SharedLock<MonotonicTime?>(nil)
        let thread: DedicatedThread
        init(path: String, directoryInode: Int) throws {
            thread = try DedicatedThread { [returnedAt] in
                DebugCaptureStall(path: path).waitWhileStalled()
                returnedAt.withLock { $0 = .now() }
            }
            // Until it watches the directory: changes from here on are events it must look at.
            while !DebugCaptureStallTests.inotifyWatches(inode: directoryInode) { usleep(1_000) }
        }
        var hasReturned: Bool { returnedAt.withLock { $0 != nil } }
    }

    @Test func theStallEndsWhenItsFileGoesAndNotBefore() throws {
        let directory = NSTemporaryDirectory() + "camcast-stall-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: directory)[.systemFileNumber] as? Int)
        let path = directory + "/stall"

        // How long this machine takes from a removal to the stall's return, in this run.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let first = try Stall(path: path, directoryInode: inode)
        let removedAt = MonotonicTime.now()
        try FileManager.default.removeItem(atPath: path)
        first.thread.join()
        let wake = try #require(first.returnedAt.withLock { $0 }).nanoseconds(since: removedAt)

        // Events in the directory that are not the file's removal (another file's removal is
        // one): twenty times that wake-up later, the stall still waits.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let second = try Stall(path: path, directoryInode: inode)
        for index in 0..<3 {
            let other = directory + "/other-\(index)"
            #expect(FileManager.default.createFile(atPath: other, contents: nil))
            try FileManager.default.removeItem(atPath: other)
        }
        let watchedUntil = MonotonicTime.now().adding(nanoseconds: UInt64(max(wake, 1_000_000)) * 20)
        while MonotonicTime.now() < watchedUntil, !second.hasReturned { usleep(100) }
        #expect(!second.hasReturned, "the stall ended at another file's removal, its own still there (its wake-up took \(wake / 1000) µs)")
        try FileManager.default.removeItem(atPath: path)
        second.thread.join()
    }

    /// Whether an inotify descriptor of this process watches the file with `inode` (fdinfo's
    /// `inotify wd:… ino:<hex> …` lines).
    static func inotifyWatches(inode: Int) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.contains { entry in
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == "anon_inode:inotify" else { return false }
            let info = (try? String(contentsOfFile: "/proc/self/fdinfo/\(entry)", encoding: .utf8)) ?? ""
            return info.contains("ino:\(String(inode, radix: 16)) ")
        }
    }
}
