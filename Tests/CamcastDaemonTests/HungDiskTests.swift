import FLV
import Foundation
import Logging
import Media
import TestSupport
import Testing
@testable import CamcastDaemon
@testable import Outputs

/// Issue 26 defect 1: a file output whose `write(2)` hangs (a dead NFS server, a stuck disk)
/// used to hold its lock across the write, so the stop hung until the 15 s hard exit, a reload
/// that removed the output hung for good, and the status snapshot blocked behind it.
///
/// The hung disk here is a FIFO whose reader never reads: once the pipe's buffer is full, the
/// writer thread sits in `write(2)` exactly as it would on a dead mount.
@Suite("File outputs on a hung disk")
struct HungDiskTests {
    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func anAnnexBOutputStopsAndReportsWhileItsWriteHangs() throws {
        let pipe = try StuckPipe(name: "cam.h264")
        defer { pipe.remove() }
        let output = AnnexBFileOutput(path: pipe.path, frameLimit: nil, logger: Self.logger, onFailure: { _ in })
        try output.open()
        try Self.checkPromptWhileHung(output, pipe: pipe)
    }

    @Test func anFLVOutputStopsAndReportsWhileItsWriteHangs() throws {
        let pipe = try StuckPipe(name: "cam.flv")
        defer { pipe.remove() }
        let metadata = try FLVTag(type: .scriptData, timestamp: 0, body: [0x02, 0x00, 0x00])
        let output = FLVFileOutput(path: pipe.path, metadata: metadata, logger: Self.logger, onFailure: { _ in })
        try output.open()
        try Self.checkPromptWhileHung(output, pipe: pipe)
    }

    /// Fills the pipe until the writer thread blocks, then asks for the status snapshot and stops
    /// the output the way a reload that removes it does. Both must come back within their bound;
    /// and once the disk "comes back" (the test reads), the abandoned writer closes the file.
    static func checkPromptWhileHung(_ output: some StreamOutput, pipe: StuckPipe) throws {
        // Keyframes of 256 KiB each: the first alone overfills a 64 KiB pipe.
        for number in 0..<4 {
            var packet = FrameStream(gop: 1).packet(number)
            packet.units[0] += [UInt8](repeating: 0x5A, count: 256 << 10)
            output.write(packet)
        }
        #expect(pipe.waitUntilFull(seconds: 30), "the writer never filled the pipe")

        let statistics = returns(within: 2) { _ = output.statistics }
        #expect(statistics, "the status snapshot blocked behind a hung write")

        // A reload that removes the output finishes it with the stop's drain time (default 2 s);
        // the grace for the last write is 2 s more. Far below the 15 s hard exit.
        let stopped = returns(within: 8) { output.finish(endTime: 1000, drainSeconds: 0.5) }
        #expect(stopped, "finish waited on a hung write")

        // The disk comes back: the writer left behind finishes its write and closes the file.
        #expect(pipe.drainUntilClosed(seconds: 30), "the abandoned writer never closed the file")
    }

    /// Runs `body` on a thread of its own; false if it did not return within `seconds` (the
    /// thread is left blocked; the test's drain releases it).
    static func returns(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + seconds) == .success
    }
}

/// A FIFO whose reading end the test holds open and does not read.
final class StuckPipe: Sendable {
    let path: String
    let directory: String
    private let reader: Int32

    init(name: String) throws {
        directory = NSTemporaryDirectory() + "camcast-hung-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/" + name
        guard mkfifo(path, 0o644) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
        // Non-blocking, so the open does not wait for a writer and reads below never block.
        reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
    }

    /// Waits until the pipe is (nearly) full: the writer, with a megabyte to go, is blocked in
    /// write(2). Nearly: each small write (the FLV header, the metadata tag) takes a page of
    /// the pipe's own, so a full pipe may hold a few KiB less than its capacity.
    func waitUntilFull(seconds: Double) -> Bool {
        // F_GETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 8), which Glibc's Swift overlay does not export.
        let capacity = fcntl(reader, 1024 + 8)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var waiting: Int32 = 0
            if ioctl(reader, UInt(FIONREAD), &waiting) == 0, waiting >= capacity - (16 << 10) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Reads everything until every writer has closed the FIFO (end of file); false if that did
    /// not happen within `seconds`.
    func drainUntilClosed(seconds: Double) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var request = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            _ = poll(&request, 1, 100)
            let count = read(reader, &buffer, buffer.count)
            if count == 0 { return true }
        }
        return false
    }

    func remove() {
        close(reader)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
