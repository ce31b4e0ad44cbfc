#if canImport(Glibc)
import Glibc
#endif
import Logging
import Media
import Synchronization

/// The filter between the conversion stage and the encoder that burns text (a clock, a camera's
/// name) into each picture, in place: it blends over the rows and columns the text covers in the
/// frame's own memory (the planes the encoder reads, at the stream's size, so an item's height,
/// margin and corner are stream pixels as they are), hands the frame on, then puts those bytes
/// back, so a buffer the source reuses or repeats comes back as it was. Every source lends its
/// frames writable (a camera's mapped buffer, the conversion stage's own) or owns them; a frame
/// lent read-only is a programming error, stopped by a precondition rather than copied.
///
/// `replace(with:)` (a reload) swaps the settings; the next frame delivered after it returns
/// carries them, with no new keyframe.
public final class OverlayStage: Sendable {
    /// The renderer and the buffers blending keeps what it overwrote in, reused frame after frame:
    /// one lock, taken twice per drawn frame (to blend, and to put the buffers back after the
    /// encode), never across the call into the next stage.
    private struct Drawing {
        var renderer: OverlayRenderer?
        var spare = SavedBytes()
    }
    private let drawing: Lock<Drawing>
    /// Whether there is a renderer: a frame with no overlay passes with one atomic load, no lock.
    private let isDrawing: Atomic<Bool>
    private let logger: Logger?
    /// Frames drawn on, and the capture thread's CPU time spent drawing and restoring them (the
    /// stop summary's `overlay` line and scripts/bench-overlay read it).
    private let framesDrawn = Atomic<Int>(0)
    private let drawingNanoseconds = Atomic<Int>(0)

    /// Checks the font and sets up every item; nil settings or no items pass frames through.
    public init(settings: OverlaySettings?, logger: Logger? = nil) throws(OverlayError) {
        let renderer = try Self.renderer(settings)
        isDrawing = Atomic(renderer != nil)
        drawing = Lock(Drawing(renderer: renderer))
        self.logger = logger
    }

    private static func renderer(_ settings: OverlaySettings?) throws(OverlayError) -> OverlayRenderer? {
        guard let settings, !settings.items.isEmpty else { return nil }
        return try OverlayRenderer(settings: settings)
    }

    /// Checks that `settings` can be drawn (the font opens at every height) without changing anything.
    public static func validate(_ settings: OverlaySettings) throws(OverlayError) {
        _ = try OverlayRenderer(settings: settings)
    }

    /// From the next frame on, draws `settings` (nil: nothing). Opens the font first: on an error
    /// the current overlay stays.
    public func replace(with settings: OverlaySettings?) throws(OverlayError) {
        let made = try Self.renderer(settings)
        drawing.withLock { drawing in
            drawing.renderer = made
            isDrawing.store(made != nil, ordering: .releasing)
        }
    }

    public var settings: OverlaySettings? { drawing.withLock { $0.renderer?.settings } }

    /// Frames drawn on so far and the CPU time drawing took (blending, layout, putting bytes back).
    public var cost: (frames: Int, cpuNanoseconds: Int) {
        (framesDrawn.load(ordering: .relaxed), drawingNanoseconds.load(ordering: .relaxed))
    }

    private static func threadCPUNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// Draws the overlay onto `frame`, calls `next` with it (the encoder), then restores the
    /// frame's bytes. The overlay's own lock is held only while blending, not across `next`.
    public func filter<R, E: Error>(_ frame: VideoFrame, then next: (VideoFrame) throws(E) -> R) throws(E) -> R {
        guard isDrawing.load(ordering: .acquiring) else { return try next(frame) }
        let wall = SystemClock.wallSeconds(ofMonotonic: frame.timestamp.nanoseconds)
        let inPlace: Result<R, E>? = frame.withBytesInPlace { bytes in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else {
                return Result { () throws(E) in try next(frame) }
            }
            // What was overwritten is kept apart from the renderer: a reload may replace the
            // renderer during `next`, and the bytes must still go back.
            let start = Self.threadCPUNanoseconds()
            // The kept buffers, moved out (not copied) for this frame and back after it.
            var saved = SavedBytes()
            let wasDrawn = drawing.withLock { drawing in
                swap(&saved, &drawing.spare)
                return drawing.renderer?.blend(into: base, byteCount: bytes.count, frame: frame, wallSeconds: wall, saving: &saved) ?? false
            }
            let drawn = Self.threadCPUNanoseconds()
            let result = Result { () throws(E) in try next(frame) }
            let restoring = Self.threadCPUNanoseconds()
            if wasDrawn { saved.restore(into: base) }
            drawing.withLock { $0.spare = saved }
            if wasDrawn {
                framesDrawn.add(1, ordering: .relaxed)
                drawingNanoseconds.add(drawn - start + Self.threadCPUNanoseconds() - restoring, ordering: .relaxed)
            }
            return result
        }
        guard let inPlace else { preconditionFailure("the overlay draws in place: a source lent a frame read-only") }
        return try inPlace.get()
    }
}
