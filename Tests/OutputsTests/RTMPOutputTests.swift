import FLV
import Media
import Foundation
import Logging
import RTMP
import RTMPAddress
import Testing
@testable import Outputs
import TestSupport

/// The RTMP output's publish loop over a fake publisher: reconnect sequences, backoff classes,
/// drain on stop, and a stop in every state, all without a server.
@Suite("RTMP output over a fake publisher")
struct RTMPOutputTests {
    static let metadata = try! FLVTag(type: .scriptData, timestamp: 0, body: [0x02, 0x00, 0x00])
    static let frames = FrameStream(gop: 10)

    final class Failures: Sendable {
        let errors = SharedLock<[OutputFailure]>([])
        var handler: @Sendable (OutputFailure) -> Void { { error in self.errors.withLock { $0.append(error) } } }
        var count: Int { errors.withLock { $0.count } }
    }

    static func output(
        _ server: FakeServer, policy: ReconnectPolicy = ReconnectPolicy(initialDelaySeconds: 0.05, maxDelaySeconds: 0.2),
        keyframes: KeyframeRequests = KeyframeRequests(), failures: Failures = Failures()
    ) throws -> RTMPOutput {
        RTMPOutput(
            url: try RTMPURL(parsing: "rtmp://127.0.0.1:1/live/secret"), options: RTMPPublisherOptions(),
            reconnect: policy, metadata: metadata, queueMilliseconds: 5000, bitrateKbps: 1000,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
            requestKeyframe: keyframes.handler, onFailure: failures.handler, makePublisher: server.factory)
    }

    static func state(_ output: RTMPOutput) -> NetworkOutputState { output.state.withLock { $0 } }

    static func isStreaming(_ output: RTMPOutput) -> Bool {
        if case .streaming = state(output) { return true }
        return false
    }

    static func isBackingOff(_ output: RTMPOutput) -> Bool {
        if case .backingOff = state(output) { return true }
        return false
    }

    /// Feeds frames `range`, as the encoder would.
    static func feed(_ output: RTMPOutput, _ range: Range<Int>) {
        for number in range { output.write(frames.packet(number)) }
    }

    @Test func refusedAttemptsAreRetriedUntilThePublishStartsWithMetadataHeaderKeyframe() throws {
        let server = FakeServer([.refuse, .refuse, .refuse])
        let keyframes = KeyframeRequests()
        let output = try Self.output(server, keyframes: keyframes)
        try output.open()
        #expect(eventually { Self.isStreaming(output) })
        #expect(server.connects == 4)
        #expect(keyframes.count.load(ordering: .relaxed) >= 1, "a new connection asks for a keyframe")
        Self.feed(output, 0..<5)
        #expect(eventually { server.events.filter { if case .send = $0 { return true } else { return false } }.count >= 7 })
        output.finish(endTime: 500, drainSeconds: 2)
        let sends = server.events.compactMap { event -> UInt8? in
            if case .send(let type, _) = event { return type }
            return nil
        }
        // onMetaData (18), then video: sequence header, 5 frames, end of sequence.
        #expect(sends == [18, 9, 9, 9, 9, 9, 9, 9])
        #expect(server.events.last == .close)
        #expect(Self.state(output) == .finished(.stopped))
        #expect(output.statistics.sentFrames == 5)
        #expect(output.statistics.reconnects == 0)
    }

    @Test func aLostConnectionReconnectsAndStartsAgainAtAKeyframe() throws {
        // The first connection dies after 4 messages (metadata, header, 2 frames).
        let server = FakeServer([.accept(failAfterSends: 4)])
        let output = try Self.output(server)
        try output.open()
        #expect(eventually { Self.isStreaming(output) })
        Self.feed(output, 0..<5)
        #expect(eventually { server.connects == 2 && Self.isStreaming(output) })
        // The new connection starts only at the next keyframe (10), with metadata and header again.
        for number in 10..<13 { output.write(Self.frames.packet(number)) }
        #expect(eventually { output.statistics.sentFrames == 2 + 3 })
        output.finish(endTime: 500, drainSeconds: 2)
        #expect(output.statistics.reconnects == 1)
        let afterReconnect = server.events.split(separator: .connect).last.map(Array.init) ?? []
        #expect(afterReconnect.first == .send(type: 18, timestamp: 330), "metadata at the keyframe's time")
    }

