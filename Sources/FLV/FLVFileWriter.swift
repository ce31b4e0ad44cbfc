// Linux only, like the daemon: Glibc for open/read/write/pwrite/close.
import Glibc

/// Writes an FLV file: the header and PreviousTagSize0 on creation, whole tags as they come,
/// and on `close()` the real duration (and file size, if the metadata has that field) patched
/// into the first onMetaData tag, so players can show and seek the recording.
///
/// It owns its file descriptor and closes it in `deinit` if `close()` was never called. It is
/// not `Sendable`: one recording belongs to one writer task.
public final class FLVFileWriter {
    public let path: String
    private var fd: Int32?
    /// Bytes written so far; also the file offset of the next tag.
    public private(set) var bytesWritten = 0

    /// File offsets of the doubles to patch, found when the first onMetaData tag was written.
    private var durationOffset: Int?
    private var fileSizeOffset: Int?
    /// Milliseconds per frame from onMetaData's framerate, added so the duration covers the
    /// last frame's display time and not only up to its start.
    private var frameInterval: Double?
    private var firstVideoTimestamp: UInt32?
    private var lastMediaTimestamp: UInt32?

    /// Creates or truncates the file at `path` and writes the header and PreviousTagSize0.
    public init(path: String, header: FLVHeader = FLVHeader(hasAudio: false, hasVideo: true)) throws(FLVError) {
        self.path = path
        fd = try syscall("open", path: path) {
            open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        try append(header.encoded() + [0, 0, 0, 0])
    }

    deinit {
        if let fd { _ = Glibc.close(fd) }
    }

    /// Appends one whole tag (header, body, PreviousTagSize).
    public func write(_ tag: FLVTag) throws(FLVError) {
        guard fd != nil else { throw .writerClosed }
        let tagOffset = bytesWritten
        if tag.type == .scriptData, durationOffset == nil {
            try locateMetadataFields(in: tag.body, bodyOffset: tagOffset + FLVTagHeader.size)
        }
        try append(tag.encoded())
        noteTimestamp(of: tag)
    }

    /// Patches duration and file size, then closes the file. Calling it twice throws `writerClosed`.
    public func close() throws(FLVError) {
        guard let fd else { throw .writerClosed }
        defer { self.fd = nil }
        if let durationOffset, let first = firstVideoTimestamp, let last = lastMediaTimestamp {
            let milliseconds = Double(last) - Double(first) + (frameInterval ?? 0)
            try patchDouble(max(0, milliseconds) / 1000, at: durationOffset)
        }
        if let fileSizeOffset {
            try patchDouble(Double(bytesWritten), at: fileSizeOffset)
        }
        // close() is not retried on EINTR: on Linux the descriptor is released either way.
        guard Glibc.close(fd) == 0 else { throw .io(operation: "close", path: path, errno: errno) }
    }

    private func locateMetadataFields(in body: [UInt8], bodyOffset: Int) throws(FLVError) {
        let offsets: [String: Int]
        do {
            offsets = try FLVMetadata.numberFieldOffsets(inScriptDataBody: body)
        } catch .notOnMetaData {
            return  // some other script data; nothing to patch
        }
        guard let duration = offsets["duration"] else { return }
        durationOffset = bodyOffset + duration
        fileSizeOffset = offsets["filesize"].map { bodyOffset + $0 }
        if let rateOffset = offsets["framerate"] {
            var reader = ByteReader(body, offset: rateOffset)
            let rate = try reader.readDouble()
            if rate.isFinite, rate > 0 { frameInterval = 1000 / rate }
        }
    }

    private func noteTimestamp(of tag: FLVTag) {
        switch tag.type {
        case .video:
            // The sequence header and end-of-sequence tags carry no picture; only frames count.
            let isFrame = tag.body.count < 2 || tag.body[0] & 0x0F != FLVVideoCodecID.avc.rawValue
                || tag.body[1] == AVCPacketType.nalu.rawValue
            guard isFrame else { return }
            if firstVideoTimestamp == nil { firstVideoTimestamp = tag.timestamp }
        case .audio:
            break
        case .scriptData:
            return
        }
        lastMediaTimestamp = max(lastMediaTimestamp ?? 0, tag.timestamp)
    }

    private func append(_ bytes: [UInt8]) throws(FLVError) {
        guard let fd else { throw .writerClosed }
        var done = 0
        while done < bytes.count {
            done += try syscall("write", path: path) {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            }
        }
        bytesWritten += bytes.count
    }

    private func patchDouble(_ value: Double, at offset: Int) throws(FLVError) {
        guard let fd else { throw .writerClosed }
        var bytes: [UInt8] = []
        bytes.appendDouble(value)
        var done = 0
        while done < bytes.count {
            done += try syscall("pwrite", path: path) {
                bytes.withUnsafeBytes { Glibc.pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            }
        }
    }
}
