import Media
import Synchronization
import Testing

@testable import Conversion

/// The conversion stage's lock-free pool of spare pictures (issue 26: no lock take per frame).
@Suite struct PictureBufferPoolTests {
    /// Which buffers the tasks hold, and how often one was taken while another task held it.
    final class Ledger: Sendable {
        let inUse = Mutex<Set<ObjectIdentifier>>([])
        let shared = Atomic<Int>(0)
    }

    @Test("a buffer given back is the one taken next for its format and size; another size is not")
    func reusesWhatFits() {
        let pool = PictureBufferPool(capacity: 4)
        let buffer = PictureBuffer(.nv12, width: 64, height: 36)
        pool.giveBack(buffer)
        #expect(pool.take(.i420, width: 64, height: 36) == nil)
        #expect(pool.take(.nv12, width: 32, height: 18) == nil)
        #expect(pool.take(.nv12, width: 64, height: 36) === buffer)
        #expect(pool.take(.nv12, width: 64, height: 36) == nil)
    }

    @Test("a full pool keeps the newest buffer, and all but one of the others")
    func fullPoolDropsOne() {
        let pool = PictureBufferPool(capacity: 2)
        let buffers = (1...3).map { PictureBuffer(.i420, width: 16 * $0, height: 16) }
        for buffer in buffers { pool.giveBack(buffer) }
        let kept = (1...3).compactMap { pool.take(.i420, width: 16 * $0, height: 16) }
        #expect(kept.count == 2)
        #expect(kept.contains { $0 === buffers[2] })
    }

    @Test("threads taking and giving back at once never hold the same buffer")
    func concurrentTakesNeverShare() async {
        let pool = PictureBufferPool(capacity: 4)
        let ledger = Ledger()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        let buffer = pool.take(.i420, width: 16, height: 16) ?? PictureBuffer(.i420, width: 16, height: 16)
                        let id = ObjectIdentifier(buffer)
                        if !ledger.inUse.withLock({ $0.insert(id).inserted }) { ledger.shared.add(1, ordering: .relaxed) }
                        await Task.yield()
                        ledger.inUse.withLock { _ = $0.remove(id) }
                        pool.giveBack(buffer)
                    }
                }
            }
        }
        #expect(ledger.shared.load(ordering: .relaxed) == 0)
    }
}