    /// Issue 14 #2: a stop during the wait between attempts must not open a connection.
    @Test func aStopDuringABackoffWaitOpensNoConnection() throws {
        // Bounds far from "at once" (a loaded ThreadSanitizer build takes a second to get threads
        // round): the stop must end well before either the backoff or the drain would.
        let server = FakeServer([], then: .refuse)
        let output = try Self.output(server, policy: ReconnectPolicy(initialDelaySeconds: 30, maxDelaySeconds: 30, jitter: 0))
        try output.open()
        #expect(eventually { Self.isBackingOff(output) })
        let started = Date()
        output.finish(endTime: 0, drainSeconds: 20)
        #expect(Date().timeIntervalSince(started) < 10, "a stop does not wait out the backoff")
        usleep(200_000)
        #expect(server.connects == 1)
        #expect(Self.state(output) == .finished(.stopped))
    }

    /// Issue 14 #11: a stop during a connect that hangs cancels it (the socket is shut down, so the
    /// server never sees a publish) and returns at once; the connection is closed without a byte sent.
    @Test func aStopDuringAConnectCancelsItAndSendsNothing() throws {
        let server = FakeServer([.hang])
        let output = try Self.output(server)
        try output.open()
        #expect(eventually { server.connects == 1 })
        let started = Date()
        output.finish(endTime: 0, drainSeconds: 20)
        #expect(Date().timeIntervalSince(started) < 10, "the hung connect is not waited out like a drain")
        #expect(Self.state(output) == .finished(.stopped))
        #expect(eventually { server.events.last == .close })
        #expect(server.events == [.connect, .cancel, .close])
    }

    /// Issue 14 #11: `open` does not wait for the first attempt.
    @Test func openReturnsBeforeTheFirstAttemptEnds() throws {
        let server = FakeServer([.hang])
        let output = try Self.output(server)
        let started = Date()
        try output.open()
        #expect(Date().timeIntervalSince(started) < 5, "the connect hangs until released")
        server.release()
        #expect(eventually { Self.isStreaming(output) })
        output.finish(endTime: 0, drainSeconds: 1)
    }

    /// The first attempt runs while the stream starts; a server that answers then gets the run
    /// from its first frame, without an extra keyframe.
    @Test func theFirstConnectionSendsFromTheFirstFrame() throws {
        let server = FakeServer([.hang])
        let keyframes = KeyframeRequests()
        let output = try Self.output(server, keyframes: keyframes)
        try output.open()
        Self.feed(output, 0..<8)
        server.release()
        #expect(eventually { output.statistics.sentFrames == 8 })
        output.finish(endTime: 300, drainSeconds: 2)
        #expect(keyframes.count.load(ordering: .relaxed) == 0)
        #expect(output.statistics.discardedFrames == 0)
    }

    @Test func aStopWhileStreamingDrainsTheQueueThenEndsTheSequence() throws {
        let server = FakeServer([])
        let output = try Self.output(server)
        try output.open()
        #expect(eventually { Self.isStreaming(output) })
        Self.feed(output, 0..<30)
        output.finish(endTime: 990, drainSeconds: 5)
        #expect(output.statistics.sentFrames == 30)
        let last = server.events.suffix(2)
        #expect(Array(last) == [.send(type: 9, timestamp: 990), .close])
    }

