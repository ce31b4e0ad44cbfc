#if canImport(Glibc)
import Glibc
#endif
import Logging
import Media
import Synchronization

/// Plays a YUV4MPEG2 (.y4m) clip, or a stream of one on standard input, as a frame source: for
/// testing an ingest without a camera, and for benchmarks.
///
/// The header is read in `init`, so size and frame rate are known before anything starts. Pacing,
/// skipping and looping are `FilePlayback`'s. At the end of the clip the source stops and calls
/// `onEnd(nil)`, or `onEnd(error)` on a read error, a truncated frame, or a clip without frames.
///
/// Every picture, from a file or a pipe, is read into one buffer reused for every frame: `deliver`
/// runs synchronously and the encoder copies the picture, so when `deliver` returns the buffer is
/// uniquely ours again and the next read goes into the same storage (no allocation or copy per
/// frame). The overlay draws into that buffer in place. Pictures used to be mapped from the file
/// (privately) and lent instead; drawing on a private mapping copies every 4 KiB page the text
/// touches, on every frame, and measured over a frame's whole path (read, overlay, the encoder's
/// copy) the read cost no more than the mapping even without an overlay (BENCHMARKS.md, overlay).
/// Memory the process owns also cannot fault when the file is cut shorter under it.
public final class Y4MFileSource: FrameSource {
    public let settings: Y4MSourceSettings
    public let header: Y4MStreamHeader
    /// Bytes of the stream header: a file no longer than this has no frame.
    public let headerByteCount: Int
    private let onEnd: @Sendable (Y4MError?) -> Void
    private let logger: Logger?
    private let input: Lock<Input>
    private let thread = SourceThread(name: SourceThreadName.capture, alreadyStarted: CaptureError.alreadyStarted, threadStartFailed: CaptureError.threadStartFailed(errno:))
    private let playing = PlayingInput()
    private let skipped = Atomic<Int>(0)
    private let playback: FilePlayback
    /// Whether any run read a frame; a first run that reads none fails with `.noFrames`.
    private let framesEverRead = Atomic<Bool>(false)

    /// Opens the input and reads its header. Throws `Y4MError` for an unreadable or malformed
    /// input, `CaptureError` for a picture Camcast cannot encode (not 4:2:0, odd size).
    public init(
        settings: Y4MSourceSettings, logger: Logger? = nil, onEnd: @escaping @Sendable (Y4MError?) -> Void = { _ in }
    ) throws {
        let reader = try settings.opened?.take() ?? Y4MReader(input: try Y4MFileInput(path: settings.path))
        let header = reader.header
        guard header.effectiveColourSpace.isI420 else { throw Y4MError.unsupportedColourSpace(header.effectiveColourSpace.rawValue) }
        if let reason = VideoSize(width: header.width, height: header.height).unsupportedReason(requiringEven: true) {
            throw CaptureError.invalidSize(width: header.width, height: header.height, reason: reason)
        }
        guard header.frameRate.isSupported else { throw CaptureError.invalidFrameRate(header.frameRate.description) }
        self.settings = settings
        self.header = header
        playback = FilePlayback(pace: settings.pace, loop: settings.loop, interval: header.frameRate.frameIntervalNanoseconds)
        headerByteCount = reader.headerByteCount
        self.onEnd = onEnd
        self.logger = logger
        self.input = Lock(.ready(reader))
    }

    /// Where the input is: with the source between runs, with the playing thread, or used up.
    /// A stopped source keeps its reader, so a restart (a reload that falls back to the old
    /// source) carries on from the frame it stopped at, on standard input as well.
    private enum Input {
        case ready(Y4MReader<Y4MFileInput>)
        case playing
        /// Playback ended on its own (end of clip, read error): a file is opened again to start
        /// over; standard input cannot be.
        case ended
    }

    /// These settings with this source's reader handed over, for a source made later to play on
    /// from it (a pipe's header cannot be read twice). This source cannot start after that.
    public var settingsKeepingInput: Y4MSourceSettings {
        var kept = settings
        kept.opened = input.withLock { input -> Y4MOpenedReader? in
            guard case .ready(let reader) = input else { return nil }
            input = .ended
            return Y4MOpenedReader(reader)
        }
        return kept
    }

