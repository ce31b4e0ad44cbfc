import Logging
import Media
@testable import SRT
import Synchronization
import Testing

/// libsrt's own lines, as `SRTLibraryLog` lets them into the daemon's log: a burst, then a few a
/// second, the rest counted; an output's secrets never shown.
@Suite(.serialized)
struct SRTLibraryLogTests {
    final class Lines: Sendable {
        let all = Mutex<[(String, String?)]>([])
    }

    struct Handler: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let suppressed = event.metadata?["suppressed"].map { "\($0)" }
            lines.all.withLock { $0.append(("\(event.message)", suppressed)) }
        }
    }

    @Test func aFloodIsCutToABurstThenAFewASecondAndCounted() {
        let lines = Lines()
        let start = MonotonicTime.now()
        SRTLibraryLog.state.withLock { $0 = SRTLibraryLog.State(refilled: start) }
        SRTLibraryLog.route(to: Logger(label: "test") { _ in Handler(lines: lines) }, masking: ["s3cret-passphrase", "publish:cam7"])
        for index in 0..<1000 {
            SRTLibraryLog.receive("HANDSHAKE data buffer too small #\(index)", now: start)
        }
        #expect(lines.all.withLock { $0.count } == Int(SRTLibraryLog.burst))
        // A second later: the rate's worth, the first of them saying how many were left out.
        let later = start.adding(nanoseconds: 1_000_000_000)
        for _ in 0..<10 { SRTLibraryLog.receive("again", now: later) }
        let all = lines.all.withLock { $0 }
        #expect(all.count == Int(SRTLibraryLog.burst + SRTLibraryLog.perSecond))
        #expect(all[Int(SRTLibraryLog.burst)].1 == "\(1000 - Int(SRTLibraryLog.burst))")
        #expect(all.allSatisfy { $0.0.hasPrefix("libsrt: ") })
    }

    @Test func secretsAreMasked() {
        let lines = Lines()
        SRTLibraryLog.state.withLock { $0 = SRTLibraryLog.State() }
        SRTLibraryLog.route(to: Logger(label: "test") { _ in Handler(lines: lines) }, masking: ["s3cret-passphrase", "publish:cam7"])
        SRTLibraryLog.receive("streamid publish:cam7 rejected, key s3cret-passphrase")
        #expect(lines.all.withLock { $0.map(\.0) } == ["libsrt: streamid **** rejected, key ****"])
    }
}