    /// While the first attempt hangs, frames queue up and overflow, but no keyframe is asked for:
    /// a silent server must not put extra IDRs into the other outputs' streams.
    @Test func aHangingFirstAttemptAsksForNoKeyframes() throws {
        let server = FakeServer([.hang])
        let keyframes = KeyframeRequests()
        let output = try Self.output(server, keyframes: keyframes)
        try output.open()
        Self.feed(output, 0..<400)  // 13 s of media against a 5 s queue
        #expect(output.statistics.droppedFrames > 0)
        #expect(keyframes.count.load(ordering: .relaxed) == 0)
        server.release()
        #expect(eventually { Self.isStreaming(output) })
        output.finish(endTime: 0, drainSeconds: 1)
    }

    /// A link that cannot keep up: the queue overflows, drops whole runs up to a keyframe, asks
    /// for one, and what is sent afterwards resumes at a keyframe.
    @Test func aStalledLinkOverflowsTheQueueUpToAKeyframe() throws {
        let server = FakeServer([])
        let keyframes = KeyframeRequests()
        let output = try Self.output(server, keyframes: keyframes)
        try output.open()
        #expect(eventually { Self.isStreaming(output) })
        Self.feed(output, 0..<3)
        #expect(eventually { output.statistics.sentFrames == 3 })
        server.stall()
        // 200 frames 33 ms apart: 6.6 s of media against a 5 s queue.
        Self.feed(output, 3..<203)
        #expect(output.statistics.droppedFrames > 0)
        #expect(keyframes.count.load(ordering: .relaxed) >= 1, "an overflow asks for a keyframe")
        server.unstall()
        output.finish(endTime: 203 * 33, drainSeconds: 5)
        let stats = output.statistics
        #expect(stats.sentFrames + stats.droppedFrames + stats.queuedPackets >= 202, "every frame sent or counted: \(stats)")
        // After the stall, the frames that went out continue from a keyframe, never mid-GOP.
        let frameTimestamps = server.events.compactMap { event -> UInt32? in
            if case .send(9, let timestamp) = event { return timestamp }
            return nil
        }
        var numbers: [Int] = []
        for timestamp in frameTimestamps.dropLast() where numbers.last != Int(timestamp) / 33 {
            numbers.append(Int(timestamp) / 33)  // a sequence header shares its keyframe's time
        }
        #expect(numbers.count > 3)
        for (previous, next) in zip(numbers, numbers.dropFirst()) where next != previous + 1 {
            #expect(next % 10 == 0, "after a gap at \(previous), frame \(next) is not a keyframe")
        }
    }

    @Test func aStopBeforeOpenAndASecondStopAreHarmless() throws {
        let server = FakeServer([])
        let output = try Self.output(server)
        output.finish(endTime: 0, drainSeconds: 1)
        #expect(Self.state(output) == .finished(.stopped))
        #expect(throws: OutputFailure.self) { try output.open() }
        output.finish(endTime: 0, drainSeconds: 1)
        #expect(server.connects == 0)
    }

    @Test func withoutReconnectTheFirstFailureFailsTheOutputOnce() throws {
        let server = FakeServer([], then: .refuse)
        let failures = Failures()
        let output = try Self.output(server, policy: .disabled, failures: failures)
        try output.open()
        #expect(eventually { failures.count == 1 })
        #expect(eventually { Self.state(output).isFinished })
        output.finish(endTime: 0, drainSeconds: 1)
        #expect(server.connects == 1)
        #expect(failures.count == 1)
        #expect("\(failures.errors.withLock { $0 }[0])".contains("refused"))
    }

    @Test func aLimitedPolicyGivesUpAfterItsAttempts() throws {
        let server = FakeServer([], then: .rejectPublish)
        let failures = Failures()
        let output = try Self.output(
            server, policy: ReconnectPolicy(initialDelaySeconds: 0.01, maxDelaySeconds: 0.02, maxAttempts: 3), failures: failures)
        try output.open()
        #expect(eventually { failures.count == 1 })
        output.finish(endTime: 0, drainSeconds: 1)
        #expect(server.connects == 3)
        #expect("\(failures.errors.withLock { $0 }[0])".contains("gave up after 3 attempts"))
    }
}
