import Logging
import Media
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The recorder's state, on its output thread only: which segment is open, when to cut the
/// next, the index and retention, and the pause a full disk causes.
///
/// Segments are cut at the first video keyframe at or after `segmentSeconds` of stream time (the
/// monotonic capture clock, so a wall-clock step never cuts one short), and when the decoder
/// configuration changes (a new file for new parameter sets, or for sound of a new format). A write that fails (ENOSPC) closes
/// the segment at its last complete fragment and pauses with one error line; at each later
/// keyframe the recorder sweeps and looks at the free space again, and goes on by itself.
///
/// Where a segment may start is the `KeyframeGate`'s to say, as for every other output: while no
/// segment is open (at the start, after `finish`/`abandon`, while paused) it lets nothing through
/// before a video keyframe, sound included, and that keyframe is `.start`. The gate streams
/// exactly while a segment is open; a cut closes one file and opens the next at the same
/// keyframe, with the gate streaming throughout.
/// Not `Sendable`: made on its output's writer thread and held by its `RecordingFile`, through
/// which alone it is reached (debug builds check that file's every call is on that thread).
final class SegmentRecorder {
    private enum Phase {
        /// No segment open: the gate's next `.start` opens one.
        case closed
        case recording(SegmentFile, startWall: Int)
        case paused(reason: String)
    }

    /// A paused recorder starts again once this much is free (and `min_free_bytes`, if set).
    static let resumeFreeBytes: Int64 = 4 << 20

    private let settings: RecordingSettings
    private let stream: RecordedStream
    private let naming: SegmentNaming
    private let retention: RetentionPolicy
    private let clock: RecordingClock
    private let logger: Logger
    private let counters: RecordingCounters
    private var index: RecordingIndex
    private var phase = Phase.closed
    /// Streams exactly while a segment is open (`restartGate` whenever the recorder leaves `.recording`).
    private var gate = KeyframeGate()
    /// The AudioSpecificConfig of the latest sound, or one made from the configured format.
    private var audioConfiguration: [UInt8]?
    /// The one the latest sound packet carried (nil before the first).
    private var lastPacketAudio: [UInt8]?
    /// The sound's configuration changed in the open segment (a reload changed its sample rate or
    /// channels): the segment's track cannot take it, so the new sound waits for the next keyframe,
    /// which cuts the segment (the pipeline asks for one at such a reload).
    private var audioChanged = false

    /// Asks the encoder for a keyframe (where a segment for sound of a new format can start).
    private let requestKeyframe: @Sendable () -> Void

    init(
        settings: RecordingSettings, stream: RecordedStream, clock: RecordingClock = RecordingClock(), logger: Logger, counters: RecordingCounters,
        requestKeyframe: @escaping @Sendable () -> Void = {}
    ) {
        self.requestKeyframe = requestKeyframe
        self.settings = settings
        self.stream = stream
        naming = SegmentNaming(pattern: settings.namePattern)
        retention = RetentionPolicy(
            maxAgeSeconds: settings.maxAgeSeconds, maxBytes: settings.maxBytes, minFreeBytes: settings.minFreeBytes, naming: naming)
        self.clock = clock
        self.logger = logger
        self.counters = counters
        index = RecordingIndex(directory: settings.directory)
        index.load()
        counters.indexedBytes.store(Int(index.totalBytes), ordering: .relaxed)
        audioConfiguration = stream.audioSampleRate.flatMap { rate in
            AudioSpecificConfig.lowComplexity(sampleRate: rate, channels: stream.audioChannels ?? 2)
        }
    }

    func handle(_ packet: MediaPacket) {
        // Sound skipped before a segment still tells the next one its AudioSpecificConfig.
        if packet.mediaKind == .audio, let config = packet.decoderConfiguration.parameterSets.first, !config.isEmpty {
            if let last = lastPacketAudio, last != config, case .recording = phase {
                // The new encoder's first packet comes frames after the keyframe its reload asked for.
                audioChanged = true
                requestKeyframe()
            }
            lastPacketAudio = config
            audioConfiguration = config
        }
        switch gate.admit(packet) {
        case .skip:
            return
        case .start:
            begin(at: packet)
        case .configurationChanged, .pass:
            guard case .recording(let file, let startWall) = phase else { return }
            if packet.mediaKind == .video, packet.isKeyframe {
                atKeyframe(packet, recording: file, startWall: startWall)
            } else if packet.mediaKind == .video || !audioChanged {
                write(packet, to: file)
            }
        }
    }

