@testable import Capture
import Logging
import Testing

/// The MJPEG step allocates nothing per frame: it decodes into two pictures in turn, and a
/// picture somebody kept is never written over.
@Suite struct MJPEGFrameDecodingTests {
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    static func address(_ picture: [UInt8]) -> UnsafeRawPointer? {
        picture.withUnsafeBytes { $0.baseAddress }
    }

    @Test func decodesIntoTwoBuffersInTurn() throws {
        let images = MJPEGClip.images(try MJPEGClip.stream(frames: 6))
        let decoding = try #require(MJPEGFrameDecoding(width: 320, height: 180, keepsLastPicture: true, logger: Self.logger, countCorrupt: {}))
        var addresses: [UnsafeRawPointer?] = []
        for (index, image) in images.enumerated() {
            // Each picture is dropped before the next decode, as the encoder drops its frame.
            let picture = try #require(image.withUnsafeBytes { decoding.decode($0, sequence: UInt64(index)) })
            #expect(picture.count == 320 * 180 * 3 / 2)
            addresses.append(Self.address(picture))
        }
        #expect(Set(addresses.map { $0.map(UInt.init(bitPattern:)) }).count == 2)
        #expect(addresses[0] == addresses[2] && addresses[2] == addresses[4])
        #expect(addresses[1] == addresses[3] && addresses[3] == addresses[5])
    }

    /// A source that keeps nothing (the replay source) decodes every frame into one buffer.
    @Test func withoutAKeptPictureOneBufferServesEveryFrame() throws {
        let images = MJPEGClip.images(try MJPEGClip.stream(frames: 4))
        let decoding = try #require(MJPEGFrameDecoding(width: 320, height: 180, keepsLastPicture: false, logger: Self.logger, countCorrupt: {}))
        var addresses: Set<UInt> = []
        for (index, image) in images.enumerated() {
            let picture = try #require(image.withUnsafeBytes { decoding.decode($0, sequence: UInt64(index)) })
            addresses.insert(UInt(bitPattern: Self.address(picture)))
        }
        #expect(addresses.count == 1)
        // Still safe if a consumer does keep one: copy-on-write gives the next decode its own buffer.
        let kept = try #require(images[0].withUnsafeBytes { decoding.decode($0, sequence: 0) })
        let copy = Array(kept)
        _ = try #require(images[1].withUnsafeBytes { decoding.decode($0, sequence: 1) })
        #expect(kept == copy)
    }

    /// A kept picture (a consumer holding a frame; the V4L2 loop's last good frame) stays as it was
    /// while later frames are decoded, and a bad frame does not spoil the last good one.
    @Test func aKeptPictureIsNeverOverwritten() throws {
        let images = MJPEGClip.images(try MJPEGClip.stream(frames: 4))
        var corrupt = 0
        let decoding = try #require(MJPEGFrameDecoding(width: 320, height: 180, keepsLastPicture: true, logger: Self.logger, countCorrupt: { corrupt += 1 }))
        let kept = try #require(images[0].withUnsafeBytes { decoding.decode($0, sequence: 0) })
        let copy = Array(kept)
        let last = try #require(images[1].withUnsafeBytes { decoding.decode($0, sequence: 1) })
        let lastCopy = Array(last)
        // A truncated frame fails midway, after writing part of the buffer it decodes into.
        #expect(Array(images[2].prefix(images[2].count / 2)).withUnsafeBytes { decoding.decode($0, sequence: 2) } == nil)
        _ = try #require(images[3].withUnsafeBytes { decoding.decode($0, sequence: 3) })
        #expect(corrupt == 1)
        #expect(kept == copy)
        #expect(last == lastCopy)
        #expect(kept != last)
    }

    /// Log messages at warning, kept for a test to count.
    final class Warnings: LogHandler, @unchecked Sendable {
        // Used from the test's one thread only.
        var messages: [String] = []
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            guard event.level == .warning else { return }
            messages.append("\(event.message) count=\(event.metadata?["count"].map { "\($0)" } ?? "")")
        }
    }

    /// Issue 25: a corrupt clip logged one warning per bad frame (51 lines in 3 s). Now every bad
    /// frame is counted, and reported once, then at most once per 10 s with a count.
    @Test func badFramesAreCountedEachAndReportedOncePerInterval() throws {
        let warnings = Warnings()
        let logger = Logger(label: "test") { _ in warnings }
        var counted = 0
        let decoding = try #require(MJPEGFrameDecoding(width: 320, height: 180, keepsLastPicture: false, logger: logger, countCorrupt: { counted += 1 }))
        let garbage = [UInt8](repeating: 0x55, count: 4096)
        for sequence in 0..<51 {
            #expect(garbage.withUnsafeBytes { decoding.decode($0, sequence: UInt64(sequence)) } == nil)
        }
        #expect(counted == 51)
        #expect(warnings.messages == ["dropped a bad MJPEG frame count=1"])
        // Good frames in between do not reset the interval; the next report carries the count.
        let good = MJPEGClip.images(try MJPEGClip.stream(frames: 1))[0]
        #expect(good.withUnsafeBytes { decoding.decode($0, sequence: 51) } != nil)
        #expect(warnings.messages.count == 1)
    }
}
