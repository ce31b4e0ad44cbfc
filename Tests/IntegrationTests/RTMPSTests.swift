import Foundation
import TestSupport
import Testing

/// rtmps:// against nginx-rtmp behind stunnel4 on loopback, with a CA and certificates made by
/// openssl per test (`TLSTerminator`): Camcast runs the TLS handshake itself (GnuTLS: SNI, chain,
/// host name) and librtmp publishes through the session. What arrived is checked with ffprobe.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled && (Environment.requireIntegration || TLSTerminator.isInstalled),
                             "needs nginx, libnginx-mod-rtmp, ffmpeg, stunnel4 and openssl (scripts/install-deps)"))
struct RTMPSTests {
    static let streamKey = "rTmPs-kEy-4711"
    static let videoFlags = ["--size", "320x180", "--fps", "30", "--bitrate", "400", "--keyint-seconds", "1"]

    static func camcast(_ arguments: [String]) throws -> RunningProcess {
        try ProcessRunner.start(Project.camcastBinary.path, ["run"] + videoFlags + arguments)
    }

    static func expectNoKey(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.stderr.contains(streamKey), "the stream key leaked into the log", sourceLocation: sourceLocation)
        #expect(!result.stdout.contains(streamKey), sourceLocation: sourceLocation)
    }

    /// TLS 1.3 (what stunnel's OpenSSL picks) and TLS 1.2 (a terminator capped at it).
    @Test(arguments: [(nil, "TLS1.3"), ("TLSv1.2", "TLS1.2")] as [(String?, String)])
    func withTheCAFileTheStreamArrivesWhole(maxVersion: String?, negotiated: String) throws {
        let server = try RTMPServer()
        let tls = try TLSTerminator(in: try Project.scratchDirectory("tls"), backendPort: server.port, maxVersion: maxVersion)
        let result = try Self.camcast([
            "--output", "rtmps://localhost:\(tls.port)/rec/\(Self.streamKey)", "--tls-ca-file", tls.caFile.path,
            "--duration", "4",
        ]).wait(timeout: 30)
        try server.stop()  // graceful: the recording is closed

        #expect(result.status == 0, "\(result.stderr)")
        Self.expectNoKey(result)
        let published = result.stderr.split(separator: "\n").filter { $0.contains("RTMP publishing") }
        #expect(published.count == 1, "one connection, no retry: \(result.stderr)")
        // With TLS 1.3 the server's post-handshake session tickets reach only Camcast's reader,
        // never librtmp's (whose read would take GnuTLS's AGAIN for a byte count).
        #expect(published.first?.contains("tls=\(negotiated)") == true, "\(published)")
        #expect(tls.log.contains("connected remote server"), "stunnel forwarded the connection: \(tls.log)")
        // librtmp took its tcUrl from the rtmps:// URL but started no TLS of its own (a second TLS
        // layer inside the first would not have reached nginx as RTMP).
        #expect(server.errorLog().contains("tc_url='rtmps://localhost:\(tls.port)/rec'"), "\(server.errorLog())")

        let video = try ProbedVideo.probe(server.recording(Self.streamKey))
        // 4 s at 30 fps: every encoded frame arrives (the output reports none dropped or discarded),
        // and those with the slots no picture filled on a loaded machine (skipped at the source or
        // dropped at the encoder's full queue) fill the 120.
        let encoded = CamcastLog.stopCount("frames", in: result.stderr), unencoded = CamcastLog.unencodedSlots(in: result.stderr)
        #expect(video.decodedFrames == encoded, "recorded \(video.decodedFrames) of \(encoded.map(String.init) ?? "?") frames encoded")
        #expect(abs((encoded ?? 0) + (unencoded ?? 0) - 120) <= 2, "\(encoded.map(String.init) ?? "?") encoded + \(unencoded.map(String.init) ?? "?") skipped or dropped at the encoder of 120 slots")
        #expect(video.packets.count == video.decodedFrames)
        #expect(result.stderr.contains("RTMP output ended discarded=0 dropped=0"), "\(result.stderr)")
        #expect(try ProbedVideo.decodeErrors(server.recording(Self.streamKey)) == "")
    }

    /// An RSA-keyed certificate from an RSA CA (certbot's default for years, and stunnel's and
    /// nginx's examples) for a host name and for an address, over TLS 1.3 and 1.2. Camcast used
    /// to refuse them as "issued for another name": GnuTLS keeps the name given to
    /// gnutls_session_set_verify_cert, and it was a Swift temporary freed before the handshake
    /// read it (verifying an RSA chain allocates enough to reuse that memory; ECDSA's happened
    /// not to).
    @Test(arguments: [("localhost", nil), ("localhost", "TLSv1.2"), ("127.0.0.1", nil), ("127.0.0.1", "TLSv1.2")] as [(String, String?)])
    func anRSACertificateIsAccepted(host: String, maxVersion: String?) throws {
        let server = try RTMPServer()
        let tls = try TLSTerminator(in: try Project.scratchDirectory("tls"), backendPort: server.port, key: .rsa2048,
                                    maxVersion: maxVersion)
        let process = try Self.camcast([
            "--output", "rtmps://\(host):\(tls.port)/rec/\(Self.streamKey)", "--tls-ca-file", tls.caFile.path,
        ])
        let published = process.waitForLog("RTMP publishing", timeout: 20)
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 20)
        #expect(published, "\(result.stderr)")
        #expect(!result.stderr.contains("certificate refused"), "\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectNoKey(result)
        #expect(tls.log.contains("connected remote server"), "\(tls.log)")
    }

    /// Runs camcast against `tls` for a few seconds and returns its log; nothing may reach nginx.
    static func refused(by tls: TLSTerminator, server: RTMPServer, caFile: URL?) throws -> ProcessResult {
        let process = try Self.camcast(
            ["--output", "rtmps://localhost:\(tls.port)/rec/\(Self.streamKey)", "--reconnect-healthy-after", "1"]
                + (caFile.map { ["--tls-ca-file", $0.path] } ?? []))
        // Retried like any failure: wait for the second refusal.
        let refusedTwice = process.waitForLog("server certificate refused", count: 2, timeout: 20)
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 20)
        #expect(refusedTwice, "\(result.stderr)")
        #expect(result.status == 0, "a refused certificate is retried, not fatal: \(result.stderr)")
        #expect(!result.stderr.contains("RTMP publishing"), "\(result.stderr)")
        expectNoKey(result)
        // Nothing reached the RTMP server: stunnel never connected to it (nginx's one "client
        // connected" is rtmp-server's own port probe at start), nginx saw no connect or publish.
        #expect(!tls.log.contains("connected remote server"), "\(tls.log)")
        #expect(!server.errorLog().contains("connect: app="), "\(server.errorLog())")
        #expect(!server.errorLog().contains("publish: name="), "\(server.errorLog())")
        #expect(!FileManager.default.fileExists(atPath: server.recording(streamKey).path))
        return result
    }

    @Test func withoutTheCAFileTheUnknownIssuerIsRefused() throws {
        let server = try RTMPServer()
        let tls = try TLSTerminator(in: try Project.scratchDirectory("tls"), backendPort: server.port)
        let result = try Self.refused(by: tls, server: server, caFile: nil)
        #expect(result.stderr.contains("server certificate refused: unknown issuer"), "\(result.stderr)")
        #expect(!result.stderr.contains("another name"), "\(result.stderr)")
    }

    @Test func aCertificateForAnotherNameIsRefused() throws {
        let server = try RTMPServer()
        let tls = try TLSTerminator(in: try Project.scratchDirectory("tls"), backendPort: server.port,
                                    certificateNames: "DNS:ingest.elsewhere.example")
        let result = try Self.refused(by: tls, server: server, caFile: tls.caFile)
        #expect(result.stderr.contains("server certificate refused: issued for another name than localhost"), "\(result.stderr)")
        #expect(!result.stderr.contains("unknown issuer"), "the CA file was trusted: \(result.stderr)")
    }

    @Test func killingTheTerminatorMidStreamRebuildsTheTLSSession() throws {
        let server = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        let tls = try TLSTerminator(in: try Project.scratchDirectory("tls"), backendPort: server.port)
        let reference = try Project.scratchDirectory("tls-kill").appendingPathComponent("reference.flv")
        let process = try Self.camcast([
            "--output", "rtmps://localhost:\(tls.port)/rec/\(Self.streamKey)", "--tls-ca-file", tls.caFile.path,
            "--reconnect-healthy-after", "1", "--output", reference.path,
        ])
        try #require(process.waitForLog("RTMP publishing", timeout: 20), "never published: \(process.stderrSoFar)")
        usleep(3_000_000)
        try tls.kill()
        usleep(1_500_000)
        try tls.start()
        let reconnected = process.waitForLog("RTMP reconnected", timeout: 20)
        usleep(3_000_000)
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 20)
        try server.stop()

        #expect(reconnected, "\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectNoKey(result)
        #expect(result.stderr.split(separator: "\n").filter { $0.contains("RTMP publishing") && $0.contains("tls=TLS1.3") }.count == 2,
                "a new TLS session per connection: \(result.stderr)")
        #expect(tls.log.components(separatedBy: "connected remote server").count - 1 == 2, "\(tls.log)")
        let recordings = try server.uniqueRecordings(Self.streamKey)
        try #require(recordings.count == 2, "one recording per publish: \(recordings.map(\.lastPathComponent))")
        let unencoded = try #require(CamcastLog.unencodedSlots(in: result.stderr), "no stop summary\n\(result.stderr)")
        for file in recordings {
            let check = try ResumedStreamCheck(file, unencodedSlots: unencoded)
            #expect(check.problems.isEmpty, "\(check.problems)")
        }
        // The first session from the run's first picture, the second from a keyframe to the end,
        // each without a picture missing (found by bytes in an FLV output of the same run).
        let encoded = try HashedPackets(reference)
        let before = try encoded.locate(HashedPackets(recordings[0]))
        let after = try encoded.locate(HashedPackets(recordings[1]))
        #expect(before.problems.isEmpty && after.problems.isEmpty && after.startsWithKeyframe, "\(before.problems) \(after.problems)")
        #expect(before.first == 0 && after.last == encoded.packets.count - 1 && after.first > before.last,
                "#\(before.first)…#\(before.last), then #\(after.first)…#\(after.last) of \(encoded.packets.count)")
    }
}
