import Foundation
import TestSupport
import Testing

/// Issue 42's loss case: 5 % of the packets lost at random both ways (nftables numgen in a network
/// namespace of the test's own; this kernel has no netem), 60 s of a 1.5 Mbit/s stream. SRT, with
/// its retransmissions inside `latency_ms`, must bring srt-live-transmit nearly every picture and
/// every GOP; RTMP over TCP to nginx-rtmp, on the same link with the same loss in the same run, is
/// the comparison, printed beside it.
@Suite(.serialized, .enabled(if: Environment.networkFaultsEnabled, Environment.networkFaultsSkipReason))
struct SRTLossTests {
    static let lossPercent = 5
    /// SRT's latency on both sides: the listener's too, as libsrt takes the larger of the two.
    static let latencyMilliseconds = 500
    static let seconds = 60
    static let fps = 30.0
    static let keyframeSeconds = 2.0
    static let streamKey = "srt-loss-comparison"

    /// One camcast, one encoder, three outputs: SRT, RTMP and a local `.flv` file (every picture
    /// the encoder made, the reference RTMP's recording is matched against). Adaptive bitrate off:
    /// it follows the slowest output, so an RTMP leg slowed by the loss would lower what SRT
    /// carries too; off, both carry the same 1.5 Mbit/s stream. 960x540: a size 1.5 Mbit/s serves.
    static func config(in dir: URL, srtPort: UInt16, rtmp: String, reference: URL) throws -> URL {
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            source:
              type: testpattern
              size: 960x540
              fps: \(Int(fps))
            encoder:
              bitrate_kbps: 1500
              keyframe_interval_seconds: \(keyframeSeconds)
              adaptive_bitrate: false
            outputs:
              - url: srt://127.0.0.1:\(srtPort)
                latency_ms: \(latencyMilliseconds)
              - url: \(rtmp)
              - path: \(reference.path)
            """.write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    @Test(.timeLimit(.minutes(4)))
    func atFivePercentLossSRTDeliversEveryGOPBesideRTMPOverTCP() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        try #require(FileManager.default.isExecutableFile(atPath: SRTOutputTests.srtLiveTransmit), "srt-tools is missing (scripts/install-deps)")
        let dir = try Project.scratchDirectory("srt-loss")
        let namespace = try NetworkNamespace()
        // Ethernet's MTU on the namespace's loopback, before any connection: TCP's segments are
        // then the size of SRT's packets (1316 B of payload), so 5 % of the packets is 5 % of the
        // bytes to both, not 5 % of 64 KiB loopback segments.
        try namespace.run(["ip", "link", "set", "lo", "mtu", "1500"])
        let server = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"], namespace: namespace)
        let srtPort = try freeLoopbackUDPPort()
        let recording = dir.appendingPathComponent("srt.ts")
        let receiverStatistics = dir.appendingPathComponent("receiver.json")
        let listener = try SRTLinkTests.listener(
            in: namespace, port: srtPort, file: recording, statistics: receiverStatistics, query: "&latency=\(Self.latencyMilliseconds)")
        defer { listener.stop() }
        // Every packet but the handshake's. When the listener's conclusion response is lost (one
        // run in twenty at 5 %), the caller repeats its conclusion request, and libsrt 1.5's
        // listener, which has accepted the connection by then, answers it with a rejection
        // ("Rogue peer or incorrect parameters", reason 4; Haivision/srt#1648 and #2771, open).
        // camcast retries, as it should, but srt-live-transmit takes one connection (-a:no) and
        // exits with nothing written once the accepted one dies unused: seen in a CI run and
        // again here (224 SRT packets in 60 s, camcast's connect attempts to a closed port).
        // What this test measures is the stream's recovery from loss, not the handshake's.
        try namespace.loseRandomly(percent: Self.lossPercent, port: Int(srtPort), transport: "udp", sparing: NetworkNamespace.srtHandshake)
        try namespace.loseRandomly(percent: Self.lossPercent, port: server.port, transport: "tcp")
        let reference = dir.appendingPathComponent("encoded.flv")
        let config = try Self.config(in: dir, srtPort: srtPort, rtmp: server.url(app: "rec", name: Self.streamKey), reference: reference)
        let command = namespace.execPrefix + [Project.camcastBinary.path, "run", "--config", config.path, "--duration", "\(Self.seconds)"]
        // A harness limit: 60 s of media, the drains, a debug build's start.
        let result = try ProcessRunner.run(command[0], Array(command.dropFirst()), timeout: 180)
        // How srt-live-transmit's connection ended is printed, not judged: once in four runs it
        // exited 255 with "recvmsg: Connection was broken" after every picture had arrived (the
        // closing message is a packet the loss may take too). What it wrote is what is judged.
        let received = try listener.wait(timeout: 30)
        let srtLoss = try namespace.randomLoss(port: Int(srtPort)), rtmpLoss = try namespace.randomLoss(port: server.port)
        try server.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey) && !result.stdout.contains(Self.streamKey), "the stream key leaked into the log")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let stopped = try #require(lines.last { $0.contains(" stopped") }, "no stop summary: \(result.stderr)")
        let encoded = try #require(CamcastLog.stopCount("frames", in: stopped))
        let unencoded = CamcastLog.unencodedSlots(in: stopped) ?? 0
        func ended(_ kind: String) -> String { lines.last { $0.contains("\(kind) output ended") } ?? "no end line" }
        func percent(_ part: Int, of whole: Int) -> String { String(format: "%.2f %%", 100 * Double(part) / Double(max(whole, 1))) }
        let link = "nftables dropped SRT \(srtLoss.to.dropped) of \(srtLoss.to.seen) to the listener, "
            + "\(srtLoss.from.dropped) of \(srtLoss.from.seen) back; "
            + "RTMP \(rtmpLoss.to.dropped) of \(rtmpLoss.to.seen) to nginx, \(rtmpLoss.from.dropped) of \(rtmpLoss.from.seen) back"
        print("SRTLossTests link: \(link)")
        // What the two ends said, before anything is judged: a file ffprobe cannot read is then
        // explained (once in a CI run: 223 SRT packets in all, 8 back, and no picture).
        let recorded = (try? FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0
        print("SRTLossTests ends: srt-live-transmit exit \(received.status), \(recorded) bytes written, said: "
            + "\(received.stderr.split(separator: "\n").suffix(5).joined(separator: " | ")); camcast's SRT lines: "
            + lines.filter { $0.contains("SRT") }.prefix(12).joined(separator: " | "))

        // SRT, judged by ffprobe and ffmpeg on what srt-live-transmit wrote. A picture counts as
        // decodable when ffprobe decoded it, less one for each line the decoder complained with
        // (a line spoils at most one picture, so this is a lower bound).
        let video = try ProbedVideo.probe(recording)
        let complaints = try FFmpegTools.result("ffmpeg", ["-v", "error", "-i", recording.path, "-map", "0:v:0", "-f", "null", "-"]).stderr
            .split(separator: "\n")
        let decodable = video.decodedFrames - complaints.count
        // MPEG-TS's clock: ffprobe gives a TS packet's times in 90 kHz ticks.
        let times = video.packets.map { Double($0.dtsMilliseconds) / 90_000 }
        let keyframes = video.packets.indices.filter { video.packets[$0].isKeyframe }.map { times[$0] }
        let keyframeGaps = zip(keyframes, keyframes.dropFirst()).map { $1 - $0 }
        // A lost GOP, by the keyframe schedule (KeyframeScheduleCheck): each keyframe is the first
        // picture at or after the interval less half a frame (`due`) from the one before. With a
        // GOP lost, the two keyframes around it are at least 2 × due apart; without, at most due
        // plus the longest wait between two pictures the encoder made — one frame, plus the slots
        // the run left unencoded (its stop line), should all of them have been in a row. A gap
        // longer than both can only be a lost GOP, at any speed. The first GOP must be there (the
        // file starts with a keyframe); a GOP lost at the very end would cost 60 pictures, 3 % of
        // the run, which the picture count below does not allow.
        let due = Self.keyframeSeconds - 0.5 / Self.fps
        let lostGOPGap = max(2 * due, due + Double(unencoded + 1) / Self.fps) - 0.001
        let lostGOPs = keyframeGaps.filter { $0 >= lostGOPGap }
        let longestHole = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
        let receiver = (try? String(contentsOf: receiverStatistics, encoding: .utf8))?.split(separator: "\n").last
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let counts = (receiver?["recv"] as? [String: Any]) ?? [:]
        let receiverCounts = ["packetsUnique", "packetsLost", "packetsRetransmitted", "packetsDropped", "packetsBelated"]
            .map { "\($0) \(counts[$0].map { "\($0)" } ?? "?")" }.joined(separator: ", ")
        print("SRTLossTests SRT: latency \(Self.latencyMilliseconds) ms, \(decodable) of \(encoded) encoded pictures decodable at srt-live-transmit "
            + "(\(percent(decodable, of: encoded)); \(video.decodedFrames) decoded, \(complaints.count) decoder complaints); "
            + "\(keyframes.count) GOPs, \(lostGOPs.count) lost (keyframe gaps \(String(format: "%.3f", keyframeGaps.min() ?? 0))…"
            + "\(String(format: "%.3f", keyframeGaps.max() ?? 0)) s, a lost GOP ≥ \(String(format: "%.3f", lostGOPGap)) s); "
            + "longest gap between pictures \(Int(longestHole * 1000)) ms; receiver: \(receiverCounts), exit \(received.status) "
            + "\(received.stderr.split(separator: "\n").last ?? ""); \(ended("SRT"))")

        // RTMP: nginx-rtmp's recordings (one per publish) against the run's own file output,
        // picture by picture (HashedPackets: ffprobe's MD5 of each packet).
        let encodedPictures = try HashedPackets(reference)
        let recordings = try server.uniqueRecordings(Self.streamKey)
        let located = try recordings.map { encodedPictures.locate(try HashedPackets($0)) }
        let atNginx = located.reduce(0) { $0 + $1.count }
        let holes = located.flatMap(\.missing)
        let rtmpLongestHole = located.isEmpty ? 0 : encodedPictures.longestMissingMilliseconds(covered: located)
        let notAtStart = located.first.map { max(0, $0.first) } ?? encodedPictures.packets.count
        let notAtEnd = located.last.map { encodedPictures.packets.count - 1 - $0.last } ?? 0
        let reconnects = lines.count { $0.contains("RTMP reconnected") }
        let rtmpDecode = try recordings.map { try ProbedVideo.decodeErrors($0) }
        print("SRTLossTests RTMP: \(atNginx) of \(encoded) encoded pictures at nginx-rtmp (\(percent(atNginx, of: encoded))), "
            + "\(encodedPictures.packets.count) in the file output; \(holes.count) holes inside (\(holes.map(\.count)) pictures), "
            + "longest gap between recorded pictures \(rtmpLongestHole) ms (the source's skips too); "
            + "\(notAtStart) missing at the start, \(notAtEnd) at the end; "
            + "\(recordings.count) recordings, \(reconnects) reconnects; \(ended("RTMP"))")

        // The loss was there, on both paths and both ways (the kernel's own counts).
        #expect(srtLoss.to.dropped > 0 && srtLoss.from.dropped > 0 && rtmpLoss.to.dropped > 0 && rtmpLoss.from.dropped > 0, "\(link)")
        #expect(encoded > 0 && Double(decodable) >= 0.995 * Double(encoded), "\(decodable) of \(encoded) pictures decodable")
        #expect(video.codec == "h264", "\(video.codec)")
        #expect(video.packets.first?.isKeyframe == true, "the first picture must be a keyframe")
        #expect(lostGOPs.isEmpty, "keyframes \(lostGOPs) s apart: a GOP lost")
        let streams = try FFmpegTools.result("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", recording.path])
        #expect(streams.stdout.split(separator: "\n").contains("aac"), "streams: \(streams.stdout)")
        // RTMP: only what holds at any speed — the stream was recorded and decodes clean.
        #expect(atNginx > 0, "nothing of the RTMP stream recorded")
        #expect(rtmpDecode.allSatisfy { $0.isEmpty }, "\(rtmpDecode)")
    }
}
