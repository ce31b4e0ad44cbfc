@testable import Encoder
import Media
import Synchronization
import Testing
import TestSupport

/// The session drives its backend through send/receive, so a backend that works through buffer
/// queues (V4L2 mem2mem, VA-API) fits it: `QueueingTestBackend` holds pictures, refuses sends when
/// full and hands pictures back late and in bursts; the session must still deliver every picture
/// once, in order, with keyframe requests and the schedule honoured, and flush what is held.
@Suite struct AsynchronousBackendTests {
    static let width = 320, height = 180

    static func frame(_ index: Int) -> (frame: VideoFrame, luma: [UInt8]) {
        TestFrames.frame(.i420, width: width, height: height, index: index)
    }

    static func pts(_ index: Int) -> Int64 { TestFrames.timestamp(index).milliseconds }

    @Test(
        "every picture is delivered once, in order, carrying the bytes it was sent with, and keyframe requests land on their frames",
        arguments: [(capacity: 3, batch: 4), (capacity: 4, batch: 2), (capacity: 1, batch: 1), (capacity: 5, batch: 5)])
    func deliversEverythingInOrder(shape: (capacity: Int, batch: Int)) throws {
        let collector = PictureCollector()
        let log = QueueingBackendLog()
        let settings = Harness.settings { $0.keyframeIntervalSeconds = 10 }
        let session = try QueueingTestBackend.session(settings, capacity: shape.capacity, batch: shape.batch, log: log) {
            collector.add($0)
        }
        let count = 41
        var lumas: [[UInt8]] = []
        var deliveredAfterEachEncode: [Int] = []
        for index in 0..<count {
            if index == 7 || index == 23 { #expect(session.requestKeyframe() == Int64(index)) }
            let (frame, luma) = Self.frame(index)
            lumas.append(Array(luma.prefix(QueueingTestBackend.copiedLumaBytes)))
            try session.encode(frame)
            deliveredAfterEachEncode.append(collector.all.count)
        }
        let heldBeforeFlush = count - collector.all.count
        try session.flush()

        let pictures = collector.all
        let identities = pictures.compactMap(QueueingTestBackend.identity(of:))
        #expect(identities.count == count)
        #expect(identities.map(\.pts) == (0..<count).map(Self.pts))
        #expect(pictures.map(\.pts) == (0..<count).map(Self.pts))
        #expect(identities.map(\.luma) == lumas)
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 7, 23])
        #expect(session.isClosed)

        // The shapes really were asynchronous: pictures held at the end (flushed above), and late.
        let counts = log.current
        if shape.capacity > 1 {
            #expect(heldBeforeFlush > 0)
            #expect(deliveredAfterEachEncode.first == 0)
        }
        if shape.batch > shape.capacity { #expect(counts.refusals > 0) }
        if min(shape.batch, shape.capacity) > 1 { #expect(counts.largestBurst > 1) }
        #expect(counts.opened == 1)
    }

    @Test("flush drains every picture the backend still holds, in order, and closes the session")
    func flushDrainsTheQueue() throws {
        let collector = PictureCollector()
        let log = QueueingBackendLog()
        let session = try QueueingTestBackend.session(Harness.settings(), capacity: 8, batch: 8, log: log) { collector.add($0) }
        for index in 0..<5 { try session.encode(Self.frame(index).frame) }
        #expect(collector.all.isEmpty)
        try session.flush()
        #expect(collector.all.map(\.pts) == (0..<5).map(Self.pts))
        #expect(throws: EncoderError.closed) { try session.encode(Self.frame(5).frame) }
        #expect(throws: EncoderError.closed) { try session.flush() }
    }

    @Test("scheduled IDRs land every interval although the backend hands pictures back late")
    func scheduleHoldsWithLatePictures() throws {
        let collector = PictureCollector()
        let session = try QueueingTestBackend.session(
            Harness.settings { $0.keyframeIntervalFrames = 10 }, capacity: 3, batch: 4, log: QueueingBackendLog()
        ) { collector.add($0) }
        for index in 0..<35 { try session.encode(Self.frame(index).frame) }
        try session.flush()
        let pictures = collector.all
        #expect(pictures.count == 35)
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 10, 20, 30])
    }

    @Test("a frame stamped at or before the previous one is moved 1 ms past it, as with x264")
    func timestampsStillIncrease() throws {
        let collector = PictureCollector()
        let session = try QueueingTestBackend.session(Harness.settings(), capacity: 2, batch: 3, log: QueueingBackendLog()) {
            collector.add($0)
        }
        var late = Self.frame(3).frame
        late.timestamp = TestFrames.timestamp(1)
        for frame in [Self.frame(0).frame, Self.frame(2).frame, late, Self.frame(4).frame] { try session.encode(frame) }
        try session.flush()
        #expect(collector.all.map(\.pts) == [Self.pts(0), Self.pts(2), Self.pts(2) + 1, Self.pts(4)])
    }

    @Test("after an encode failure, recovery opens a new backend, the failed frame goes again as an IDR, and later frames follow")
    func recoveryOpensANewQueue() throws {
        let collector = PictureCollector()
        let log = QueueingBackendLog()
        let session = try QueueingTestBackend.session(
            Harness.settings { $0.keyframeIntervalSeconds = 10 }, capacity: 2, batch: 1, log: log
        ) { collector.add($0) }
        for index in 0..<4 { try session.encode(Self.frame(index).frame) }
        session.injectFaults(encodeFailures: 1)
        for index in 4..<8 { try session.encode(Self.frame(index).frame) }
        try session.flush()
        let pictures = collector.all
        #expect(log.current.opened == 2)
        // With batch 1 each picture was finished and received right after its send, so none was
        // held in the failed backend.
        #expect(pictures.map(\.pts) == (0..<8).map(Self.pts))
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 4])
    }

    @Test("pictures of a burst are handed on after the session's lock is released: the handler may call back into the session")
    func burstsAreDeliveredOutsideTheLock() throws {
        let collector = PictureCollector()
        let session = SharedLock<EncoderSession?>(nil)
        let reconfigured = Atomic(0)
        let opened = try QueueingTestBackend.session(Harness.settings(), capacity: 3, batch: 4, log: QueueingBackendLog()) { picture in
            // Takes the session's lock: under it (a Mutex is not recursive) this would never return.
            let current = session.withLock { $0 }
            // After the flush the session is closed, and says so.
            if (try? current?.reconfigure(bitrateKbps: 700 + collector.all.count)) != nil { reconfigured.add(1, ordering: .relaxed) }
            collector.add(picture)
        }
        session.withLock { $0 = opened }
        for index in 0..<12 { try opened.encode(Self.frame(index).frame) }
        try opened.flush()
        #expect(collector.all.map(\.pts) == (0..<12).map(Self.pts))
        // Every picture delivered while the session was open changed its bitrate from the handler.
        #expect(reconfigured.load(ordering: .relaxed) > 0)
        #expect(opened.bitrateKbps == 700 + reconfigured.load(ordering: .relaxed) - 1)
    }
}
