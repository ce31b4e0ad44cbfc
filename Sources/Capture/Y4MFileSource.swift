#if canImport(Glibc)
import Glibc
#endif
import Media
import Synchronization

/// Plays a YUV4MPEG2 (.y4m) clip, or a stream of one on standard input, as a frame source: for
/// testing an ingest without a camera, and for benchmarks.
///
/// The header is read in `init`, so size and frame rate are known before anything starts. Frame `n`
/// is stamped `start + n × interval`: in `.realtime` pace it is also handed out at that instant
/// (frames whose slot has passed are read and skipped, as a camera drops them); in `.fast` pace it
/// is handed out as soon as the consumer returns, so the stamps run ahead of or behind the clock but
/// stay monotonic and exactly one interval apart. At the end of the clip the source loops if asked
/// and the input can seek; otherwise it stops and calls `onEnd(nil)` (or `onEnd(error)` on a read
/// error or truncated frame).
///
/// One picture buffer is reused for every frame: `deliver` runs synchronously and the encoder
/// copies the picture, so when `deliver` returns the buffer is uniquely ours again and the next read
/// goes into the same storage (no allocation or copy per frame).
public final class Y4MFileSource: FrameSource {
    public let settings: Y4MSourceSettings
    public let header: Y4MStreamHeader
    private let onEnd: @Sendable (Y4MError?) -> Void
    private let input: Mutex<Input>
    private let thread = SourceThread()
    private let skipped = Atomic<Int>(0)

    /// Opens the input and reads its header. Throws `Y4MError` for an unreadable or malformed
    /// input, `CaptureError` for a picture Camcast cannot encode (not 4:2:0, odd size).
    public init(settings: Y4MSourceSettings, onEnd: @escaping @Sendable (Y4MError?) -> Void = { _ in }) throws {
        let reader = try Y4MReader(input: try Y4MFileInput(path: settings.path))
        let header = reader.header
        guard header.effectiveColourSpace.isI420 else { throw Y4MError.unsupportedColourSpace(header.effectiveColourSpace.rawValue) }
        guard header.width >= 16, header.height >= 16, header.width <= 7680, header.height <= 4320 else {
            throw CaptureError.invalidSize(width: header.width, height: header.height, reason: "must be from 16x16 to 7680x4320")
        }
        guard header.width % 2 == 0, header.height % 2 == 0 else {
            throw CaptureError.invalidSize(width: header.width, height: header.height, reason: "4:2:0 needs even width and height")
        }
        guard header.frameRate.isSupported else { throw CaptureError.invalidFrameRate(header.frameRate.description) }
        self.settings = settings
        self.header = header
        self.onEnd = onEnd
        self.input = Mutex(.ready(reader))
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
        do {
            try thread.start { [self] in
                var reader = reader
                let ending = play(&reader, deliver)
                // Back before the thread ends, so it is there once `stop` has joined it.
                input.withLock { $0 = ending == nil ? .ready(reader) : .ended }
                if let ending { onEnd(ending.error) }
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
        thread.stop()
    }

    /// Why playback ended on its own; nil when it was stopped.
    private struct Ending {
        var error: Y4MError?
    }

    private func play(_ reader: inout Y4MReader<Y4MFileInput>, _ deliver: @Sendable (VideoFrame) -> Void) -> Ending? {
        let interval = header.frameRate.frameIntervalNanoseconds
        let layout = VideoFrame.i420Planes(width: header.width, height: header.height)
        var buffer = [UInt8](repeating: 0, count: layout.byteCount)
        var framesThisPass = 0
        let origin = MonotonicTime.now()
        var slot: UInt64 = 0
        do throws(Y4MError) {
            while thread.isRunning {
                let due = origin.adding(nanoseconds: slot * interval)
                if settings.pace == .realtime {
                    guard thread.wait(until: due) else { return nil }
                }
                // Read after the wait, not before: the picture is still in cache when x264 copies it.
                guard try next(&reader, into: &buffer, framesThisPass: &framesThisPass) else { return Ending() }
                deliver(
                    VideoFrame(
                        width: header.width, height: header.height, pixelFormat: .i420, planes: layout.planes,
                        bytes: buffer, timestamp: due, sequence: slot))
                slot += 1
                if settings.pace == .realtime {
                    // Slots that passed while the consumer worked are skipped, not burst: their
                    // frames are read and dropped, so the picture keeps up with the clock as well.
                    let elapsed = MonotonicTime.now().nanoseconds(since: origin)
                    let current = elapsed > 0 ? UInt64(elapsed) / interval : 0
                    while slot < current, thread.isRunning {
                        guard try next(&reader, into: &buffer, framesThisPass: &framesThisPass) else { return Ending() }
                        skipped.add(1, ordering: .relaxed)
                        slot += 1
                    }
                }
            }
            return nil
        } catch {
            return Ending(error: error)
        }
    }

    /// Reads the next frame, rewinding at the end when looping; false when playback is over.
    private func next(_ reader: inout Y4MReader<Y4MFileInput>, into buffer: inout [UInt8], framesThisPass: inout Int) throws(Y4MError) -> Bool {
        if try reader.readFrame(into: &buffer) {
            framesThisPass += 1
            return true
        }
        // A clip without frames would loop forever without producing one.
        guard settings.loop, framesThisPass > 0, try reader.rewind() else { return false }
        framesThisPass = 0
        return try next(&reader, into: &buffer, framesThisPass: &framesThisPass)
    }

}
