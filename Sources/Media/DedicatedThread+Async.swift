extension DedicatedThread {
    /// Runs `body` on a thread of its own and resumes with its result (or its error): the one way
    /// Camcast leaves Swift's cooperative pool for work that blocks (opening x264, ALSA or a
    /// camera, connecting, joins, drains, flushes). The pool has about one thread per core, and
    /// signals, the status line and the watchdog run on it; a blocking call there stalls them
    /// until libdispatch notices and adds a thread, if it does. The thread is named `offload` in
    /// the kernel (`ps -L`), so a stuck one is told from the stages'.
    public static func run<Result: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = await withCheckedContinuation { continuation in
            do {
                let thread = try DedicatedThread(name: "offload") { continuation.resume(returning: Swift.Result(catching: body)) }
                thread.detach()
            } catch {
                // Out of threads: do it here rather than not at all.
                continuation.resume(returning: Swift.Result(catching: body))
            }
        }
        return try outcome.get()
    }
}
