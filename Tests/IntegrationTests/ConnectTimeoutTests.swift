import Foundation
import TestSupport
import Testing

/// `--connect-timeout` bounds a connection attempt as a whole, whatever the server does; with
/// `--no-reconnect` the end of it is one error line and a non-zero exit.
@Suite struct ConnectTimeoutTests {
    static let streamKey = "cOnNeCt-TiMeOuT-kEy-77"

    /// The server completes the TCP handshake and never answers the RTMP one: the kernel takes the
    /// connection into the listen backlog and camcast's C0+C1 sit unread.
    @Test(.timeLimit(.minutes(1)))
    func aServerSilentInTheHandshakeTimesOutAfterTheFlagsSeconds() throws {
        let server = try LoopbackListener()
        try Self.expectTimeout(connectingTo: server.port)
    }

    /// The server answers the handshake one byte every 0.3 s, so no single read ever times out;
    /// the attempt must still end at the flag's 2 s.
    @Test(.timeLimit(.minutes(1)))
    func aServerTricklingTheHandshakeTimesOutAfterTheFlagsSeconds() throws {
        let server = try LoopbackListener()
        server.trickle(every: 0.3)
        try Self.expectTimeout(connectingTo: server.port)
    }

    /// camcast with `--connect-timeout 2` against `port` gives up by itself after 2 s (at least
    /// that, so the timeout ended it, and well before the default 10 s), naming the masked URL.
    static func expectTimeout(connectingTo port: UInt16) throws {
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", "testpattern", "--size", "320x240", "--no-reconnect", "--connect-timeout", "2",
             "--output", "rtmp://127.0.0.1:\(port)/live/\(streamKey)"],
            timeout: 30)
        #expect(result.status != 0 && result.status != 143, "must fail by itself: status \(result.status), \(result.stderr)")
        // Nearer the 2 s asked than the 10 s default (midway, 6 s), whatever the process's own
        // start and stop cost on this machine.
        #expect(result.seconds >= 1.9 && result.seconds < 6, "exited after \(result.seconds) s")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("camcast: error:") }
        #expect(errors.count == 1, "\(result.stderr)")
        let error = errors.first.map(String.init) ?? ""
        #expect(error.contains("rtmp://127.0.0.1:\(port)/live/****") && error.contains("timed out"), "\(error)")
        #expect(!result.stderr.contains(streamKey) && !result.stdout.contains(streamKey), "the stream key leaked")
    }
}

extension LoopbackListener {
    /// From now on, accepts one connection and sends it a byte every `interval` seconds until it
    /// closes: an RTMP S0 (version 3), then S1 one byte at a time.
    func trickle(every interval: Double) {
        let fd = fd
        Thread.detachNewThread {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var byte: UInt8 = 3
            while send(connection, &byte, 1, Int32(MSG_NOSIGNAL)) == 1 {
                usleep(UInt32(interval * 1_000_000))
            }
        }
    }
}
