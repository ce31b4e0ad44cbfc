@testable import Encoder
import Testing

/// libav*'s lines reach the log at most `burst` per window: an encoder that complains at every
/// frame costs 20 lines per 10 s and a count, not 30 lines a second.
@Suite struct LibavLogBudgetTests {
    @Test func aBurstGoesThroughThenLinesAreCountedAndTheCountComesWithTheNextWindow() {
        var budget = LibavLog.LineBudget(burst: 3, window: 10_000)
        // 30 lines a millisecond apart in one window: the first three, then none.
        let admitted = (0..<30).map { budget.admit(at: 1_000 + UInt64($0)) }
        #expect(admitted.prefix(3) == [0, 0, 0])
        #expect(admitted.dropFirst(3).allSatisfy { $0 == nil })
        // The next window lets the next line through with the 27 held back, then counts afresh.
        #expect(budget.admit(at: 11_000) == 27)
        #expect(budget.admit(at: 11_001) == 0)
    }

    @Test func theDaemonsBudgetIsTwentyLinesEveryTenSeconds() {
        #expect(LibavLog.burst == 20 && LibavLog.window == 10_000_000_000)
    }
}