    public var size: VideoSize { VideoSize(width: header.width, height: header.height) }
    public var frameRate: FrameRate { header.frameRate }
    public var skippedFrames: Int { skipped.load(ordering: .relaxed) }

    public func start(deliver: @escaping @Sendable (VideoFrame) -> Void) throws {
        let reader = try input.withLock { input throws -> Y4MReader<Y4MFileInput> in
            switch input {
            case .ready(let reader):
                input = .playing
                return reader
            case .playing:
                throw CaptureError.alreadyStarted
            case .ended:
                let reader = try reopen()
                input = .playing
                return reader
            }
        }
        playing.watch(reader.input, name: sourceName, logger: logger)
        do {
            try thread.start { [self] in
                var reader = reader
                let ending = play(&reader, deliver)
                // Back before the thread ends, so it is there once `stop` has joined it.
                input.withLock { $0 = ending == nil ? .ready(reader) : .ended }
                if let ending { onEnd(ending) }
            }
        } catch {
            input.withLock { $0 = .ready(reader) }
            throw error
        }
    }

    /// The clip opened again after playback ended, provided it still holds the same format.
    private func reopen() throws -> Y4MReader<Y4MFileInput> {
        guard !settings.isStandardInput else {
            throw CaptureError.cannotRestart("standard input has ended and cannot be read again")
        }
        let reader = try Y4MReader(input: try Y4MFileInput(path: settings.path))
        guard reader.header == header else {
            throw CaptureError.cannotRestart("\(settings.path) changed format since it was opened")
        }
        return reader
    }

    /// Stops and joins the thread. A thread blocked reading a pipe that never delivers more keeps
    /// `stop` waiting until the writer writes or closes.
    public func stop() {
        playing.interrupt()
        thread.stop()
        playing.clear()
    }

    /// How logs name the input.
    private var sourceName: String { settings.isStandardInput ? "stdin" : settings.path }

    private func play(_ reader: inout Y4MReader<Y4MFileInput>, _ deliver: @Sendable (VideoFrame) -> Void) -> Y4MError?? {
        let layout = VideoFrame.i420Planes(width: header.width, height: header.height)
        // Allocated on the first read, then reused for every frame.
        var buffer: [UInt8] = []
        var warnedAboutCutFrame = false
        let loopsAFile = settings.loop && !settings.isStandardInput
        let ending = playback.run(
            on: thread,
            read: { () throws(Y4MError) in
                do throws(Y4MError) {
                    return try reader.readFrame(into: &buffer)
                } catch {
                    // A looping clip whose last frame is cut (a copy that stopped short, a recorder
                    // killed mid-write) plays what it has and loops: the cut frame is dropped, said once.
                    guard loopsAFile, case .truncatedFrame(let frame, let received, let expected) = error, frame > 0 else { throw error }
                    if !warnedAboutCutFrame {
                        warnedAboutCutFrame = true
                        logger?.warning("the clip's last frame is cut; dropped, and the clip loops without it", metadata: [
                            "source": "\(sourceName)", "frame": "\(frame)", "bytes": "\(received) of \(expected)",
                        ])
                    }
                    return false
                }
            },
            rewind: { () throws(Y4MError) in try reader.rewind() },
            deliver: { due, slot in
                deliver(
                    VideoFrame(
                        width: header.width, height: header.height, pixelFormat: .i420, planes: layout.planes,
                        bytes: buffer, timestamp: due, sequence: slot))
            },
            skipped: { skipped.add(1, ordering: .relaxed) })
        // An interrupted read is `stop` ending a wait on a quiet pipe: stopped, not failed.
        guard let ending, ending.error != .interrupted else { return nil }
        if ending.framesRead > 0 { framesEverRead.store(true, ordering: .relaxed) }
        // A clip with a header and no frames is a broken input, not a finished one.
        if ending.error == nil, !framesEverRead.load(ordering: .relaxed) { return .some(.noFrames) }
        if ending.error == nil, ending.loopCameUpEmpty { return .some(.emptyWhenLooped) }
        return .some(ending.error)
    }
}
