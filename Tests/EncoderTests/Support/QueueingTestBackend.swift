@testable import Encoder
import Logging
import Synchronization

/// What a `QueueingTestBackend` saw, readable by the test while the session owns the backend.
final class QueueingBackendLog: Sendable {
    struct Counts {
        /// Sends refused with `.full`.
        var refusals = 0
        /// Backends the session opened (recovery opens another).
        var opened = 0
        /// The most pictures one receive burst (the receives between two sends) returned.
        var largestBurst = 0
        /// Every bitrate the backend was given, in order.
        var bitrates: [Int] = []
    }

    private let counts = Mutex(Counts())

    func update(_ body: (inout Counts) -> Void) { counts.withLock { body(&$0) } }
    var current: Counts { counts.withLock { $0 } }
}

/// A backend that behaves like an asynchronous hardware encoder (V4L2 mem2mem, VA-API) with
/// its buffer queues: it holds up to `capacity` pictures, refuses a send while it holds that many,
/// and finishes pictures only in batches of `batch` (or all it holds when a receive must wait: after
/// a refused send, or at the end), so they come back later and several at once.
///
/// Its "encoded" access units are fake H.264: one slice NAL (IDR when forced) carrying the PTS and
/// the first luma bytes it copied at send time, so a test can see each picture's identity and that
/// the borrowed planes were copied before `send` returned.
final class QueueingTestBackend: EncoderBackend {
    static let copiedLumaBytes = 8

    private struct Held {
        var pts: Int64
        var isKeyframe: Bool
        var luma: [UInt8]
    }

    private let capacity: Int
    private let batch: Int
    private let log: QueueingBackendLog
    /// Accepted pictures in send order; the first `finished` of them are done and may be received.
    private var held: [Held] = []
    private var finished = 0
    private var inputEnded = false
    /// A send was refused: the next receive waits for the hardware instead of saying "needs input".
    private var mustWait = false
    private var burst = 0

    init(capacity: Int, batch: Int, log: QueueingBackendLog) {
        self.capacity = capacity
        self.batch = batch
        self.log = log
        log.update { $0.opened += 1 }
    }

    convenience init(settings: EncoderSettings, logger: Logger) throws(EncoderError) {
        self.init(capacity: 4, batch: 2, log: QueueingBackendLog())
    }

    /// A session on this backend; recovery opens a fresh one with the same shape.
    static func session(
        _ settings: EncoderSettings, capacity: Int, batch: Int, log: QueueingBackendLog,
        output: @escaping @Sendable (EncodedPicture) -> Void
    ) throws -> EncoderSession {
        try EncoderSession(
            settings: settings, logger: Harness.quietLogger, recovery: EncoderRecoveryPolicy(attempts: 1, delay: .zero),
            backendOpener: { (_, _) throws(EncoderError) in QueueingTestBackend(capacity: capacity, batch: batch, log: log) },
            output: output)
    }

    func streamHeaders() throws(EncoderError) -> [[UInt8]] {
        [[0x67, 0x42, 0xc0, 0x1e], [0x68, 0xce, 0x3c, 0x80]]
    }

    func send(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderSendStatus {
        guard !inputEnded else { throw .closed }
        guard held.count < capacity else {
            log.update { $0.refusals += 1 }
            mustWait = true
            return .full
        }
        burst = 0
        let luma = Array(UnsafeBufferPointer(start: image.planes[0].base, count: Self.copiedLumaBytes))
        held.append(Held(pts: pts, isKeyframe: forceIDR, luma: luma))
        if held.count - finished >= batch { finished += batch }
        return .accepted
    }

    func sendEndOfStream() throws(EncoderError) {
        inputEnded = true
    }

    func receive() throws(EncoderError) -> EncoderReceiveStatus {
        if finished == 0 {
            // After a refused send (or at the end) a receive waits until the hardware finishes what
            // it holds; otherwise nothing is ready yet.
            guard mustWait || inputEnded else { return .needsInput }
            guard !held.isEmpty else { return .drained }
            finished = held.count
            mustWait = false
        }
        let picture = held.removeFirst()
        finished -= 1
        burst += 1
        log.update { $0.largestBurst = max($0.largestBurst, burst) }
        var payload = [picture.isKeyframe ? 0x65 : 0x41] as [UInt8]
        payload += (0..<8).map { UInt8(truncatingIfNeeded: picture.pts >> (56 - 8 * $0)) }
        payload += picture.luma
        return .picture(EncoderBackendOutput(units: [payload], isKeyframe: picture.isKeyframe, pts: picture.pts, dts: picture.pts))
    }

    func reconfigure(bitrateKbps: Int) throws(EncoderError) {
        log.update { $0.bitrates.append(bitrateKbps) }
    }

    /// The PTS and luma bytes a picture of this backend carries.
    static func identity(of picture: EncodedPicture) -> (pts: Int64, luma: [UInt8])? {
        guard let unit = picture.units.first, unit.count == 1 + 8 + copiedLumaBytes else { return nil }
        let pts = unit[1..<9].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return (pts, Array(unit[9...]))
    }
}
