import Testing

@testable import FLV

#if canImport(Glibc)
import Glibc
#endif

/// A failed file call says what the system says, not only a number (defect: "errno 30").
@Suite struct FLVErrorTests {
    @Test func anIOErrorSaysTheSystemsWords() {
        let error = FLVError.io(operation: "open", path: "/mnt/ro/cam.flv", errno: EROFS)
        #expect(error.description == "open failed on /mnt/ro/cam.flv: Read-only file system (errno 30)")
    }

    @Test func aFileThatCannotBeCreatedIsReportedWithTheSystemsWords() {
        #expect(throws: FLVError.io(operation: "open", path: "/nonexistent/dir/cam.flv", errno: ENOENT)) {
            try syscall("open", path: "/nonexistent/dir/cam.flv") { open("/nonexistent/dir/cam.flv", O_WRONLY | O_CREAT, 0o644) }
        }
    }
}
