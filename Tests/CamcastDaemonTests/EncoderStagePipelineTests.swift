import Foundation
import Logging
import Media
import RTMPAddress
import Synchronization
import Telemetry
import TestSupport
import Testing

@testable import CamcastDaemon
@testable import Encoder

/// The encoder as a stage of its own inside the running pipeline, to nginx-rtmp, on fake backends
/// (through the backend contract, around the real x264) that the debug build lets a test give the
/// pipeline (issue 39): a stalled encoder costs pictures, not the source's cadence nor the outputs;
/// an asynchronous one streams every picture once, in order, flushed at stop.
@Suite("The encoder stage in the pipeline", .serialized)
struct EncoderStagePipelineTests {
    static let fps = 15

    static func settings(_ server: RTMPServer, name: String, seconds: Double) throws -> RunSettings {
        var encoder = EncoderSettings(
            size: VideoSize(width: 320, height: 180), frameRate: FrameRate(numerator: fps, denominator: 1), bitrateKbps: 300)
        // One picture out per picture in from x264 itself, and no scheduled IDR but the first: the
        // delays and keyframes the tests see are the fake backend's.
        encoder.zeroLatency = true
        encoder.keyframeIntervalSeconds = 60
        var settings = RunSettings(
            source: .testPattern, encoder: encoder, outputs: [.rtmp(try RTMPURL(parsing: server.url(app: "rec", name: name)))])
        settings.durationSeconds = seconds
        return settings
    }

    /// A pipeline whose sessions open `backend` around the codec's own.
    static func control(_ backend: @escaping @Sendable (any EncoderBackend) -> any EncoderBackend) -> PipelineControl {
        let control = PipelineControl()
        control.debugSessionOpener.withLock {
            $0 = { settings, logger, output in
                try EncoderSession(
                    settings: settings, logger: logger, recovery: .standard,
                    backendOpener: { (settings, logger) throws(EncoderError) in backend(try EncoderSession.openBackend(settings, logger: logger)) },
                    output: output)
            }
        }
        return control
    }

    #if DEBUG
    @Test("an encoder stalled for 500 ms: the test pattern keeps its cadence, the stage drops and counts, the output stays up")
    func aStalledEncoderCostsPicturesNotTheSource() async throws {
        let server = try RTMPServer()
        let stall = StallingBackend.Log()
        // The 10th send stalls: the source is well under way, its output streaming.
        let control = Self.control { StallingBackend(wrapping: $0, stallAtSend: 10, log: stall) }
        let (logger, lines) = SummaryLogHandler.logger()
        let pipeline = Pipeline(settings: try Self.settings(server, name: "stall", seconds: 3), logger: logger, control: control)
        let run = Task { try await pipeline.run() }
        // At the stall's end, while the run goes on: the output never left streaming.
        await DedicatedThread.run { stall.stallEnded.wait() }
        let during = control.telemetry.report().outputs
        try await run.value
        try server.stop()

        #expect(during.map(\.up) == [true], "\(during.map(\.phase))")
        let summary = try #require(lines.stopSummary, "the stop summary was logged")
        let (captured, encoded) = (control.counters.framesCaptured.load(ordering: .relaxed), control.framesEncoded)
        let dropped = control.counters.droppedAtEncoder.load(ordering: .relaxed)
        // The source never waited: it skipped nothing (before the stage, the capture thread sat
        // in the stalled encode and skipped the frames whose slots went by meanwhile).
        #expect(summary["skipped"] == "0", "\(summary)")
        // Half a second is 7 frame intervals at 15 fps: more than the queue holds.
        #expect(dropped > 0)
        #expect(summary["encoder_dropped"] == "\(dropped)")
        // Every picture the source handed on was either encoded or dropped at the queue.
        #expect(captured == encoded + dropped, "captured \(captured), encoded \(encoded), dropped \(dropped)")
        // And the run's frame slots (media_ms over the interval, plus the first) are each encoded,
        // skipped at the source or dropped at the queue, as the integration tests count them
        // (CamcastLog.unencodedSlots); 2 for the ends' rounding.
        let mediaMilliseconds = try #require(summary["media_ms"].flatMap { Int($0) }, "\(summary)")
        let slots = Int((Double(mediaMilliseconds * Self.fps) / 1000).rounded()) + 1
        let skipped = try #require(summary["skipped"].flatMap { Int($0) })
        #expect(abs(encoded + skipped + dropped - slots) <= 2, "\(encoded) encoded + \(skipped) skipped + \(dropped) dropped vs \(slots) slots")
        #expect(summary["frames"] == "\(encoded)")
        // What /metrics (reason="encoder_queue_full") and /status read says the same.
        #expect(control.telemetry.report().droppedAtEncoder == dropped)
        // One connection, never lost; every encoded picture reached the server and decodes.
        let reading = try #require(control.telemetry.outputMeters.first?.reading())
        #expect(reading.connectAttempts == 1 && reading.reconnects == 0, "\(reading)")
        let recording = server.recording("stall")
        #expect(try ProbedVideo.packets(recording).count == encoded)
        #expect(try ProbedVideo.decodeErrors(recording).isEmpty)
    }
    #endif

