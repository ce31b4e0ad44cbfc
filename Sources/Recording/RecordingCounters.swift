import Media
import Synchronization
import Telemetry

/// What a recorder has done, readable from any thread (the status line, the stop summary, /status
/// and /metrics at scrape time). Written by the output thread alone.
final class RecordingCounters: Sendable {
    let bytesWritten = Atomic<Int>(0)
    let videoFrames = Atomic<Int>(0)
    let segmentsStarted = Atomic<Int>(0)
    let filesDeleted = Atomic<Int>(0)
    let paused = Atomic<Bool>(false)
    /// The index's total after its last change (the finished segments on the disk).
    let indexedBytes = Atomic<Int>(0)
    /// The folder's free bytes as the output thread last saw them (at the open and at each
    /// keyframe); -1 before that. Sampled there, not at scrape time: a statvfs(2) on a hung
    /// mount would hold /status and /metrics.
    let freeBytes = Atomic<Int>(-1)
    /// The segment in progress: its name, the wall-clock second it is named by, and its bytes so far.
    let current = Lock<(name: String, startWall: Int, bytes: Int)?>(nil)
    let pauseReason = Lock<String?>(nil)
    /// The output's meter: a pause and a resume change its phase (so /healthz says why).
    let meter: OutputMeter?

    init(meter: OutputMeter? = nil) {
        self.meter = meter
    }

    func pausing(_ reason: String) {
        paused.store(true, ordering: .relaxed)
        pauseReason.withLock { $0 = reason }
        current.withLock { $0 = nil }
        meter?.enter(.paused, error: "recording paused: \(reason)")
    }

    func resumed() {
        paused.store(false, ordering: .relaxed)
        pauseReason.withLock { $0 = nil }
        meter?.enter(.writing)
    }

    /// On the output thread: samples the folder's free space for the readers.
    func sampleFreeBytes(in directory: String) {
        freeBytes.store(RetentionPolicy.freeBytes(in: directory).map { Int($0) } ?? -1, ordering: .relaxed)
    }

    /// The figures as of now, from memory alone (no call into the file system).
    func reading(directory: String) -> RecordingReading {
        let current = current.withLock { $0 }
        let free = freeBytes.load(ordering: .relaxed)
        return RecordingReading(
            directory: directory, bytesWritten: bytesWritten.load(ordering: .relaxed),
            segmentsStarted: segmentsStarted.load(ordering: .relaxed), filesDeleted: filesDeleted.load(ordering: .relaxed),
            keptBytes: indexedBytes.load(ordering: .relaxed) + (current?.bytes ?? 0), freeBytes: free >= 0 ? free : nil,
            paused: paused.load(ordering: .relaxed), pauseReason: pauseReason.withLock { $0 }, currentSegment: current?.name,
            currentSegmentStartUnixSeconds: current.map { Double($0.startWall) })
    }
}
