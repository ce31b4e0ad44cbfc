@testable import Encoder
import Foundation
import Media
import Synchronization
import TestSupport
import Testing

/// Encoder re-creation after an encode error, driven by faults injected through the backend
/// contract (a wrapping backend that fails encodes, an opener that fails openings: Tests only).
@Suite struct RecoveryTests {
    @Test func encodeErrorRecreatesTheEncoderAndKeepsGoing() throws {
        let (logger, log) = Harness.capturingLogger()
        let collector = PictureCollector()
        let opens = FailingOpens()
        let session = try EncoderSession(
            settings: Harness.settings(), logger: logger, recovery: EncoderRecoveryPolicy(attempts: 3, delay: .zero),
            backendOpener: opens.opener()
        ) { collector.add($0) }
        for index in 0..<5 {
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: index).frame)
        }
        try session.reconfigure(bitrateKbps: 600)
        session.injectFaults(encodeFailures: 1)
        opens.failNext(1)
        for index in 5..<10 {
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: index).frame)
        }
        let pictures = collector.all
        #expect(pictures.count == 10)
        // The new encoder starts with an IDR at the frame that failed.
        #expect(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 5])
        #expect(session.bitrateKbps == 600)
        #expect(!session.isClosed)
        let texts = log.messages.map(\.text)
        #expect(texts.contains("encode failed; re-creating the encoder"))
        #expect(texts.filter { $0 == "encoder re-creation failed" }.count == 1)
        #expect(texts.contains("encoder re-created"))
        try FFmpegTools.decodesCleanly(try Harness.writeAnnexB(pictures, name: "recovered.h264"))
    }

    @Test func givesUpAfterTheLastAttemptAndCloses() throws {
        let (logger, log) = Harness.capturingLogger()
        let opens = FailingOpens()
        let session = try EncoderSession(
            settings: Harness.settings(), logger: logger,
            recovery: EncoderRecoveryPolicy(attempts: 3, delay: .milliseconds(50)), backendOpener: opens.opener()
        ) { _ in }
        session.injectFaults(encodeFailures: 1)
        opens.failNext(3)
        let started = ContinuousClock.now
        #expect(throws: EncoderError.openFailed("injected failure")) {
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: 0).frame)
        }
        // Three tries, the pause between each: at least two pauses.
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        #expect(log.messages.filter { $0.text == "encoder re-creation failed" }.count == 3)
        #expect(session.isClosed)
        #expect(throws: EncoderError.closed) {
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: 1).frame)
        }
    }

    /// Issue 14 #10: recovery used to sleep between tries holding the session lock, so a keyframe
    /// request (an RTMP reconnect) waited out the whole pause.
    @Test func recoveryPausesWithoutHoldingTheLock() throws {
        let (logger, _) = Harness.capturingLogger()
        let opens = FailingOpens()
        let session = try EncoderSession(
            settings: Harness.settings(), logger: logger,
            recovery: EncoderRecoveryPolicy(attempts: 2, delay: .milliseconds(1500)), backendOpener: opens.opener()
        ) { _ in }
        session.injectFaults(encodeFailures: 1)
        opens.failNext(1)
        let result = SharedLock<Result<Void, EncoderError>?>(nil)
        let encoding = try DedicatedThread {
            let outcome = Result { () throws(EncoderError) in
                try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: 0).frame)
            }
            result.withLock { $0 = outcome }
        }
        // Well inside the 1.5 s pause between the two tries.
        Thread.sleep(forTimeInterval: 0.4)
        let asked = ContinuousClock.now
        session.requestKeyframe()
        let waited = ContinuousClock.now - asked
        encoding.join()
        #expect(waited < .milliseconds(500), "requestKeyframe waited \(waited) during recovery")
        // The second try succeeded: the frame was encoded after all.
        #expect(throws: Never.self) { try result.withLock { $0 }?.get() }
        #expect(!session.isClosed)
    }

    /// The output handler may call back into the session: pictures are delivered after the lock
    /// is released (a keyframe request from inside the handler used to need a thread hop).
    @Test func outputHandlerMayCallBackIntoTheSession() throws {
        let (logger, _) = Harness.capturingLogger()
        let box = SessionBox()
        let collector = PictureCollector()
        let session = try EncoderSession(settings: Harness.settings(), logger: logger) { picture in
            collector.add(picture)
            box.session?.requestKeyframe()
        }
        box.session = session
        for index in 0..<3 {
            try session.encode(TestFrames.frame(.i420, width: 320, height: 180, index: index).frame)
        }
        // Every frame after the first was asked to be an IDR from inside the handler.
        #expect(collector.all.map(\.isKeyframe) == [true, true, true])
    }

    @Test func nonEncoderErrorsDoNotTriggerRecovery() throws {
        let (logger, log) = Harness.capturingLogger()
        let session = try EncoderSession(settings: Harness.settings(), logger: logger) { _ in }
        var frame = TestFrames.frame(.i420, width: 320, height: 180, index: 0).frame
        frame.planes = []
        #expect(throws: EncoderError.invalidFrame("YU12 needs 3 planes, frame has 0")) { try session.encode(frame) }
        #expect(!log.messages.contains { $0.text.contains("re-creat") })
        #expect(!session.isClosed)
    }
}

/// Lets a test's output handler reach the session it belongs to.
final class SessionBox: @unchecked Sendable {
    // @unchecked: set once before the first encode, read only on the encoding thread.
    var session: EncoderSession?
}