    @Test("an asynchronous backend (4 deep, pictures out 3 sends late): every picture to nginx once, in order, flushed at stop; a keyframe request comes out within the delay")
    func anAsynchronousBackendStreamsThroughThePipeline() async throws {
        let server = try RTMPServer()
        // A second in, a keyframe request (as a new output or an overflowing queue makes one).
        let log = DelayingBackend.Log(milestone: Self.fps)
        let control = Self.control { DelayingBackend(wrapping: $0, delay: 3, depth: 4, log: log) }
        // Asked on the encoder's thread as the backend takes its milestone picture, not by this
        // task once it resumes: a loaded machine may resume it after the 3-s run has ended.
        log.atMilestone { control.runningStages?.encoder.requestKeyframe() }
        let pipeline = Pipeline(
            settings: try Self.settings(server, name: "async", seconds: 3), logger: SummaryLogHandler.logger().0, control: control)
        try await pipeline.run()
        let requested = try #require(log.requestedAtMilestone, "the run ended before the backend took \(Self.fps) pictures")
        try server.stop()

        let (sent, emitted) = (log.sentPictures, log.emittedPictures)
        // Every picture the backend took came out once, in the order it went in, the last three
        // by the flush at stop.
        #expect(emitted.map(\.pts) == sent.map(\.pts))
        #expect(Set(sent.map(\.pts)).count == sent.count)
        #expect(emitted.suffix(3).allSatisfy { $0.atSend == sent.count }, "the last three only by the flush")
        #expect(emitted.dropLast(3).indices.allSatisfy { emitted[$0].atSend == $0 + 3 + 1 }, "three sends late")
        // The request landed on the frame it named, and that IDR came out three sends later.
        let forced = sent.indices.filter { sent[$0].forceIDR }
        #expect(forced == [0, Int(requested)], "the first picture and the requested one")
        #expect(emitted.indices.filter { emitted[$0].isKeyframe } == [0, Int(requested)])
        // nginx recorded each of them once, in order, the IDRs where the backend made them.
        let packets = try ProbedVideo.packets(server.recording("async"))
        #expect(packets.count == sent.count)
        #expect(zip(packets, packets.dropFirst()).allSatisfy { $0.dtsMilliseconds < $1.dtsMilliseconds })
        #expect(packets.indices.filter { packets[$0].isKeyframe } == [0, Int(requested)])
        #expect(control.framesEncoded == sent.count)
    }
}

/// A backend around x264's whose `stallAtSend`th send takes half a second longer: an encoder that
/// stalls (a hardware queue that hangs, a library that stops to think).
final class StallingBackend: EncoderBackend {
    final class Log: Sendable {
        let stallEnded = try! WakeEvent()
    }

    private let wrapped: any EncoderBackend
    private let stallAtSend: Int
    private let log: Log
    private var sends = 0

    init(wrapping wrapped: any EncoderBackend, stallAtSend: Int, log: Log) {
        self.wrapped = wrapped
        self.stallAtSend = stallAtSend
        self.log = log
    }

    init(settings: EncoderSettings, logger: Logger) throws(EncoderError) { fatalError("made by wrapping") }

    func streamHeaders() throws(EncoderError) -> [[UInt8]] { try wrapped.streamHeaders() }

    func send(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderSendStatus {
        sends += 1
        if sends == stallAtSend {
            // The stall itself: what is being tested is that nothing else waits for it.
            usleep(500_000)
            log.stallEnded.signal()
        }
        return try wrapped.send(image, pts: pts, forceIDR: forceIDR)
    }

    func sendEndOfStream() throws(EncoderError) { try wrapped.sendEndOfStream() }
    func receive() throws(EncoderError) -> EncoderReceiveStatus { try wrapped.receive() }
    func reconfigure(bitrateKbps: Int) throws(EncoderError) { try wrapped.reconfigure(bitrateKbps: bitrateKbps) }
}

/// A backend that behaves as a queue-based hardware encoder does (V4L2 mem2mem): it holds up to
/// `depth` pictures and gives each back only `delay` sends after it took it (all it holds at the
/// end of the stream), around x264's real coding of them. It logs what went in and came out.
final class DelayingBackend: EncoderBackend {
    struct Sent: Sendable {
        var pts: Int64
        var forceIDR: Bool
    }

