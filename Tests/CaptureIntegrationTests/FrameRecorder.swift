import Capture
import Media
import Synchronization

/// Collects what a source delivers: each frame's facts, the source's state when it arrived and a
/// checksum of its bytes, read while `deliver` runs, as a borrowed frame must be (keeping every
/// picture would cost tens of MB per test).
final class FrameRecorder: Sendable {
    struct Entry: Sendable {
        var timestamp: MonotonicTime
        var sequence: UInt64
        var width: Int
        var height: Int
        var pixelFormat: PixelFormat
        var planes: [VideoPlane]
        var byteCount: Int
        var checksum: UInt64
        /// Delivered straight from the driver's buffer rather than from bytes of its own.
        var isBorrowed: Bool
        var state: V4L2CaptureState
    }

    private let entries = Mutex<[Entry]>([])

    var all: [Entry] { entries.withLock { $0 } }
    var count: Int { entries.withLock { $0.count } }

    func record(_ frame: VideoFrame, state: V4L2CaptureState) {
        // FNV-1a over a sparse sample: enough to tell pictures apart, cheap under emulation.
        let hash = frame.withUnsafeBytes { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for index in stride(from: 0, to: bytes.count, by: 61) {
                hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3
            }
            return hash
        }
        let entry = Entry(
            timestamp: frame.timestamp, sequence: frame.sequence, width: frame.width, height: frame.height,
            pixelFormat: frame.pixelFormat, planes: frame.planes, byteCount: frame.byteCount, checksum: hash,
            isBorrowed: frame.isBorrowed, state: state)
        entries.withLock { $0.append(entry) }
    }

    /// Waits (polling) until `condition` holds, up to `seconds`; false on timeout.
    func wait(seconds: Double, until condition: () -> Bool) async throws -> Bool {
        let deadline = MonotonicTime.now().adding(nanoseconds: UInt64(seconds * 1e9))
        while !condition() {
            if MonotonicTime.now() > deadline { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
