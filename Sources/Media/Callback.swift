/// A closure to keep in a `Lock` and read out again (`lock.withLock { $0 }?.call(…)`): the form
/// every callback a stage sets for another takes.
///
/// Why not the bare closure type: `Mutex.withLock` hands its value to the body `inout sending`
/// through a generic, and a bare closure (or an optional one) stored there is written back
/// re-abstracted, wrapped in one more thunk at each read (Swift 6.3.1, debug and release alike).
/// Two 32-byte objects a read; and the call goes through every thunk, so after some 260,000
/// reads it overflows the stack. `TelemetryRegistry.report()` read two such closures for each
/// HTTP request: the per-request leak of issue 45 (found with heaptrack). A closure inside a
/// struct keeps its own abstraction: nothing is wrapped.
public struct Callback<Input, Output>: Sendable {
    public let call: @Sendable (Input) -> Output

    public init(_ call: @escaping @Sendable (Input) -> Output) {
        self.call = call
    }
}

extension Callback where Input == Void {
    public func callAsFunction() -> Output { call(()) }
}

extension Callback {
    public func callAsFunction(_ input: Input) -> Output { call(input) }
}
