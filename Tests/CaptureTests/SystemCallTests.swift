import Capture
import Media
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The one EINTR-retrying syscall helper every module uses (Media's `SystemCall`).
@Suite struct SystemCallTests {
    @Test func aFailureNamesTheCallAndSaysTheSystemsWords() {
        #expect(throws: SystemCallError(call: "open", errno: ENOENT)) {
            try SystemCall.run("open") { open("/nonexistent/camcast", O_RDONLY) }
        }
        let error = SystemCallError(call: "open", errno: EROFS)
        #expect(error.message == "Read-only file system")
        #expect(error.description == "open failed: Read-only file system (errno 30)")
    }

    @Test func aCallInterruptedBySignalsIsRetriedUntilItSucceeds() throws {
        var calls = 0
        let result = try SystemCall.run("read") { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 42
        }
        #expect(result == 42)
        #expect(calls == 3)
    }

    @Test func writeAllWritesEveryByteThroughAPipe() throws {
        var fds: [Int32] = [0, 0]
        try SystemCall.run("pipe") { pipe(&fds) }
        defer { close(fds[0]) }
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        try SystemCall.writeAll(fds[1], bytes)
        close(fds[1])
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try SystemCall.run("read") { Glibc.read(fds[0], &buffer, buffer.count) }
            if count == 0 { break }
            read += buffer[..<count]
        }
        #expect(read == bytes)
    }

    /// Every error a user reads names the failure in the system's words, not only its number
    /// (defect: "errno 30").
    @Test func captureErrorsSayTheSystemsWords() {
        #expect(Y4MError.systemCallFailed(path: "/srv/a.y4m", call: "read", errno: EIO).description
            == "/srv/a.y4m: read failed: Input/output error (errno 5)")
        #expect(CaptureError.threadStartFailed(errno: EAGAIN).description
            == "could not start the capture thread: Resource temporarily unavailable (errno 11)")
    }
}