    /// Looks at the folder's free space for /status and /metrics (see `RecordingCounters.freeBytes`).
    func sampleFreeBytes() {
        counters.sampleFreeBytes(in: settings.directory)
    }

    /// Closes the segment in progress (at the end of the run or of this output).
    func finish() {
        if case .recording(let file, let startWall) = phase, let error = close(file, startWall: startWall) {
            logger.error("could not finish segment; it ends at its last complete fragment", metadata: ["error": "\(error)"])
        }
        phase = .closed
        gate.restart()
        sweep()
    }

    /// Whether a segment was ever opened (its file exists, whatever became of it since).
    var hasWritten: Bool { counters.segmentsStarted.load(ordering: .relaxed) > 0 }

    /// Its writer gave up waiting for a hung disk: the segment in progress is cut back to its
    /// last complete fragment and closed, with no index or retention work after it.
    func abandon() {
        if case .recording(let file, _) = phase { file.abandon() }
        phase = .closed
        gate.restart()
    }

    /// A keyframe inside the open segment: the cut, when the segment is due or the decoder
    /// configuration changed; otherwise just the next fragment.
    private func atKeyframe(_ keyframe: MediaPacket, recording file: SegmentFile, startWall: Int) {
        let due = file.elapsed(at: keyframe.dts) >= Int64((settings.segmentSeconds * 1000).rounded())
        guard due || audioChanged || file.decoderConfiguration != keyframe.decoderConfiguration else {
            write(keyframe, to: file)
            sweep(inProgress: file.bytes)
            return
        }
        if let error = close(file, startWall: startWall, endingAt: keyframe.dts) {
            // Most likely the disk is full: pause rather than start a file that cannot be written.
            pause(error)
            return
        }
        start(at: keyframe)
    }

    /// The gate's `.start`: the keyframe that opens a segment when none is open, or that a
    /// paused recorder looks at the free space again at.
    private func begin(at keyframe: MediaPacket) {
        guard case .paused(let reason) = phase else {
            start(at: keyframe)
            return
        }
        sweep()
        let floor = max(Self.resumeFreeBytes, settings.minFreeBytes ?? 0)
        // A folder that cannot be examined (removed meanwhile) is made again by the start.
        guard (RetentionPolicy.freeBytes(in: settings.directory) ?? .max) >= floor else {
            gate.restart()  // still paused: the next keyframe looks again
            return
        }
        start(at: keyframe)
        if case .recording = phase {
            logger.notice("recording resumes", metadata: ["directory": "\(settings.directory)", "was": "\(reason)"])
            counters.resumed()
        }
    }

    private func start(at keyframe: MediaPacket) {
        sweep()
        let wall = clock.wallSeconds()
        let name = freshName(naming.name(at: wall))
        let path = "\(settings.directory)/\(name)"
        audioChanged = false
        do {
            try makeParentDirectories(of: name)
            let file = try SegmentFile(path: path, keyframe: keyframe, stream: stream, audioConfiguration: audioConfiguration)
            phase = .recording(file, startWall: wall)
            counters.current.withLock { $0 = (name, wall, Int(file.bytes)) }
            counters.segmentsStarted.add(1, ordering: .relaxed)
            counters.videoFrames.add(1, ordering: .relaxed)
            counters.bytesWritten.add(Int(file.bytes), ordering: .relaxed)
            logger.info("recording segment", metadata: ["path": "\(path)"])
        } catch {
            pause(error)
        }
    }

    private func write(_ packet: MediaPacket, to file: SegmentFile) {
        let before = file.bytes
        do {
            try file.write(packet)
            counters.bytesWritten.add(Int(file.bytes - before), ordering: .relaxed)
            counters.current.withLock { $0?.bytes = Int(file.bytes) }
            if packet.mediaKind == .video { counters.videoFrames.add(1, ordering: .relaxed) }
        } catch {
            if case .recording(_, let startWall) = phase {
                file.abandon()
                remember(file, startWall: startWall)
            }
            pause(error)
        }
    }

