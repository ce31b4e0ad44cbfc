import Synchronization

/// What a recorder has done, readable from any thread (the status line, the stop summary).
final class RecordingCounters: Sendable {
    let bytesWritten = Atomic<Int>(0)
    let videoFrames = Atomic<Int>(0)
    let segmentsStarted = Atomic<Int>(0)
    let filesDeleted = Atomic<Int>(0)
    let paused = Atomic<Bool>(false)
}
