#if canImport(Glibc)
import Glibc
#endif

/// The one place that runs a system call: retries EINTR (a signal is not a failure) and turns -1
/// into a `SystemCallError` naming the call, as swift-nio's `syscall(blocking:)` does.
enum SystemCall {
    @discardableResult
    static func run(_ call: @autoclosure () -> String, _ body: () -> Int32) throws(SystemCallError) -> Int32 {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw SystemCallError(call: call(), errno: code)
        }
    }
}
