#if canImport(Glibc)
import Glibc
#endif
import Logging
import Media
import Synchronization
import V4L2

/// Plays a recording of what a camera sends — an MJPEG stream, or raw frames in any pixel format
/// the V4L2 path accepts — through the code the V4L2 path uses: JPEGs are decoded by
/// `MJPEGFrameDecoding` (bad ones dropped and counted, as from a camera) and raw frames are
/// delivered in the device layout `V4L2FrameLayout` gives, for the conversion stage (`ConversionStage`).
/// So a format can be tested, and benchmarked, without the camera.
///
/// Pacing, skipping and looping are `FilePlayback`'s, as for a y4m clip. Raw frames, from a file
/// or a pipe, are read into one buffer reused for every frame, as JPEGs are (`deliver` is
/// synchronous and the encoder copies the picture), and the overlay draws on that buffer in place.
/// They used to be mapped from the file (privately) and lent: drawing on a private mapping copies
/// every 4 KiB page the text touches, every frame (see `Y4MFileSource`).
public final class CameraReplaySource: FrameSource {
    public let settings: CameraReplaySettings
    private let logger: Logger
    private let onEnd: @Sendable ((any Error)?) -> Void
    private let layout: V4L2FrameLayout
    private let input: Lock<Reader?>
    private let thread = SourceThread(name: SourceThreadName.capture, alreadyStarted: CaptureError.alreadyStarted, threadStartFailed: CaptureError.threadStartFailed(errno:))
    private let playing = PlayingInput()
    private let playback: FilePlayback
    private let skipped = Atomic<Int>(0)
    private let corrupt = Atomic<Int>(0)
    private let framesEverRead = Atomic<Bool>(false)

    /// What the file is read with; kept between runs so a restart carries on where it stopped.
    private enum Reader: Sendable {
        case mjpeg(MJPEGStreamReader<Y4MFileInput>)
        case raw(Y4MFileInput)
    }

    /// Opens the input. Throws `Y4MError.systemCallFailed` when it cannot be opened, `CaptureError`
    /// for a size or format Camcast cannot take.
    public init(
        settings: CameraReplaySettings, logger: Logger, onEnd: @escaping @Sendable ((any Error)?) -> Void = { _ in }
    ) throws {
        let size = settings.size
        if let reason = size.unsupportedReason(requiringEven: false) {
            throw CaptureError.invalidSize(width: size.width, height: size.height, reason: reason)
        }
        guard settings.frameRate.isSupported else { throw CaptureError.invalidFrameRate(settings.frameRate.description) }
        switch settings.format {
        case .mjpeg:
            guard size.width % 2 == 0, size.height % 2 == 0 else {
                throw CaptureError.invalidSize(width: size.width, height: size.height, reason: "MJPEG is decoded to 4:2:0, which needs even width and height")
            }
            layout = .decodedMJPEG(width: size.width, height: size.height)
        case .raw(let format):
            guard format != .mjpeg,
                let layout = V4L2FrameLayout(pixelFormat: format, width: size.width, height: size.height, bytesPerLine: 0, sizeImage: 0)
            else {
                throw CaptureError.invalidSize(width: size.width, height: size.height, reason: "\(format.rawValue) needs even width and height")
            }
            self.layout = layout
        }
        self.settings = settings
        playback = FilePlayback(pace: settings.pace, loop: settings.loop, interval: settings.frameRate.frameIntervalNanoseconds)
        self.logger = logger
        self.onEnd = onEnd
        input = Lock(try Self.open(settings))
    }

    private static func open(_ settings: CameraReplaySettings) throws(Y4MError) -> Reader {
        let file = try Y4MFileInput(path: settings.path)
        switch settings.format {
        case .mjpeg: return .mjpeg(MJPEGStreamReader(input: file))
        case .raw: return .raw(file)
        }
    }

    /// The size in the first JPEG of an MJPEG file: what the camera was sending. Reads the file
    /// once; not for a pipe, which could not be read again.
    public static func mjpegSize(path: String) throws -> VideoSize {
        var reader = MJPEGStreamReader(input: try Y4MFileInput(path: path))
        var frame: [UInt8] = []
        guard try reader.readFrame(into: &frame) else { throw CaptureError.invalidSettings("\(path) holds no JPEG image") }
        guard let decoder = MJPEGDecoder(), let size = frame.withUnsafeBytes({ decoder.size(of: $0) }) else {
            throw CaptureError.invalidSettings("the first JPEG image in \(path) has no readable header")
        }
        return VideoSize(width: size.width, height: size.height)
    }

    /// Bytes of one raw frame of `format` at `size`, tightly packed; nil if the format cannot have
    /// that size (odd 4:2:0) or is not raw.
    public static func rawFrameByteCount(_ format: PixelFormat, size: VideoSize) -> Int? {
        guard format != .mjpeg else { return nil }
        return V4L2FrameLayout(pixelFormat: format, width: size.width, height: size.height, bytesPerLine: 0, sizeImage: 0)?.byteCount
    }

    public var size: VideoSize { settings.size }
    public var frameRate: FrameRate { settings.frameRate }
    public var skippedFrames: Int { skipped.load(ordering: .relaxed) }
    /// JPEG frames dropped because they did not decode (corrupt, truncated, another size).
    public var corruptFrames: Int { corrupt.load(ordering: .relaxed) }
    public var badFrames: Int { corruptFrames }

