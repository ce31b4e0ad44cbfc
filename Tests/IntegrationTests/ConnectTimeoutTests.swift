import Foundation
import TestSupport
import Testing

/// A TCP port on loopback that completes the TCP handshake and then says nothing: the kernel
/// accepts connections into the listen backlog without `accept()`, so the peer's RTMP C0+C1 sit
/// unread and no S0+S1 ever comes back — a server that hangs in the RTMP handshake.
final class SilentListener {
    let port: UInt16
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0 && listen(fd, 4) == 0
            }
        }
        guard listening else {
            close(fd)
            throw HarnessError("cannot listen on loopback: errno \(errno)")
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }

    /// From now on, accepts one connection and sends it a byte every `interval` seconds, forever:
    /// each of librtmp's reads gets something before its own timeout, so only a deadline on the
    /// whole attempt can end it.
    func trickle(every interval: Double) {
        let fd = fd
        Thread.detachNewThread {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var byte: UInt8 = 3  // S0: RTMP version 3, then S1 one byte at a time
            while send(connection, &byte, 1, Int32(MSG_NOSIGNAL)) == 1 {
                usleep(UInt32(interval * 1_000_000))
            }
        }
    }
}

/// `--connect-timeout` bounds a server that accepts the TCP connection but never answers the
/// RTMP handshake; with `--no-reconnect` that is one error line and a non-zero exit.
@Suite struct ConnectTimeoutTests {
    static let streamKey = "cOnNeCt-TiMeOuT-kEy-77"

    @Test(.timeLimit(.minutes(1)))
    func aServerSilentInTheHandshakeTimesOutAfterTheFlagsSeconds() throws {
        let server = try SilentListener()
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", "testpattern", "--size", "320x240", "--no-reconnect", "--connect-timeout", "2",
             "--output", "rtmp://127.0.0.1:\(server.port)/live/\(Self.streamKey)"],
            timeout: 30)
        #expect(result.status != 0 && result.status != 143, "must fail by itself: status \(result.status), \(result.stderr)")
        // At least the 2 s asked for (so the timeout, not some quicker failure, ended it), and well
        // before the default 10 s.
        #expect(result.seconds >= 1.9 && result.seconds < 5, "exited after \(result.seconds) s")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("camcast: error:") }
        #expect(errors.count == 1, "\(result.stderr)")
        let error = errors.first.map(String.init) ?? ""
        #expect(error.contains("rtmp://127.0.0.1:\(server.port)/live/****"), "\(error)")
        #expect(error.contains("timed out"), "\(error)")
        #expect(!result.stderr.contains(Self.streamKey) && !result.stdout.contains(Self.streamKey), "the stream key leaked")
    }

    /// A server that answers the handshake one byte every 0.3 s never lets a single read time
    /// out; the attempt as a whole must still end at the flag's 2 s.
    @Test(.timeLimit(.minutes(1)))
    func aServerTricklingTheHandshakeTimesOutAfterTheFlagsSeconds() throws {
        let server = try SilentListener()
        server.trickle(every: 0.3)
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", "testpattern", "--size", "320x240", "--no-reconnect", "--connect-timeout", "2",
             "--output", "rtmp://127.0.0.1:\(server.port)/live/\(Self.streamKey)"],
            timeout: 30)
        #expect(result.status != 0 && result.status != 143, "must fail by itself: status \(result.status), \(result.stderr)")
        #expect(result.seconds >= 1.9 && result.seconds < 4, "exited after \(result.seconds) s")
        let error = result.stderr.split(separator: "\n").last { $0.hasPrefix("camcast: error:") }.map(String.init) ?? ""
        #expect(error.contains("rtmp://127.0.0.1:\(server.port)/live/****") && error.contains("timed out"), "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey), "the stream key leaked")
    }
}
