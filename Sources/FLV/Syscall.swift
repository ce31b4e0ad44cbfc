import Media

/// Media's `SystemCall.run` (EINTR retried) with the failure as `FLVError.io`, which names the
/// file as well as the call.
func syscall<Result: BinaryInteger>(
    _ operation: String, path: String, _ body: () -> Result
) throws(FLVError) -> Result {
    do {
        return try SystemCall.run(operation, body)
    } catch {
        throw .io(operation: operation, path: path, errno: error.errno)
    }
}
