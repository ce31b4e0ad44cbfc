import Foundation
import Logging
import RTMPAddress
import TestSupport
import Testing
@testable import RTMP

/// Against a real nginx-rtmp started per test (`RTMPServer`, scripts/rtmp-server), its error log at
/// debug level. Fails, saying what is missing, when nginx-rtmp or ffmpeg is not installed.
@Suite("RTMPPublisher against nginx-rtmp", .serialized)
struct RTMPPublisherIntegrationTests {
    /// nginx-rtmp says what it parsed (`codec: data frame: …`) only at debug level.
    static func startServer() throws -> RTMPServer {
        try RTMPServer(environment: ["RTMP_LOG_LEVEL": "debug"])
    }

    /// 3 s of 320×180 30 fps H.264, GOP 30, no B-frames, as FLV tags.
    static func makeInputFLV(in directory: URL) throws -> (path: String, messages: [RTMPMediaMessage]) {
        let path = directory.appendingPathComponent("in.flv").path
        _ = try FFmpegTools.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-t", "3",
            "-c:v", "libx264", "-g", "30", "-bf", "0", "-f", "flv", path,
        ])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return (path, try FLVTestSplitter.messages(bytes))
    }

    static func videoPacketCount(_ path: String) throws -> Int {
        let output = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-count_packets",
            "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path,
        ])
        return try #require(Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    static func elapsed(_ body: () throws -> Void) rethrows -> Duration {
        let start = ContinuousClock.now
        try body()
        return ContinuousClock.now - start
    }

    /// `inPlace`: each message built as the RTMP output builds a picture's, with headroom for the
    /// chunk headers, so the publisher sends it from its own storage (issue 26); the recording
    /// must be the same, and copy-on-write must never have had to copy.
    @Test("a real stream is recorded by nginx and decodes cleanly", arguments: [false, true])
    func publishRealStream(inPlace: Bool) throws {
        let server = try Self.startServer()
        defer { try? server.stop() }
        let (inputPath, messages) = try Self.makeInputFLV(in: server.state)
        try #require(messages.first?.type == .dataAMF0, "ffmpeg's FLV starts with onMetaData")
        #expect(messages.filter { $0.type == .dataAMF0 }.count == 1)

        let logs = LogCapture()
        let name = "camcast-rec"
        let url = try RTMPURL(parsing: server.url(app: "rec", name: name))
        let publisher = RTMPPublisher(url: url, logger: logs.logger())
        try publisher.connect()
        #expect(publisher.isPublishing)
        for message in messages {
            if inPlace {
                // Built in the call, as the output builds it: no other reference to the storage.
                try publisher.send(RTMPMediaMessage(
                    type: message.type, timestamp: message.timestamp,
                    storage: [UInt8](repeating: 0, count: RTMPMediaMessage.requiredHeadroom) + message.payload,
                    headroom: RTMPMediaMessage.requiredHeadroom))
            } else {
                try publisher.send(message)
            }
        }
        #expect(publisher.bodiesCopied == 0)
        let payloadBytes = messages.reduce(0) { $0 + $1.payload.count }
        #expect(publisher.bytesSent == UInt64(payloadBytes + RTMPPublisher.setDataFrameAMF0.count))
        publisher.close()
        publisher.close() // idempotent
        #expect(!publisher.isPublishing)
        try server.stop() // graceful: the recording is complete on disk

        let recording = server.recording(name).path
        let inputCount = try Self.videoPacketCount(inputPath)
        let recordedCount = try Self.videoPacketCount(recording)
        #expect(inputCount == 90)
        #expect(abs(recordedCount - inputCount) <= 1, "recorded \(recordedCount) of \(inputCount) frames")

        let flags = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags", "-of", "csv=p=0", recording,
        ])
        #expect(String(decoding: flags, as: UTF8.self).split(separator: "\n").first?.hasPrefix("K") == true,
                "first packet is a keyframe")
        #expect(try ProbedVideo.decodeErrors(URL(fileURLWithPath: recording)) == "")

        // nginx-rtmp (debug log) reports each @setDataFrame it dispatched and each data
        // frame its codec module parsed: exactly one, with the metadata's values.
        let nginxLog = server.errorLog()
        let dataFrames = nginxLog.split(separator: "\n").filter { $0.contains("codec: data frame:") }
        #expect(dataFrames.count == 1)
        #expect(dataFrames.first?.contains("width=320 height=180") == true)
        #expect(dataFrames.first?.contains("frame_rate=30") == true)
        #expect(!nginxLog.contains("codec: error parsing data frame"))
        let setDataFrameCalls = nginxLog.split(separator: "\n").filter {
            $0.contains("AMF func '@setdataframe'") // nginx lowercases the name
        }
        #expect(setDataFrameCalls.count == 1)
    }

    @Test("a closed port fails with connectionRefused within 2 s")
    func closedPort() throws {
        let port = try freeLoopbackPort()
        let url = try RTMPURL(parsing: "rtmp://127.0.0.1:\(port)/live/closedport-key")
        let publisher = RTMPPublisher(url: url, logger: LogCapture().logger())
        var thrown: RTMPError?
        let time = Self.elapsed { thrown = #expect(throws: RTMPError.self) { try publisher.connect() } }
        #expect(thrown?.kind == .connectionRefused)
        #expect(time < .seconds(2))
        #expect(thrown?.description.contains("closedport-key") == false)
        #expect(thrown?.description.contains("127.0.0.1:\(port)/live/****") == true)
        let sendError = #expect(throws: RTMPError.self) {
            try publisher.send(RTMPMediaMessage(type: .video, timestamp: 0, payload: [0x17]))
        }
        #expect(sendError?.kind == .notConnected)
    }

    @Test("a name that does not resolve fails with dnsFailure")
    func dnsFailure() throws {
        let url = try RTMPURL(parsing: "rtmp://no-such-host.invalid/live/dns-key")
        let publisher = RTMPPublisher(url: url, logger: LogCapture().logger())
        let error = #expect(throws: RTMPError.self) { try publisher.connect() }
        #expect(error?.kind == .dnsFailure)
    }

    @Test("publishing to an app that denies publish is publishRejected within seconds")
    func denyAll() throws {
        let server = try Self.startServer()
        defer { try? server.stop() }
        let url = try RTMPURL(parsing: server.url(app: "denyall", name: "denied-key"))
        let publisher = RTMPPublisher(url: url, logger: LogCapture().logger())
        var thrown: RTMPError?
        let time = Self.elapsed { thrown = #expect(throws: RTMPError.self) { try publisher.connect() } }
        let kind = try #require(thrown?.kind)
        guard case .publishRejected = kind else {
            Issue.record("expected publishRejected, got \(kind)")
            return
        }
        #expect(time < .seconds(3))
        #expect(!publisher.isPublishing)
    }

    @Test("the auth app rejects a wrong key and accepts the right one; logs never show either")
    func authApp() throws {
        let server = try Self.startServer()
        defer { try? server.stop() }
        let logs = LogCapture()

        let wrong = try RTMPURL(parsing: server.url(app: "auth", name: "authcam-name", query: "key=wr0ngkey77"))
        let rejected = RTMPPublisher(url: wrong, logger: logs.logger())
        var thrown: RTMPError?
        let time = Self.elapsed { thrown = #expect(throws: RTMPError.self) { try rejected.connect() } }
        let kind = try #require(thrown?.kind)
        guard case .publishRejected = kind else {
            Issue.record("expected publishRejected, got \(kind)")
            return
        }
        #expect(time < .seconds(3))
        #expect(thrown?.description.contains("wr0ngkey77") == false)

        // Control: the right key is accepted, so the refusal above was about the key.
        let right = try RTMPURL(parsing: server.url(app: "auth", name: "authcam-name", query: "key=secret"))
        let accepted = RTMPPublisher(url: right, logger: logs.logger())
        try accepted.connect()
        #expect(accepted.isPublishing)
        accepted.close()

        let lines = logs.all
        // librtmp's debug lines reached the logger (so the check below is not vacuous) ...
        #expect(lines.contains { $0.contains("[librtmp]") && $0.contains("Invoking publish") })
        #expect(lines.contains { $0.contains("onStatus: NetStream.Publish.Start") })
        // ... and none shows a key or the stream name.
        for secret in ["wr0ngkey77", "authcam-name", "secret"] {
            let leaks = lines.filter { $0.contains(secret) }
            #expect(leaks.isEmpty, "\(leaks.count) log lines contain a secret")
        }
    }

    @Test("a publisher dropped by the server reports serverClosed on send")
    func serverDrop() throws {
        let server = try Self.startServer()
        defer { try? server.stop() }
        let (_, messages) = try Self.makeInputFLV(in: server.state)
        let url = try RTMPURL(parsing: server.url(app: "live", name: "dropme"))
        let publisher = RTMPPublisher(url: url, options: RTMPPublisherOptions(sendTimeoutSeconds: 2),
                                      logger: LogCapture().logger())
        try publisher.connect()
        for message in messages.prefix(10) { try publisher.send(message) }

        try server.dropPublisher(app: "live", name: "dropme")
        var failure: RTMPError?
        for message in messages.dropFirst(10) {
            do throws(RTMPError) {
                try publisher.send(message)
            } catch {
                failure = error
                break
            }
            usleep(20_000)
        }
        let error = try #require(failure, "sending after the drop never failed")
        #expect(error.kind == .serverClosed)
        #expect(!publisher.isPublishing)
    }
}

extension RTMPPublisherIntegrationTests {
    static func videoPacketTimes(_ path: String) throws -> [Double] {
        let output = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=dts_time", "-of", "csv=p=0", path,
        ])
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("timestamps past 0xFFFFFF ms (extended timestamp) arrive continuous")
    func extendedTimestamps() throws {
        let server = try Self.startServer()
        defer { try? server.stop() }
        let (_, input) = try Self.makeInputFLV(in: server.state)
        let base: UInt32 = 0xFF_FFFF - 1500 // crosses the 24-bit limit 1.5 s in
        var messages = input.map { RTMPMediaMessage(type: $0.type, timestamp: $0.timestamp + base, payload: $0.payload) }
        // Metadata again after the crossing: a type-0 header whose timestamp needs the extension.
        let metadata = try #require(messages.first)
        let crossing = try #require(messages.firstIndex { $0.timestamp > 0xFF_FFFF })
        messages.insert(RTMPMediaMessage(type: .dataAMF0, timestamp: messages[crossing].timestamp,
                                         payload: metadata.payload), at: crossing)

        let name = "camcast-ext"
        let publisher = RTMPPublisher(url: try RTMPURL(parsing: server.url(app: "rec", name: name)),
                                      logger: LogCapture().logger())
        try publisher.connect()
        for message in messages { try publisher.send(message) }
        publisher.close()
        try server.stop()

        let recording = server.recording(name).path
        let times = try Self.videoPacketTimes(recording)
        #expect(abs(times.count - 90) <= 1)
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 > 0.02 && $0 < 0.05 }, "a timestamp jumped: \(steps.filter { $0 <= 0.02 || $0 >= 0.05 })")
        #expect(try ProbedVideo.decodeErrors(URL(fileURLWithPath: recording)) == "")
        #expect(server.errorLog().split(separator: "\n").filter { $0.contains("codec: data frame:") }.count == 2)
    }

    @Test("a server that stops reading makes send fail with sendTimeout, not hang", .timeLimit(.minutes(1)))
    func stalledServer() throws {
        let server = try Self.startServer()
        defer { try? server.stop() }
        let publisher = RTMPPublisher(
            url: try RTMPURL(parsing: server.url(app: "live", name: "stall")),
            options: RTMPPublisherOptions(sendTimeoutSeconds: 1), logger: LogCapture().logger())
        try publisher.connect()

        // Freeze nginx's worker (the master's child): the kernel buffers fill, then send() blocks.
        let workers = try server.workerPIDs()
        try #require(!workers.isEmpty, "no nginx worker found")
        workers.forEach { kill($0, SIGSTOP) }
        defer { workers.forEach { kill($0, SIGCONT) } }

        let payload = [UInt8](repeating: 0x27, count: 256 * 1024)
        var failure: RTMPError?
        var slowest = Duration.zero
        let total = ContinuousClock.now
        for n in 0..<2000 where failure == nil {
            let start = ContinuousClock.now
            do throws(RTMPError) {
                try publisher.send(RTMPMediaMessage(type: .video, timestamp: UInt32(n * 33), payload: payload))
            } catch {
                failure = error
            }
            slowest = max(slowest, ContinuousClock.now - start)
            if ContinuousClock.now - total > .seconds(30) { break }
        }
        let error = try #require(failure, "sends to a frozen server never failed")
        #expect(error.kind == .sendTimeout)
        #expect(slowest < .seconds(5), "one send blocked \(slowest)")
        #expect(!publisher.isPublishing)
    }
}
