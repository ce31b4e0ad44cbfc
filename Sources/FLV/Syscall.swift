// Linux only, like the daemon: Glibc for open/read/write/pwrite/close.
import Glibc

/// Runs a system call, retrying on EINTR, and turns a −1 result into `FLVError.io` carrying the
/// call's name, the file's path and errno.
func syscall<Result: BinaryInteger>(
    _ operation: String, path: String, _ body: () -> Result
) throws(FLVError) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        throw .io(operation: operation, path: path, errno: code)
    }
}
