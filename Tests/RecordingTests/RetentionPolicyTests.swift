import Testing

@testable import Recording

/// Retention decided over an index with clocks the test sets: a wall clock that jumps (NTP after
/// boot on a box without a real-time clock) does not make this boot's fresh files look old.
@Suite struct RetentionPolicyTests {
    static let naming = SegmentNaming(pattern: RecordingSettings.defaultNamePattern)

    static func clock(wall: Int, boot: Int64, id: String = "boot-a") -> RecordingClock {
        RecordingClock(wallSeconds: { wall }, bootMilliseconds: { boot }, bootID: id)
    }

    static func index(_ entries: [RecordingIndex.Entry]) -> RecordingIndex {
        var index = RecordingIndex(directory: "/nonexistent")
        for entry in entries { index.append(entry) }
        return index
    }

    static func entry(_ second: Int, bytes: Int64 = 100, wallEnd: Int, bootID: String = "boot-a", bootEnd: Int64) -> RecordingIndex.Entry {
        .init(name: "2026-11-26/04-00-\(second < 10 ? "0" : "")\(second)+0000.mp4", bytes: bytes, wallEnd: wallEnd, bootID: bootID, bootEnd: bootEnd)
    }

    @Test func aWallClockJumpDeletesNoFreshFileOfThisBoot() {
        let policy = RetentionPolicy(maxAgeSeconds: 3600, naming: Self.naming)
        // Written at boot+10 s with the wall clock at 1970; NTP then set it to 2026.
        var index = Self.index([Self.entry(1, wallEnd: 10, bootEnd: 10_000)])
        var deleted: [String] = []
        _ = policy.sweep(&index, inProgressBytes: 0, clock: Self.clock(wall: 1_790_000_000, boot: 70_000), freeBytes: { nil }) {
            deleted.append($0)
            return true
        }
        #expect(deleted.isEmpty)
        // An hour and more of boot time later it goes.
        _ = policy.sweep(&index, inProgressBytes: 0, clock: Self.clock(wall: 1_790_000_000, boot: 3_700_000), freeBytes: { nil }) {
            deleted.append($0)
            return true
        }
        #expect(deleted.count == 1)
    }

    @Test func filesOfAnEarlierBootAgeByTheWallClockAndNeverNegatively() {
        let policy = RetentionPolicy(maxAgeSeconds: 3600, naming: Self.naming)
        var index = Self.index([
            Self.entry(1, wallEnd: 1_000, bootID: "old", bootEnd: 5), Self.entry(2, wallEnd: 9_000, bootID: "old", bootEnd: 9),
        ])
        let deleted = policy.sweep(&index, inProgressBytes: 0, clock: Self.clock(wall: 5_000, boot: 1), freeBytes: { nil }) { _ in true }
        #expect(deleted == [Self.entry(1, wallEnd: 0, bootEnd: 0).name])
        #expect(index.entries.count == 1)
    }

    @Test func maxBytesDeletesOldestFirstCountingTheSegmentInProgress() {
        let policy = RetentionPolicy(maxBytes: 350, naming: Self.naming)
        var index = Self.index((1...5).map { Self.entry($0, wallEnd: 0, bootEnd: 0) })
        let deleted = policy.sweep(&index, inProgressBytes: 100, clock: Self.clock(wall: 0, boot: 0), freeBytes: { nil }) { _ in true }
        #expect(deleted == (1...3).map { Self.entry($0, wallEnd: 0, bootEnd: 0).name })
        #expect(index.totalBytes == 200)
    }

    @Test func aNameThePatternCannotMakeIsForgottenNotDeleted() {
        let policy = RetentionPolicy(maxBytes: 0, naming: Self.naming)
        var index = Self.index([.init(name: "holiday.mp4", bytes: 100, wallEnd: 0, bootID: "", bootEnd: 0)])
        let deleted = policy.sweep(&index, inProgressBytes: 0, clock: Self.clock(wall: 0, boot: 0), freeBytes: { nil }) { _ in
            Issue.record("must not delete")
            return true
        }
        #expect(deleted.isEmpty && index.entries.isEmpty)
    }
}
