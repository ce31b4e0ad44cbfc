#if canImport(Glibc)
import Glibc
#endif
import Logging
import Media
import Synchronization
import TestSupport
import Testing

@testable import Encoder

/// The encoder as a stage of its own: its thread alone calls the backend, a full queue drops
/// rather than makes the source wait, a codec switch comes through the queue (issue 39).
@Suite struct EncoderStageTests {
    static func frame(_ index: Int) -> VideoFrame {
        TestFrames.frame(.i420, width: 320, height: 180, index: index).frame
    }

    /// Pictures as they come out of the stage's thread, for a test to wait on (no polling).
    final class Delivered: Sendable {
        let queue = StageQueue<EncodedPicture>(capacity: 1000)
        func add(_ picture: EncodedPicture) { queue.push(picture, whenFull: .exceed) }
        func next() -> EncodedPicture? { queue.pop() }
        func rest() -> [EncodedPicture] {
            queue.close()
            var all: [EncodedPicture] = []
            while let picture = queue.pop() { all.append(picture) }
            return all
        }
    }

    #if DEBUG
    @Test("a backend call from another thread than the stage's fails the debug check; the stage's own pass")
    func backendCallsOffTheStageThreadAreCaughtFailures() throws {
        let delivered = Delivered()
        let log = QueueingBackendLog()
        let session = try QueueingTestBackend.session(Harness.settings(), capacity: 4, batch: 1, log: log) { delivered.add($0) }
        let caught = CaughtFailures()
        session.confinement.check.catchFailures { caught.add($0) }
        let stage = EncoderStage(session: session, upstream: .flatOut, logger: Harness.quietLogger, failed: { _ in })
        try stage.start()
        #expect(stage.offer(Self.frame(0)))
        // Out on the stage's thread, which bound the session before it.
        #expect(delivered.next() != nil)
        #expect(caught.all.isEmpty, "\(caught.all)")

        // What the pipeline's capture thread did before the stage existed: encode itself.
        try session.encode(Self.frame(1))
        #expect(caught.all == ["an encoder backend's send ran off the encoder stage's thread"])
        try stage.finish()
        // The flush ran on the stage's thread: nothing more was caught.
        #expect(caught.all.count == 1)
    }

    @Test("handing a picture over with a lock held fails the debug check; without one it passes")
    func handOffWithALockHeldIsCaughtFailures() throws {
        let session = try QueueingTestBackend.session(Harness.settings(), capacity: 4, batch: 1, log: QueueingBackendLog()) { _ in }
        let stage = EncoderStage(session: session, upstream: .flatOut, logger: Harness.quietLogger, failed: { _ in })
        let caught = CaughtFailures()
        stage.handOffCheck.catchFailures { caught.add($0) }
        try stage.start()
        let held = Lock(0)
        held.withLock { _ in _ = stage.offer(Self.frame(0)) }
        #expect(caught.all == ["a push into a stage queue with 1 lock(s) held by the pushing thread"])
        _ = stage.offer(Self.frame(1))
        #expect(caught.all.count == 1)
        try stage.finish()
    }
    #endif

    /// A stage fed by a live source whose thread is stuck in the backend's first send (picture 0's)
    /// until the test signals `gate.release`; its pictures go to `delivered`.
    static func stalledLiveStage(delivering delivered: Delivered) throws -> (EncoderStage, BlockingFirstSend) {
        let gate = BlockingFirstSend()
        let session = try EncoderSession(
            settings: Harness.settings(), logger: Harness.quietLogger, recovery: .standard,
            backendOpener: { (_, _) throws(EncoderError) in gate.wrapping(QueueingTestBackend(capacity: 4, batch: 1, log: QueueingBackendLog())) },
            output: { delivered.add($0) })
        let stage = EncoderStage(session: session, upstream: .live, logger: Harness.quietLogger, failed: { _ in })
        try stage.start()
        #expect(stage.offer(Self.frame(0)))
        gate.sending.wait()
        return (stage, gate)
    }

    @Test("a full queue refuses a live source's picture at once; the waiting ones are encoded")
    func aFullQueueDropsInsteadOfWaiting() throws {
        let delivered = Delivered()
        let (stage, gate) = try Self.stalledLiveStage(delivering: delivered)
        let taken = (1...6).map { stage.offer(Self.frame($0)) }
        #expect(taken == [true, true, false, false, false, false], "the queue holds \(EncoderStage.queueDepth)")
        gate.release.signal()
        try stage.finish()
        let pts = delivered.rest().compactMap { QueueingTestBackend.identity(of: $0)?.pts }
        #expect(pts == [0, 1, 2].map { Self.frame($0).timestamp.milliseconds })
    }

    @Test("a full queue drops a live source's captured picture; its placeholder and every picture of a file played flat out wait for room")
    func whatAFullQueueDoesIsThePicturesKind() {
        var placeholder = Self.frame(1)
        placeholder.isPlaceholder = true
        #expect(EncoderStage.whenFull(for: Self.frame(0), from: .live) == .drop)
        #expect(EncoderStage.whenFull(for: placeholder, from: .live) == .wait)
        #expect(EncoderStage.whenFull(for: Self.frame(0), from: .flatOut) == .wait)
        #expect(EncoderStage.whenFull(for: placeholder, from: .flatOut) == .wait)
    }