    /// Finishes `file` (or, failing that, cuts it back to its last complete fragment) and
    /// lists it in the index; the error, if finishing failed. `end`: the decode time of the
    /// keyframe that opens the next segment, where the file's last picture ends.
    private func close(_ file: SegmentFile, startWall: Int, endingAt end: Int64? = nil) -> SegmentError? {
        var failure: SegmentError?
        let before = file.bytes
        do {
            // The file's last picture and its last fragment reach the muxer only now.
            try file.finish(endingAt: end)
            counters.bytesWritten.add(Int(file.bytes - before), ordering: .relaxed)
        } catch {
            failure = error
        }
        remember(file, startWall: startWall)
        // The gate goes on streaming: a cut opens the next segment at this same keyframe, and
        // a finish or a pause restarts it.
        phase = .closed
        counters.current.withLock { $0 = nil }
        return failure
    }

    /// Puts a closed segment in the index (unless not one fragment of it reached the disk).
    private func remember(_ file: SegmentFile, startWall: Int) {
        let name = String(file.path.dropFirst(settings.directory.count + 1))
        if file.completeFragments == 0 {
            unlink(file.path)
            return
        }
        index.append(.init(name: name, bytes: file.syncedBytes, wallEnd: clock.wallSeconds(), bootID: clock.bootID, bootEnd: clock.bootMilliseconds()))
        saveIndex()
    }

    /// One error line per pause: a start that fails while paused stays quiet.
    private func pause(_ error: SegmentError) {
        gate.restart()
        if case .paused = phase {
            phase = .paused(reason: error.reason)
            return
        }
        phase = .paused(reason: error.reason)
        counters.pausing("\(error)")
        logger.error(
            "recording paused; it resumes by itself when the disk has room again (the other outputs go on)",
            metadata: ["directory": "\(settings.directory)", "error": "\(error)"])
    }

    private func sweep(inProgress: Int64 = 0) {
        guard !retention.isEmpty else { return }
        let directory = settings.directory
        let deleted = retention.sweep(
            &index, inProgressBytes: inProgress, clock: clock, freeBytes: { RetentionPolicy.freeBytes(in: directory) },
            delete: { RetentionPolicy.deleteSegment($0, in: directory) })
        guard !deleted.isEmpty else { return }
        counters.filesDeleted.add(deleted.count, ordering: .relaxed)
        logger.info("retention deleted old segments", metadata: ["count": "\(deleted.count)", "oldest": "\(deleted[0])"])
        saveIndex()
    }

    private func saveIndex() {
        counters.indexedBytes.store(Int(index.totalBytes), ordering: .relaxed)
        do {
            try index.save()
        } catch {
            // A full disk has said so once already (the pause); the list is saved at the next change.
            guard error.errno != ENOSPC, error.errno != EDQUOT else { return }
            logger.warning("could not save the recording index", metadata: ["error": "\(error)"])
        }
    }

    /// A name no file has yet: a second segment in the same second is numbered.
    private func freshName(_ name: String) -> String {
        var candidate = name
        var counter = 2
        var info = stat()
        while lstat("\(settings.directory)/\(candidate)", &info) == 0 {
            candidate = SegmentNaming.numbered(name, counter)
            counter += 1
        }
        return candidate
    }

    private func makeParentDirectories(of name: String) throws(SegmentError) {
        do {
            try RecordingOutput.makeDirectory(settings.directory)
        } catch {
            throw SegmentError(path: settings.directory, action: "create folder", reason: error.message, errno: error.errno)
        }
        var path = settings.directory
        for part in name.split(separator: "/").dropLast() {
            path += "/\(part)"
            if mkdir(path, 0o755) != 0, errno != EEXIST {
                let code = errno
                throw SegmentError(path: path, action: "create folder", reason: String(cString: strerror(code)), errno: code)
            }
        }
    }
}
