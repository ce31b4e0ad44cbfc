import Media
import Testing

/// Owned and borrowed pixels: what a frame lets a consumer read, and what it lets it keep.
@Suite struct VideoFrameTests {
    static let layout = VideoFrame.i420Planes(width: 4, height: 2)

    static func frame(owning bytes: [UInt8]) -> VideoFrame {
        VideoFrame(
            width: 4, height: 2, pixelFormat: .i420, planes: layout.planes, bytes: bytes,
            timestamp: MonotonicTime(nanoseconds: 7), sequence: 3)
    }

    static func frame(borrowing lent: BorrowedPixels) -> VideoFrame {
        VideoFrame(
            width: 4, height: 2, pixelFormat: .i420, planes: layout.planes, borrowing: lent,
            timestamp: MonotonicTime(nanoseconds: 7), sequence: 3)
    }

    /// A stand-in for a driver's buffer: memory the frame does not own, filled with 1, 2, 3, …
    static func withBuffer(_ body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.byteCount, alignment: 16)
        defer { buffer.deallocate() }
        for index in buffer.indices { buffer[index] = UInt8(index + 1) }
        try body(buffer)
    }

    @Test func anOwnedFrameIsAlreadyOwnedAndKeepsItsArray() {
        let bytes: [UInt8] = Array(1...12)
        let frame = Self.frame(owning: bytes)
        #expect(!frame.isBorrowed)
        #expect(frame.byteCount == 12)
        #expect(frame.withUnsafeBytes { Array($0) } == bytes)
        let kept = frame.owned()
        #expect(!kept.isBorrowed && kept.copiedBytes() == bytes)
        #expect(kept.timestamp == frame.timestamp && kept.sequence == 3 && kept.planes == frame.planes)
    }

    /// No copy: the frame reads the lent memory itself, so a change there shows through.
    @Test func aBorrowedFrameReadsTheLentMemoryInPlace() {
        Self.withBuffer { buffer in
            let lent = BorrowedPixels(UnsafeRawBufferPointer(buffer))
            let frame = Self.frame(borrowing: lent)
            #expect(frame.isBorrowed)
            #expect(frame.byteCount == 12)
            #expect(frame.withUnsafeBytes { $0.baseAddress } == UnsafeRawPointer(buffer.baseAddress))
            buffer[0] = 99
            #expect(frame.withUnsafeBytes { $0[0] } == 99)
            lent.endLoan()
        }
    }

    /// What a consumer that keeps a frame does: the copy has the bytes as they were delivered,
    /// survives the loan, and does not see the buffer being refilled.
    @Test func theOwnedCopyOfABorrowedFrameOutlivesTheLoan() throws {
        var kept: VideoFrame?
        Self.withBuffer { buffer in
            let lent = BorrowedPixels(UnsafeRawBufferPointer(buffer))
            kept = Self.frame(borrowing: lent).owned()
            lent.endLoan()
            buffer.initializeMemory(as: UInt8.self, repeating: 0)  // the driver refills the buffer
        }
        let frame = try #require(kept)
        #expect(!frame.isBorrowed)
        #expect(frame.copiedBytes() == Array(1...12))
        #expect(frame.width == 4 && frame.height == 2 && frame.pixelFormat == .i420 && frame.planes == Self.layout.planes)
        #expect(frame.timestamp == MonotonicTime(nanoseconds: 7) && frame.sequence == 3)
    }

    @Test func copiedBytesOfABorrowedFrameAreACopy() {
        Self.withBuffer { buffer in
            let lent = BorrowedPixels(UnsafeRawBufferPointer(buffer))
            let copy = Self.frame(borrowing: lent).copiedBytes()
            buffer[0] = 99
            #expect(copy == Array(1...12))
            lent.endLoan()
        }
    }

    /// A consumer that kept the borrowed frame itself, instead of `owned()`, fails loudly at its
    /// first read rather than encoding a buffer the driver is refilling.
    @Test func readingABorrowedFrameAfterTheLoanEndedTraps() async {
        await #expect(processExitsWith: .failure) {
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 12, alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: 1)
            let lent = BorrowedPixels(UnsafeRawBufferPointer(memory))
            let frame = VideoFrameTests.frame(borrowing: lent)
            lent.endLoan()
            _ = frame.withUnsafeBytes { $0[0] }
        }
    }

    /// The check above is the loan, not the reading: the same read during the loan succeeds.
    @Test func readingDuringTheLoanDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 12, alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: 1)
            let lent = BorrowedPixels(UnsafeRawBufferPointer(memory))
            let frame = VideoFrameTests.frame(borrowing: lent)
            _ = frame.withUnsafeBytes { $0[0] }
            lent.endLoan()
        }
    }
}
