import Conversion
import Encoder
import Foundation
import Logging
import Media
import Synchronization

/// Collects what a session delivers; the output handler may run on any thread.
final class PictureCollector: Sendable {
    private let pictures = Mutex<[EncodedPicture]>([])

    func add(_ picture: EncodedPicture) {
        pictures.withLock { $0.append(picture) }
    }

    var all: [EncodedPicture] {
        pictures.withLock { $0 }
    }
}

/// A log handler that keeps messages so tests can check what was logged.
struct CapturingLogHandler: LogHandler {
    final class Store: Sendable {
        private let lines = Mutex<[(Logger.Level, String)]>([])
        func add(_ level: Logger.Level, _ text: String) { lines.withLock { $0.append((level, text)) } }
        var messages: [(level: Logger.Level, text: String)] { lines.withLock { $0.map { (level: $0.0, text: $0.1) } } }
    }

    let store: Store
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.add(event.level, "\(event.message)")
    }
}

enum Harness {
    /// A logger that only shows warnings and worse, so test output stays readable.
    static var quietLogger: Logger {
        var logger = Logger(label: "camcast.encoder.test")
        logger.logLevel = .warning
        return logger
    }

    static func capturingLogger() -> (Logger, CapturingLogHandler.Store) {
        let store = CapturingLogHandler.Store()
        let logger = Logger(label: "camcast.encoder.test") { _ in CapturingLogHandler(store: store) }
        return (logger, store)
    }

    static func settings(
        width: Int = 320, height: Int = 180, fps: Int = 30, kbps: Int = 800,
        configure: (inout EncoderSettings) -> Void = { _ in }
    ) -> EncoderSettings {
        var settings = EncoderSettings(
            size: VideoSize(width: width, height: height), frameRate: FrameRate(numerator: fps), bitrateKbps: kbps)
        configure(&settings)
        return settings
    }

    /// A fresh path in the temporary directory.
    static func temporaryFile(_ name: String) -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-encoder-tests")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    }

    /// Writes pictures as an Annex-B file, from the first keyframe on; returns its path.
    static func writeAnnexB(_ pictures: [EncodedPicture], name: String) throws -> String {
        let path = temporaryFile(name)
        try Data(pictures.drop { !$0.isKeyframe }.flatMap(\.annexB)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Encodes `count` synthetic frames, calling `beforeFrame` with each index first, then flushes.
    /// Each frame goes through the conversion stage first, as in the pipeline (the session takes
    /// only I420/NV12 at its size).
    static func encode(
        _ settings: EncoderSettings, count: Int, format: PixelFormat = .i420,
        sourceWidth: Int? = nil, sourceHeight: Int? = nil,
        logger: Logger = quietLogger,
        beforeFrame: (Int, EncoderSession) -> Void = { _, _ in }
    ) throws -> [EncodedPicture] {
        let collector = PictureCollector()
        let session = try EncoderSession(settings: settings, logger: logger) { collector.add($0) }
        let conversion = ConversionStage(size: settings.size, scaling: settings.scaling)
        for index in 0..<count {
            beforeFrame(index, session)
            let frame = TestFrames.frame(
                format, width: sourceWidth ?? settings.size.width, height: sourceHeight ?? settings.size.height,
                index: index
            ).frame
            try conversion.convert(frame) { try session.encode($0) }
        }
        try session.flush()
        return collector.all
    }
}