    public func start(deliver: @escaping @Sendable (VideoFrame) -> Void) throws {
        let reader = try input.withLock { input throws -> Reader in
            if let reader = input {
                input = nil
                return reader
            }
            guard !settings.isStandardInput else {
                throw CaptureError.cannotRestart("standard input has ended and cannot be read again")
            }
            return try Self.open(settings)
        }
        // Made here, not on the thread, so a missing decompressor fails the start.
        var mjpeg: MJPEGFrameDecoding?
        if case .mjpeg = settings.format {
            mjpeg = MJPEGFrameDecoding(
                width: layout.width, height: layout.height, keepsLastPicture: false, logger: logger,
                countCorrupt: { [self] in corrupt.add(1, ordering: .relaxed) })
            guard mjpeg != nil else { throw CaptureError.invalidSettings("could not create a JPEG decompressor") }
        }
        switch reader {
        case .mjpeg(let stream): playing.watch(stream.input, name: sourceName, logger: logger)
        case .raw(let file): playing.watch(file, name: sourceName, logger: logger)
        }
        // The decoder moves to the thread: handed in through a lock (the compiler checks the
        // transfer: it is `sending`, and this thread keeps no reference), taken out once there.
        let decoding = Lock(mjpeg)
        do {
            try thread.start { [self] in
                var reader = reader
                let decoder = decoding.withLock { $0.take() }
                let ending = play(&reader, decoder, deliver)
                // Back before the thread ends, so it is there once `stop` has joined it; a reader
                // that reached the end is opened again on the next start.
                if ending == nil { input.withLock { $0 = reader } }
                if let ending { onEnd(ending) }
            }
        } catch {
            input.withLock { $0 = reader }
            throw error
        }
    }

    public func stop() {
        playing.interrupt()
        thread.stop()
        playing.clear()
    }

    /// How logs name the input.
    private var sourceName: String { settings.isStandardInput ? "stdin" : settings.path }

    /// Plays until stopped (nil) or the end of the input: `.some(nil)` at a clean end, else the error.
    private func play(
        _ reader: inout Reader, _ mjpeg: MJPEGFrameDecoding?, _ deliver: @Sendable (VideoFrame) -> Void
    ) -> (any Error)?? {
        // The JPEGs or the raw frames: it grows to what is read into it, then is reused.
        var buffer: [UInt8] = []
        let layout = layout
        let ending = playback.run(
            on: thread,
            read: { () throws(Y4MError) -> Bool in
                switch reader {
                case .mjpeg(var stream):
                    reader = .raw(stream.input)  // not kept: the stream is put back below
                    defer { reader = .mjpeg(stream) }
                    return try stream.readFrame(into: &buffer)
                case .raw(let file):
                    if buffer.count != layout.byteCount { buffer = [UInt8](repeating: 0, count: layout.byteCount) }
                    return try Self.readRawFrame(from: file, into: &buffer, path: settings.path, logger: logger)
                }
            },
            rewind: { () throws(Y4MError) -> Bool in
                switch reader {
                case .mjpeg(var stream):
                    defer { reader = .mjpeg(stream) }
                    return try stream.rewind()
                case .raw(let file):
                    return try file.seek(to: 0)
                }
            },
            deliver: { due, slot in
                if let mjpeg {
                    // A frame that does not decode is dropped and counted; its slot stays empty.
                    guard let picture = buffer.withUnsafeBytes({ mjpeg.decode($0, sequence: slot) }) else { return }
                    deliver(
                        VideoFrame(
                            width: layout.width, height: layout.height, pixelFormat: layout.pixelFormat,
                            planes: layout.planes, bytes: picture, timestamp: due, sequence: slot))
                } else {
                    deliver(
                        VideoFrame(
                            width: layout.width, height: layout.height, pixelFormat: layout.pixelFormat,
                            planes: layout.planes, bytes: buffer, timestamp: due, sequence: slot))
                }
            },
            skipped: { skipped.add(1, ordering: .relaxed) })
        // An interrupted read is `stop` ending a wait on a quiet pipe: stopped, not failed.
        guard let ending, ending.error != .interrupted else { return nil }
        if ending.framesRead > 0 { framesEverRead.store(true, ordering: .relaxed) }
        if ending.error == nil, !framesEverRead.load(ordering: .relaxed) {
            return .some(CaptureError.invalidSettings("\(settings.isStandardInput ? "standard input" : settings.path) holds no \(settings.format) frame"))
        }
        if ending.error == nil, ending.loopCameUpEmpty {
            return .some(CaptureError.cannotRestart(
                "\(settings.path) had no frame when played again from its start: it was cut shorter or replaced while playing (a restart plays the new file)"))
        }
        return .some(ending.error)
    }

    /// Reads one raw frame; false at the end. A partial frame at the end is dropped with a warning
    /// (as ffmpeg's rawvideo demuxer does): the file was cut, or its size or format was mistaken.
    private static func readRawFrame(from file: Y4MFileInput, into buffer: inout [UInt8], path: String, logger: Logger) throws(Y4MError) -> Bool {
        let expected = buffer.count
        let received = try buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(Y4MError) in
                var filled = 0
                while filled < bytes.count {
                    let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]))
                    if count == 0 { break }
                    filled += count
                }
                return filled
            }
        }.get()
        if received == expected { return true }
        if received > 0 {
            logger.warning("dropped a partial frame at the end of the input", metadata: [
                "bytes": "\(received)", "expected": "\(expected)",
            ])
        }
        return false
    }
}
