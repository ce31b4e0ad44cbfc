import Media
import Synchronization
import TestSupport
import Testing

@testable import Conversion

/// A picture buffer belongs to the thread that made it or last took it from the pool (issue 39
/// #6): debug builds check every use of its memory.
@Suite struct PictureBufferConfinementTests {
    #if DEBUG
    @Test("a buffer used off the thread that took it fails the debug check; on it, and after a take hands it over, it passes")
    func aBufferBelongsToItsTaker() throws {
        let pool = PictureBufferPool(capacity: 2)
        let caught = CaughtFailures()
        let made = Mutex<PictureBuffer?>(nil)
        let converter = try DedicatedThread {
            let buffer = PictureBuffer(.i420, width: 32, height: 18)
            buffer.confinement.check.catchFailures { caught.add($0) }
            _ = buffer.plane(0)
            buffer.paintedGeometry = nil
            made.withLock { $0 = buffer }
        }
        converter.join()
        let buffer = try #require(made.withLock { $0 })
        #expect(caught.all.isEmpty)

        // Another thread writing into it while its owner may still be converting.
        _ = buffer.plane(1)
        #expect(caught.all == ["a picture buffer's plane ran off the picture buffer's taker's thread"])

        // Given back and taken again here: this thread's now.
        pool.giveBack(buffer)
        let taken = try #require(pool.take(.i420, width: 32, height: 18))
        _ = taken.source(2)
        _ = taken.paintedGeometry
        #expect(caught.all.count == 1)
    }
    #endif
}
