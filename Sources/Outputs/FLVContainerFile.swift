import FLV
import Logging
import Media
import Telemetry

/// An FLV output's open file and muxer, owned by its `ContainerWriter` thread (no lock: nothing
/// else touches it).
///
/// FLV timestamps are 32 bits of milliseconds. When the stream clock reaches the next multiple
/// of 2^32 ms (49.7 days), the file is finished and a new one (a fresh time-stamped name) starts
/// at the next keyframe, so no file ever holds a timestamp that goes backwards.
final class FLVContainerFile: ContainerFile, @unchecked Sendable {
    // @unchecked: used by the writer thread alone once started (see ContainerFile), which
    // `confinement` asserts on each call in debug builds.
    let confinement = ThreadConfinement("the file output's writer")
    private var writer: FLVFileWriter?
    private var muxer: FLVPacketMuxer
    private var failed = false
    /// Which 2^32 ms span of stream time the current file holds.
    private var epoch: Int64?
    private var lastTime: Int64 = 0
    /// The path asked for; each file gets a fresh name beside it.
    private let path: String
    private let hasAudio: Bool
    private let logger: Logger
    private let meter: OutputMeter?

    /// Creates the first file (on the writer's thread, which `open` waits for a moment, so a
    /// path that cannot be written still fails the start).
    init(path: String, metadata: FLVTag, hasAudio: Bool, logger: Logger, meter: OutputMeter?) throws(FLVError) {
        self.path = path
        self.hasAudio = hasAudio
        self.logger = logger
        self.meter = meter
        muxer = FLVPacketMuxer(metadata: metadata)
        writer = try FLVFileWriter(path: FLVFileOutput.freshPath(for: path), header: FLVHeader(hasAudio: hasAudio))
    }

    /// The file being written.
    var currentPath: String? {
        confinement.assertOnOwner("an FLV file's path")
        return writer?.path
    }

    func write(_ packet: MediaPacket) throws(OutputFailure) -> Bool {
        confinement.assertOnOwner("an FLV file's write")
        guard !failed, writer != nil else { return false }
        do {
            let epoch = packet.dts >> 32
            if let current = self.epoch, current != epoch { try roll() }
            guard let writer else { return false }
            let tags = try muxer.tags(for: packet)
            for tag in tags {
                try writer.write(tag)
                meter?.sentBytes.add(Int(tag.sizeWithoutTrailer) + 4, ordering: .relaxed)
            }
            guard !tags.isEmpty else { return false }
            self.epoch = epoch
            lastTime = max(lastTime, packet.dts)
            return packet.mediaKind == .video
        } catch {
            failed = true
            throw OutputFailure(output: path, reason: "\(error)")
        }
    }

    /// Ends the file at the wrap and opens the next; the new one starts at the next keyframe.
    private func roll() throws {
        if let writer {
            if muxer.isStreaming { try writer.write(muxer.endOfSequence(at: lastTime)) }
            try writer.close()
            self.writer = nil
        }
        let next = try FLVFileWriter(path: FLVFileOutput.freshPath(for: path), header: FLVHeader(hasAudio: hasAudio))
        writer = next
        muxer.restart()
        epoch = nil
        logger.notice("stream clock wrapped at 2^32 ms; recording continues in a new file", metadata: ["path": "\(next.path)"])
    }

    func end(_ ending: ContainerEnding) {
        confinement.assertOnOwner("an FLV file's end")
        guard let writer else { return }
        self.writer = nil
        switch ending {
        case .abandon:
            // Dropping the writer closes its descriptor (deinit); nothing more is written.
            return
        case .discardIfUnused where !muxer.isStreaming:
            try? writer.close()
            UnusedFile.remove(writer.path)
            logger.info("removed the FLV file of a run that did not start", metadata: ["path": "\(writer.path)"])
            return
        case .discardIfUnused, .finish:
            break
        }
        let endTime = if case .finish(let time) = ending { time } else { lastTime }
        do {
            if muxer.isStreaming && !failed {
                // Not past the file's own span: a file never wraps.
                let end = epoch.map { min(endTime, ($0 + 1) << 32 - 1) } ?? endTime
                try writer.write(muxer.endOfSequence(at: max(end, lastTime)))
            }
            try writer.close()
        } catch {
            logger.error("could not finish FLV file", metadata: ["path": "\(writer.path)", "error": "\(error)"])
        }
    }
}
