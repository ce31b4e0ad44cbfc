#if canImport(Glibc)
import Glibc
#endif
import Capture
import Media
import Synchronization

/// `/snapshot.jpg`: the latest picture the encoder got, as JPEG, made on request.
///
/// The frame path pays only when a snapshot is wanted: `offer` is one atomic load per frame, and
/// copies one picture (a camera's borrowed buffer must go back to the driver, a file's buffer is
/// read into again) only after a request asked for it. The JPEG is made on the requesting thread (the HTTP server's worker pool), at most
/// once a second whatever the request rate: requests within a second of the last encode get the
/// same bytes. No lock of the capture or encode path is taken.
final class SnapshotTap: Sendable {
    /// Until when (monotonic ns) the frame path should keep a picture for a waiting request.
    private let wantedUntil = Atomic<UInt64>(0)
    private let kept = Lock<VideoFrame?>(nil)
    /// The last JPEG and when it was made; also serialises encodes.
    private let cache = Lock<(jpeg: [UInt8], made: MonotonicTime)?>(nil)
    /// Encodes so far (for tests and the rate check).
    let encodes = Atomic<Int>(0)

    static let minimumIntervalNanoseconds: Int64 = 1_000_000_000
    static let waitForFrameNanoseconds: Int64 = 1_000_000_000

    /// On the capture thread, after the frame went to the encoder.
    func offer(_ frame: VideoFrame) {
        let until = wantedUntil.load(ordering: .relaxed)
        guard until != 0, MonotonicTime.now().nanoseconds < until else { return }
        wantedUntil.store(0, ordering: .relaxed)
        // A copy of its own even of an owned frame (`owned()` would share the array): that array is
        // the source's buffer (a y4m clip's, the test pattern's), which the overlay puts its bytes
        // back into after this returns and the source reads the next picture into, while the
        // requesting thread is encoding the JPEG.
        let copy = VideoFrame(
            width: frame.width, height: frame.height, pixelFormat: frame.pixelFormat, planes: frame.planes,
            bytes: frame.withUnsafeBytes { Array($0) }, timestamp: frame.timestamp, sequence: frame.sequence)
        kept.withLock { $0 = copy }
    }

    /// The JPEG of a picture at most about a second old; nil while no picture came.
    func jpeg() -> [UInt8]? {
        cache.withLock { cache -> [UInt8]? in
            let now = MonotonicTime.now()
            if let cached = cache, now.nanoseconds(since: cached.made) < Self.minimumIntervalNanoseconds {
                return cached.jpeg
            }
            kept.withLock { $0 = nil }
            wantedUntil.store(now.nanoseconds + UInt64(Self.waitForFrameNanoseconds), ordering: .relaxed)
            var frame: VideoFrame?
            while frame == nil, MonotonicTime.now().nanoseconds(since: now) < Self.waitForFrameNanoseconds {
                frame = kept.withLock { kept in
                    defer { kept = nil }
                    return kept
                }
                if frame == nil { usleepMilliseconds(5) }
            }
            wantedUntil.store(0, ordering: .relaxed)
            // No new picture (the pipeline is stalled or stopping): the last one, if any.
            guard let frame, let jpeg = SnapshotJPEG.encode(frame) else { return cache?.jpeg }
            encodes.add(1, ordering: .relaxed)
            cache = (jpeg, MonotonicTime.now())
            return jpeg
        }
    }

    private func usleepMilliseconds(_ milliseconds: UInt32) {
        var request = timespec(tv_sec: 0, tv_nsec: Int(milliseconds) * 1_000_000)
        nanosleep(&request, nil)
    }
}
