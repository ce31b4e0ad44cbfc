import Logging
import Media
import Outputs
import Synchronization
import Telemetry

#if canImport(Glibc)
import Glibc
#endif

/// Segmented MP4 recording as an output: packets go to a `ContainerWriter`,
/// whose thread alone owns the recorder (`RecordingFile`), so no lock is held while a segment is written or synced and
/// a slow disk never holds up the encoder or the other outputs.
///
/// A full disk does not end this output (the recorder pauses and resumes); only a directory that
/// cannot be made at all fails `open`.
package final class RecordingOutput: StreamOutput {
    package let name: String
    package var threadName: String { ContainerWriter.threadName }
    private let settings: RecordingSettings
    private let logger: Logger
    private let writer: ContainerWriter
    private let counters: RecordingCounters
    private let stream: RecordedStream
    private let isDown: @Sendable () -> Bool
    private let requestKeyframe: @Sendable () -> Void

    /// `isDown`: whether an RTMP output that streamed does not now (for `mode: outage`).
    package init(
        settings: RecordingSettings, stream: RecordedStream, logger: Logger, requestKeyframe: @escaping @Sendable () -> Void = {},
        isDown: @escaping @Sendable () -> Bool = { false }, meter: OutputMeter? = nil
    ) {
        self.isDown = isDown
        self.requestKeyframe = requestKeyframe
        counters = RecordingCounters(meter: meter)
        self.settings = settings
        self.stream = stream
        self.logger = logger
        name = settings.description
        writer = ContainerWriter(name: settings.description, logger: logger, requestKeyframe: requestKeyframe)
    }

    /// Makes the folder and reads its index on the writer's thread: a folder that fails at once
    /// throws here, one that hangs (a dead mount) leaves the output starting until it answers.
    package func open() throws(OutputFailure) {
        let (name, settings, stream, logger, counters, isDown) = (self.name, self.settings, self.stream, self.logger, self.counters, self.isDown)
        let requestKeyframe = self.requestKeyframe
        let start = try writer.start(
            opening: { () throws(OutputFailure) -> RecordingFile in
                let made: [String]
                do {
                    made = try Self.makeDirectory(settings.directory)
                } catch {
                    throw OutputFailure(output: name, reason: "\(error)")
                }
                counters.sampleFreeBytes(in: settings.directory)
                let recorder = SegmentRecorder(settings: settings, stream: stream, logger: logger, counters: counters, requestKeyframe: requestKeyframe)
                let outage = settings.outage.map { OutageRecorder(recorder: recorder, policy: $0, isDown: isDown, logger: logger) }
                return RecordingFile(recorder: recorder, outage: outage, madeDirectories: made)
            },
            onDelay: { FileOpeningDelay.mark(path: settings.directory, meter: counters.meter) },
            onOpened: { _ in
                counters.meter?.enter(.writing)
                logger.info(
                    "recording MP4 segments",
                    metadata: [
                        "directory": "\(settings.directory)", "segment_seconds": "\(settings.segmentSeconds)",
                        "segment_name": "\(settings.namePattern)", "mode": "\(settings.outage == nil ? "continuous" : "outage")",
                    ])
            },
            // A full disk pauses the recorder instead of failing the output: only a folder that
            // cannot be made fails it, and only once the start went on without it does that come here.
            onFailure: { failure in
                counters.meter?.enter(.failed, error: failure.reason)
                logger.error(
                    "recording cannot start; the other outputs go on",
                    metadata: ["directory": "\(settings.directory)", "error": "\(failure.reason)"])
            })
        guard start == .opened else {
            FileOpeningDelay.log(path: settings.directory, logger: logger)
            return
        }
        // Opened by a reload mid-stream: the first segment starts at the next picture rather
        // than up to a keyframe interval later (at the start of a run the first picture is one anyway).
        requestKeyframe()
    }

    package func write(_ packet: MediaPacket) {
        writer.push(packet)
    }

    package func finish(endTime: Int64, drainSeconds: Double) {
        guard writer.stop(.finish(endTime: endTime), drainSeconds: drainSeconds) else {
            // The thread is still inside a write: the file keeps what was synced, and the thread
            // cuts its segment back to the last complete fragment when the write returns.
            logger.error("recording did not finish in time; its segment ends at its last complete fragment", metadata: ["directory": "\(settings.directory)"])
            return
        }
        counters.meter?.enter(.stopped)
        logger.info(
            "recording stopped",
            metadata: [
                "directory": "\(settings.directory)", "bytes": "\(counters.bytesWritten.load(ordering: .relaxed))",
                "segments": "\(counters.segmentsStarted.load(ordering: .relaxed))",
                "deleted": "\(counters.filesDeleted.load(ordering: .relaxed))",
            ])
    }

    /// A start that failed: the folders its open made are removed again if no segment was
    /// written (a recording that got media is finished as on a stop).
    package func discardIfUnused() {
        guard writer.stop(.discardIfUnused, drainSeconds: 0) else { return }
        counters.meter?.enter(.stopped)
    }

    /// With the recording's own figures (`reading`): /status and /metrics need no downcast.
    package var statistics: OutputStatistics {
        OutputStatistics(
            queuedPackets: writer.queuedPackets, queuedMilliseconds: writer.queuedMilliseconds,
            queueBoundMilliseconds: writer.queueBoundMilliseconds, droppedFrames: writer.droppedFrames,
            sentFrames: writer.sentFrames.load(ordering: .relaxed), recording: reading)
    }

    /// Its own figures for /status and /metrics, read at scrape time: atomics and one small lock
    /// (the free space is the output thread's last sample), so a hung folder never holds a scrape.
    package var reading: RecordingReading {
        counters.reading(directory: settings.directory)
    }

    /// `mkdir -p`: the StateDirectory exists already; a path given on the command line may not.
    /// Returns the folders it created, outermost first (a failed start removes those, and only those).
    @discardableResult
    static func makeDirectory(_ path: String) throws(SystemCallError) -> [String] {
        var built = path.hasPrefix("/") ? "" : "."
        var made: [String] = []
        for part in path.split(separator: "/") {
            built += "/\(part)"
            if mkdir(built, 0o755) == 0 {
                made.append(built)
            } else if errno != EEXIST {
                let code = errno
                // What this call made before the failure goes again: a folder left half made is debris.
                for folder in made.reversed() { rmdir(folder) }
                throw SystemCallError(call: "mkdir \(built)", errno: code)
            }
        }
        return made
    }
}

extension RecordingOutput: DiscardableOutput {}
