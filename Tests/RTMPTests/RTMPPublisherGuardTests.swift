import Foundation
import Logging
import RTMPAddress
import TestSupport
import Testing
@testable import RTMP

/// `RTMPPublisher.connect()` against a server in this process that completes the RTMP handshake
/// and then sends what the test gives it: what librtmp would have parsed now ends the attempt as a
/// protocol violation, at once and with the reason, and the key never shows.
@Suite("RTMPPublisher against a hostile server")
struct RTMPPublisherGuardTests {
    static let key = "gUaRd-KeY-0042"

    /// Accepts one connection: reads C0+C1, answers S0+S1+S2 followed directly by `afterHandshake`
    /// (one write, so librtmp's handshake read takes some of it into its own buffer), reads C2,
    /// then keeps the connection open until the client closes it.
    static func serve(_ listener: LoopbackListener, afterHandshake: [UInt8]) {
        let fd = listener.fd
        Thread.detachNewThread {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            func read(_ count: Int) -> [UInt8]? {
                var bytes = [UInt8](repeating: 0, count: count)
                var done = 0
                while done < count {
                    let n = bytes[done...].withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                    guard n > 0 else { return nil }
                    done += n
                }
                return bytes
            }
            guard let c0c1 = read(1537) else { return }
            let reply = [UInt8(3)] + [UInt8](repeating: 0, count: 1536) + c0c1.dropFirst() + afterHandshake
            _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            _ = read(1536)
            var sink = [UInt8](repeating: 0, count: 4096)
            while recv(connection, &sink, sink.count, 0) > 0 {}
        }
    }

    static func attempt(_ afterHandshake: [UInt8]) throws -> (error: RTMPError?, seconds: Double, logs: [String]) {
        let listener = try LoopbackListener()
        serve(listener, afterHandshake: afterHandshake)
        let logs = LogCapture()
        let url = try RTMPURL(parsing: "rtmp://127.0.0.1:\(listener.port)/live/\(key)")
        let publisher = RTMPPublisher(url: url, options: RTMPPublisherOptions(connectTimeoutSeconds: 5), logger: logs.logger())
        let start = ContinuousClock.now
        var failure: RTMPError?
        do throws(RTMPError) { try publisher.connect() } catch { failure = error }
        let seconds = Double((ContinuousClock.now - start).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - start).components.seconds)
        publisher.close()
        return (failure, seconds, logs.all)
    }

    @Test("a 16 MiB message declared right after the handshake is refused from its header")
    func hugeMessageAfterHandshake() throws {
        let header = Array(TestChunks.message(id: 3, type: 20, body: [], declaredLength: 0xFF_FFFF).prefix(12))
        let (error, seconds, _) = try Self.attempt(header)
        let failure = try #require(error)
        #expect(failure.kind == .protocolViolation(reason: "server message of 16777215 bytes exceeds the 65536-byte limit"))
        #expect(seconds < 2, "took \(seconds) s: the violation must end the attempt, not the timeout")
        #expect(!failure.description.contains(Self.key))
    }

    @Test("AMF0 nested 20 000 deep in a small enough message never reaches librtmp's recursive decoder")
    func deepAMFWithinSizeLimit() throws {
        // 9 000 levels fit in 64 KiB; with Set Chunk Size first, it is one chunk.
        let body = TestChunks.string("_result") + TestChunks.number(1) + TestChunks.null + TestChunks.nested(depth: 9000)
        let bytes = TestChunks.setChunkSize(65536) + TestChunks.message(id: 3, type: 20, body: body, chunkSize: 65536)
        let (error, _, _) = try Self.attempt(bytes)
        #expect(error?.kind == .protocolViolation(reason: "server AMF0 data nested deeper than 16"))
    }

    @Test("a refusal's code and description arrive masked, escaped and capped")
    func refusalShownSafely() throws {
        // Checked and handed to librtmp before any command of ours is answered: librtmp logs the
        // onStatus code, Camcast reads the description, the attempt is refused.
        let description = "line\nbreak \u{1B}[31m" + String(repeating: "x", count: 240) + Self.key + " rest"
        let body = TestChunks.onStatus(level: "error", code: "NetConnection.Connect.Rejected\u{07}", description: description)
        let (error, _, logs) = try Self.attempt(TestChunks.message(id: 5, type: 20, body: body))
        let failure = try #require(error)
        let text = failure.description + logs.joined(separator: "\n")
        #expect(!text.contains(String(Self.key.prefix(6))), "\(text)")
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}") && !failure.description.contains("\n"))
        #expect(failure.description.contains("NetConnection.Connect.Rejected\\x07"), "\(failure.description)")
        #expect(failure.description.contains("line\\nbreak \\x1b[31m"), "\(failure.description)")
    }
}