    @Test("a camera's burst of backfilled placeholders meets an encoder stalled with a full queue: each waits for room, none is dropped, all in order after the queued ones")
    func backfilledPlaceholdersWaitForAStalledEncoder() throws {
        let delivered = Delivered()
        let (stage, gate) = try Self.stalledLiveStage(delivering: delivered)
        // The encoder is stuck in picture 0's send; 1 and 2 fill the queue, live 3 is dropped.
        #expect([1, 2, 3].map { stage.offer(Self.frame($0)) } == [true, true, false])
        // The camera came back after an outage the loop noticed late: slots 4...8 go out at once,
        // each stamped at its own (past) instant, as V4L2CaptureLoop's backfill sends them.
        let burst = (4...8).map { index in
            var placeholder = Self.frame(index)
            placeholder.isPlaceholder = true
            return placeholder
        }
        let taken = Mutex<[Bool]>([])
        let capture = try DedicatedThread {
            for placeholder in burst {
                let accepted = stage.offer(placeholder)
                taken.withLock { $0.append(accepted) }
            }
        }
        // The first of them waits for room while the encoder is still stalled: not dropped. (A
        // drop would return at once, and nothing would ever wait: the bound is only for that.)
        let deadline = MonotonicTime.now().adding(nanoseconds: 10_000_000_000)
        while stage.waitingForRoom == 0, MonotonicTime.now() < deadline { usleep(1_000) }
        #expect(stage.waitingForRoom == 1, "a placeholder offered to a full queue waits")
        #expect(taken.withLock { $0 }.isEmpty, "nothing of the burst went in while the encoder was stalled")
        gate.release.signal()
        capture.join()
        try stage.finish()
        #expect(taken.withLock { $0 } == [true, true, true, true, true])
        let pts = delivered.rest().compactMap { QueueingTestBackend.identity(of: $0)?.pts }
        #expect(pts == [0, 1, 2, 4, 5, 6, 7, 8].map { Self.frame($0).timestamp.milliseconds })
    }

    @Test("a codec switch comes through the queue: the old session's pictures all go out first, the new one starts with an IDR")
    func aSwitchComesThroughTheQueue() throws {
        let delivered = Delivered()
        let old = try QueueingTestBackend.session(Harness.settings(), capacity: 4, batch: 2, log: QueueingBackendLog()) { delivered.add($0) }
        let new = try QueueingTestBackend.session(Harness.settings(), capacity: 4, batch: 2, log: QueueingBackendLog()) { delivered.add($0) }
        let stage = EncoderStage(session: old, upstream: .flatOut, logger: Harness.quietLogger, failed: { _ in })
        try stage.start()
        for index in 0..<3 { #expect(stage.offer(Self.frame(index))) }
        stage.replace(with: new)
        #expect(stage.session === new)
        #expect(old.isClosed, "flushed on the stage's thread, then closed")
        for index in 3..<6 { #expect(stage.offer(Self.frame(index))) }
        try stage.finish()
        let pictures = delivered.rest()
        #expect(pictures.compactMap { QueueingTestBackend.identity(of: $0)?.pts } == (0..<6).map { Self.frame($0).timestamp.milliseconds })
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 3])
    }

    @Test("a bitrate change and a keyframe request made on another thread reach the backend on the stage's")
    func controlReachesTheBackendOnItsThread() throws {
        let delivered = Delivered()
        let log = QueueingBackendLog()
        let session = try QueueingTestBackend.session(Harness.settings(), capacity: 4, batch: 1, log: log) { delivered.add($0) }
        let stage = EncoderStage(session: session, upstream: .flatOut, logger: Harness.quietLogger, failed: { _ in })
        try stage.start()
        #expect(stage.offer(Self.frame(0)))
        #expect(delivered.next() != nil)
        try stage.session.reconfigure(bitrateKbps: 650)
        // Nothing reached the backend yet: the change waits for the next picture.
        #expect(log.current.bitrates.isEmpty)
        #expect(stage.session.bitrateKbps == 650)
        let index = stage.session.requestKeyframe()
        #expect(stage.offer(Self.frame(1)))
        try stage.finish()
        #expect(log.current.bitrates == [650])
        #expect(index == 1)
        #expect(delivered.rest().map(\.isKeyframe) == [true], "frame 1 was asked to be a keyframe")
    }
}

/// Wraps a backend and holds its first send until the test releases it: an encoder stalled.
final class BlockingFirstSend: Sendable {
    let sending = try! WakeEvent()
    let release = try! WakeEvent()

    func wrapping(_ backend: any EncoderBackend) -> any EncoderBackend { Blocking(backend, gate: self) }

    private final class Blocking: EncoderBackend {
        let wrapped: any EncoderBackend
        let gate: BlockingFirstSend
        var sends = 0

        init(_ wrapped: any EncoderBackend, gate: BlockingFirstSend) {
            self.wrapped = wrapped
            self.gate = gate
        }

        init(settings: EncoderSettings, logger: Logger) throws(EncoderError) { fatalError("made by wrapping") }

        func streamHeaders() throws(EncoderError) -> [[UInt8]] { try wrapped.streamHeaders() }

        func send(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderSendStatus {
            sends += 1
            if sends == 1 {
                gate.sending.signal()
                gate.release.wait()
            }
            return try wrapped.send(image, pts: pts, forceIDR: forceIDR)
        }

        func sendEndOfStream() throws(EncoderError) { try wrapped.sendEndOfStream() }
        func receive() throws(EncoderError) -> EncoderReceiveStatus { try wrapped.receive() }
        func reconfigure(bitrateKbps: Int) throws(EncoderError) { try wrapped.reconfigure(bitrateKbps: bitrateKbps) }
    }
}
