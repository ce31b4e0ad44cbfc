@testable import CamcastDaemon
@testable import Capture
import Foundation
import Media
import Synchronization
import Testing
import TestSupport

/// /snapshot.jpg is the picture as it was encoded, overlay included. An owned frame's array is the
/// source's own buffer (a y4m clip's, the test pattern's): after the encode the overlay puts the
/// bytes under its text back into it, in place, and the source reads its next picture into it. The
/// picture the tap keeps must not change with it.
@Suite struct SnapshotTapTests {
    @Test func theKeptPictureIsNotChangedByWritesIntoTheSourcesBufferAfterTheEncode() throws {
        let width = 64, height = 32
        let layout = VideoFrame.i420Planes(width: width, height: height)
        let tap = SnapshotTap()
        let jpeg = SharedLock<[UInt8]?>(nil)
        let answered = Atomic<Bool>(false)
        // A request waits (up to 1 s) on its own thread for the capture thread's next frame.
        Thread.detachNewThread {
            let made = tap.jpeg()
            jpeg.withLock { $0 = made }
            answered.store(true, ordering: .releasing)
        }
        var sequence: UInt64 = 0
        while !answered.load(ordering: .acquiring), sequence < 1000 {
            // Light grey as encoded; then, as the overlay's restore does, the same array is written
            // in place (here: black), before the requesting thread has encoded it.
            let frame = VideoFrame(
                width: width, height: height, pixelFormat: .i420, planes: layout.planes,
                bytes: [UInt8](repeating: 200, count: layout.byteCount), timestamp: MonotonicTime.now(), sequence: sequence)
            tap.offer(frame)
            _ = frame.withBytesInPlace { $0.initializeMemory(as: UInt8.self, repeating: 16) }
            sequence += 1
            usleep(2000)
        }
        let image = try #require(jpeg.withLock { $0 }, "no snapshot after \(sequence) frames")
        let decoder = try #require(MJPEGDecoder())
        var picture = [UInt8](repeating: 0, count: MJPEGDecoder.nv12ByteCount(width: width, height: height))
        try image.withUnsafeBytes { image in
            try picture.withUnsafeMutableBufferPointer { try decoder.decodeNV12(image, width: width, height: height, into: $0) }
        }
        let luma = picture.prefix(width * height)
        let mean = luma.reduce(0) { $0 + Int($1) } / luma.count
        // Light grey (200 limited range; the JPEG's range conversion moves it by ~12), not the
        // black written into the array after the offer.
        #expect(mean > 150, "the snapshot's luma is \(mean): not the picture offered (200) but what was written after it")
    }
}
