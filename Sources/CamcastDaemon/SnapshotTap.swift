import Capture
import Media
import Synchronization

/// `/snapshot.jpg`: the latest picture the encoder got, as JPEG, made on request.
///
/// The frame path pays only when a snapshot is wanted: `offer` is one atomic load per frame, and
/// copies one picture (a camera's borrowed buffer must go back to the driver, a file's buffer is
/// read into again) only after a request asked for it. The JPEG is made on the requesting thread
/// (the HTTP server's worker pool), at most once a second whatever the request rate: requests
/// within a second of the last encode get the same bytes, and requests that arrive while one is
/// waiting for its picture wait for that one's JPEG instead of asking for another. No lock of the
/// capture or encode path is taken, and none is held while a request waits or encodes.
final class SnapshotTap: @unchecked Sendable {
    // @unchecked: `kept`, `cached`, `isAsking`, `roundsDone` and `waitingRequests` are read and
    // written only while `condition` is locked.
    /// The requests' wait for the capture thread's next picture, and for another request's JPEG:
    /// the state they wait on is below. Its mutex is held only to read or change it, never across
    /// a wait (a condition wait gives it back) nor an encode.
    private let condition = ConditionLock()
    /// The picture the capture thread left for the request that asks.
    private var kept: VideoFrame?
    /// The last JPEG and when it was made.
    private var cached: (jpeg: [UInt8], made: MonotonicTime)?
    /// Whether a request is asking the capture thread for a picture and encoding it now: the one
    /// that does; every other request waits for its result (one encode for all of them).
    private var isAsking = false
    /// Requests that asked so far, finished; a waiting request's cue that its round is over.
    private var roundsDone = 0
    /// Requests waiting now (for a picture or for another's JPEG), for tests.
    private var waitingRequests = 0
    /// Until when (monotonic ns) the frame path should keep a picture for the asking request.
    private let wantedUntil = Atomic<UInt64>(0)
    /// Encodes so far (for tests and the rate check).
    let encodes = Atomic<Int>(0)
    /// How long a request waits for the capture thread's next picture (a stalled or stopping
    /// pipeline gives none): then the last JPEG, if any, is the answer.
    let waitForFrameNanoseconds: Int64

    static let minimumIntervalNanoseconds: Int64 = 1_000_000_000

    init(waitForFrameNanoseconds: Int64 = 1_000_000_000) {
        self.waitForFrameNanoseconds = waitForFrameNanoseconds
    }

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
        condition.withLock {
            kept = copy
            condition.broadcast()
        }
    }

    /// The JPEG of a picture at most about a second old; nil while no picture came.
    func jpeg() -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        let now = MonotonicTime.now()
        if let cached, now.nanoseconds(since: cached.made) < Self.minimumIntervalNanoseconds {
            return cached.jpeg
        }
        waitingRequests += 1
        if isAsking {
            // Another request is getting a picture: its JPEG is this one's too.
            let round = roundsDone
            while roundsDone == round { condition.wait() }
            waitingRequests -= 1
            return cached?.jpeg
        }
        isAsking = true
        kept = nil
        let deadline = now.adding(nanoseconds: UInt64(waitForFrameNanoseconds))
        wantedUntil.store(deadline.nanoseconds, ordering: .relaxed)
        while kept == nil, condition.wait(until: deadline) {}
        wantedUntil.store(0, ordering: .relaxed)
        waitingRequests -= 1
        let frame = kept
        kept = nil
        // The encode (milliseconds) without the mutex: the capture thread's next offer and other
        // requests' look at the cache never wait for it.
        condition.unlock()
        let jpeg = frame.flatMap { SnapshotJPEG.encode($0) }
        condition.lock()
        if let jpeg {
            encodes.add(1, ordering: .relaxed)
            cached = (jpeg, MonotonicTime.now())
        }
        isAsking = false
        roundsDone += 1
        condition.broadcast()
        // No new picture (the pipeline is stalled or stopping): the last one, if any.
        return cached?.jpeg
    }

    /// Requests waiting now, for a picture or for another request's JPEG (tests).
    var requestsWaiting: Int { condition.withLock { waitingRequests } }

    /// Whether a request has asked the capture thread for a picture and not had it yet (tests).
    var isWaitingForPicture: Bool { wantedUntil.load(ordering: .relaxed) != 0 }
}
