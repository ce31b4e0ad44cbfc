import Media
import Testing

/// A callback read out of a `Lock` again and again comes out as it went in (issue 45: a bare
/// closure there was wrapped in two more thunks at each read, 64 bytes kept a read).
@Suite struct CallbackTests {
    final class Holder: Sendable {
        let callback = Lock<Callback<Int, Int>?>(nil)
    }

    /// A Swift closure is two words, its function and its context: a closure that a read wrapped
    /// has another function (the thunk) and another context (the thunk's box) at every read.
    /// Read through the generic parameters the callback stores it with: taking `call` out as a
    /// concrete `(Int) -> Int` re-abstracts it into a fresh thunk box at each access, whose
    /// address matches the last one's only when malloc happens to reuse it (CI of 1d79fe3).
    static func words<Input, Output>(_ callback: Callback<Input, Output>) -> [Int] {
        let pair = unsafeBitCast(callback.call, to: (Int, Int).self)
        return [pair.0, pair.1]
    }

    @Test func aCallbackReadOutOfALockIsTheOneStoredNotAWrapper() throws {
        let holder = Holder()
        let offset = Int.random(in: 1...9)
        let stored = Callback<Int, Int> { $0 + offset }
        holder.callback.withLock { $0 = stored }
        var sum = 0
        for value in 0..<1_000 {
            let read = try #require(holder.callback.withLock { $0 })
            sum += read(value)
            #expect(Self.words(read) == Self.words(stored), "read \(value) came out wrapped")
            if Self.words(read) != Self.words(stored) { break }
        }
        #expect(sum == (0..<1_000).reduce(0, +) + 1_000 * offset)
    }
}
