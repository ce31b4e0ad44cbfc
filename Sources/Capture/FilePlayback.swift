import Media
import Synchronization

/// The playing loop every file source shares (y4m clips, camera replays): pacing, skipping and
/// looping, so they behave the same and the rules live in one place.
///
/// Frame `n` is stamped `start + n × interval`. In `.realtime` pace it is also handed out at that
/// instant, and frames whose slot passed while the consumer worked are read and skipped (as a
/// camera drops them); in `.fast` pace it is handed out as soon as the consumer returns, the stamps
/// still exactly one interval apart. At the end of the input it rewinds when looping and the input
/// can seek; a pass without a single frame ends playback rather than looping forever.
///
/// One per source, kept across its runs: a source restarted (a reload that fell back to it)
/// starts no sooner than one interval after the last frame it handed out, so two frames are never
/// closer than a frame interval, as from a camera.
final class FilePlayback: Sendable {
    let pace: PlaybackPace
    let loop: Bool
    let interval: UInt64
    /// CLOCK_MONOTONIC ns of the last frame handed out; 0 before the first.
    private let lastStamp = Atomic<UInt64>(0)

    init(pace: PlaybackPace, loop: Bool, interval: UInt64) {
        self.pace = pace
        self.loop = loop
        self.interval = interval
    }

    /// How playback ended on its own: at the end of the input, or on an error.
    struct Ending<Failure: Error> {
        var error: Failure?
        /// Frames read from the input over the whole run (including skipped ones).
        var framesRead: UInt64
        /// A looping input that had played came up empty when played again from its start: the
        /// file was cut shorter or replaced under it (`cp new.y4m clip.y4m` empties it first). A
        /// loop the user asked for ends here only because the input broke, so sources report it
        /// as an error, not as the end of a clip.
        var loopCameUpEmpty = false
    }

    /// Plays until `thread` is stopped (returns nil), the input ends or reading fails.
    /// `read` reads the next frame into the caller's buffer (false at the end of the input);
    /// `rewind` goes back to the first frame (false if the input cannot); `deliver` hands out the
    /// frame just read with its stamp and sequence number; `skipped` counts a frame dropped to keep
    /// up with the clock.
    func run<Failure: Error>(
        on thread: SourceThread<CaptureError>,
        read: () throws(Failure) -> Bool,
        rewind: () throws(Failure) -> Bool,
        deliver: (MonotonicTime, UInt64) -> Void,
        skipped: () -> Void
    ) -> Ending<Failure>? {
        var framesThisPass = 0
        var framesRead: UInt64 = 0
        var loopCameUpEmpty = false
        // Reads the next frame, rewinding at the end when looping; false when playback is over.
        func next() throws(Failure) -> Bool {
            if try read() {
                framesThisPass += 1
                framesRead += 1
                return true
            }
            if loop, framesThisPass == 0, framesRead > 0 { loopCameUpEmpty = true }
            guard loop, framesThisPass > 0, try rewind() else { return false }
            framesThisPass = 0
            return try next()
        }
        let last = lastStamp.load(ordering: .relaxed)
        let now = MonotonicTime.now()
        let origin = last == 0 ? now : MonotonicTime(nanoseconds: max(now.nanoseconds, last + interval))
        var slot: UInt64 = 0
        do throws(Failure) {
            while thread.isRunning {
                let due = origin.adding(nanoseconds: slot * interval)
                if pace == .realtime {
                    guard thread.wait(until: due) else { return nil }
                }
                // Read after the wait, not before: the picture is still in cache when it is encoded.
                guard try next() else {
                    return thread.isRunning ? Ending(framesRead: framesRead, loopCameUpEmpty: loopCameUpEmpty) : nil
                }
                deliver(due, slot)
                lastStamp.store(due.nanoseconds, ordering: .relaxed)
                slot += 1
                if pace == .realtime {
                    // Slots that passed while the consumer worked are skipped, not burst.
                    let elapsed = MonotonicTime.now().nanoseconds(since: origin)
                    let current = elapsed > 0 ? UInt64(elapsed) / interval : 0
                    while slot < current, thread.isRunning {
                        guard try next() else { return Ending(framesRead: framesRead, loopCameUpEmpty: loopCameUpEmpty) }
                        skipped()
                        slot += 1
                    }
                }
            }
            return nil
        } catch {
            return thread.isRunning ? Ending(error: error, framesRead: framesRead) : nil
        }
    }
}