    struct Emitted: Sendable {
        var pts: Int64
        var isKeyframe: Bool
        /// How many sends the backend had taken when this came out.
        var atSend: Int
    }

    final class Log: Sendable {
        /// Run on the encoder's thread when the backend has taken `milestone` pictures; what it
        /// returns is kept (`requestedAtMilestone`).
        private let action = Mutex<Callback<Void, Int64?>?>(nil)
        private let requested = Mutex<Int64?>(nil)
        let milestone: Int
        private let record = Mutex<(sent: [Sent], emitted: [Emitted])>(([], []))

        func atMilestone(_ body: @escaping @Sendable () -> Int64?) { action.withLock { $0 = Callback(body) } }
        var requestedAtMilestone: Int64? { requested.withLock { $0 } }

        init(milestone: Int) {
            self.milestone = milestone
        }

        func took(_ picture: Sent) {
            let count = record.withLock { record in
                record.sent.append(picture)
                return record.sent.count
            }
            if count == milestone, let act = action.withLock({ $0 }) {
                let answer = act()
                requested.withLock { $0 = answer }
            }
        }

        func gave(_ picture: Emitted) { record.withLock { $0.emitted.append(picture) } }

        var sentPictures: [Sent] { record.withLock { $0.sent } }
        var emittedPictures: [Emitted] { record.withLock { $0.emitted } }
    }

    private let wrapped: any EncoderBackend
    private let delay: Int
    private let depth: Int
    private let log: Log
    /// Coded by x264, not yet given back, oldest first.
    private var held: [EncoderBackendOutput] = []
    private var sends = 0
    private var ended = false

    init(wrapping wrapped: any EncoderBackend, delay: Int, depth: Int, log: Log) {
        self.wrapped = wrapped
        self.delay = delay
        self.depth = depth
        self.log = log
    }

    init(settings: EncoderSettings, logger: Logger) throws(EncoderError) { fatalError("made by wrapping") }

    func streamHeaders() throws(EncoderError) -> [[UInt8]] { try wrapped.streamHeaders() }

    func send(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderSendStatus {
        guard held.count < depth else { return .full }
        guard try wrapped.send(image, pts: pts, forceIDR: forceIDR) == .accepted else { return .full }
        sends += 1
        log.took(Sent(pts: pts, forceIDR: forceIDR))
        while case .picture(let coded) = try wrapped.receive() { held.append(coded) }
        return .accepted
    }

    func sendEndOfStream() throws(EncoderError) {
        try wrapped.sendEndOfStream()
        ended = true
    }

    func receive() throws(EncoderError) -> EncoderReceiveStatus {
        if ended {
            while case .picture(let coded) = try wrapped.receive() { held.append(coded) }
            guard !held.isEmpty else { return .drained }
        } else {
            // A picture taken `delay` sends ago is done; the younger ones are still in the queue.
            guard held.count > delay else { return .needsInput }
        }
        let picture = held.removeFirst()
        log.gave(Emitted(pts: picture.pts, isKeyframe: picture.isKeyframe, atSend: sends))
        return .picture(picture)
    }

    func reconfigure(bitrateKbps: Int) throws(EncoderError) { try wrapped.reconfigure(bitrateKbps: bitrateKbps) }
}

/// Keeps the stop summary's metadata ("stopped") for the test to read.
struct SummaryLogHandler: LogHandler {
    final class Lines: Sendable {
        private let summary = Mutex<[String: String]?>(nil)
        func keep(_ metadata: [String: String]) { summary.withLock { $0 = metadata } }
        var stopSummary: [String: String]? { summary.withLock { $0 } }
    }

    let lines: Lines
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    static func logger() -> (Logger, Lines) {
        let lines = Lines()
        return (Logger(label: "test") { _ in SummaryLogHandler(lines: lines) }, lines)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard "\(event.message)" == "stopped" else { return }
        lines.keep((event.metadata ?? [:]).mapValues { "\($0)" })
    }
}
