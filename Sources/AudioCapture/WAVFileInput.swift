#if canImport(Glibc)
import Glibc
#endif
import Media

/// An open WAV file: its header, and its samples read from the data chunk in order, from the start
/// again after the last one, so the file loops without a gap.
///
/// Not thread-safe: after `open` only the source's thread reads it.
final class WAVFileInput {
    let path: String
    let header: WAVHeader
    private let descriptor: Int32
    /// Byte offset in the data chunk of the next sample to read.
    private var position = 0

    /// Headers with huge chunks before the data (embedded artwork) are read up to this much.
    static let maximumHeaderBytes = 64 << 20

    init(path: String) throws(AudioCaptureError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileUnreadable(path: path, errno: errno) }
        do throws(AudioCaptureError) {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw .fileUnreadable(path: path, errno: errno) }
            guard (info.st_mode & S_IFMT) == S_IFREG else { throw .fileUnreadable(path: path, errno: EISDIR) }
            let length = Int(info.st_size)
            var prefix: [UInt8] = []
            var want = 4096
            while true {
                let count = min(want, length, Self.maximumHeaderBytes)
                prefix = try Self.read(descriptor, count: count, at: 0, path: path)
                if let header = try Self.parse(prefix, fileLength: length, path: path) {
                    self.header = header
                    break
                }
                guard count < min(length, Self.maximumHeaderBytes) else {
                    throw .badWAV(path: path, .truncatedHeader(at: count))
                }
                want *= 4
            }
        } catch {
            close(descriptor)
            throw error
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Back to the first sample (a restarted source plays the file from its start).
    func rewind() { position = 0 }

    /// The next up to `frames` sample frames as the file stores them (little-endian, interleaved),
    /// fewer at the end of the data (the next call starts over at the beginning). Throws if the
    /// file cannot be read (removed media, I/O error).
    func next(frames: Int) throws(AudioCaptureError) -> [UInt8] {
        if position >= header.dataLength { position = 0 }
        let count = min(frames * header.bytesPerFrame, header.dataLength - position)
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + done, count - done, off_t(header.dataOffset + position + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw .fileUnreadable(path: path, errno: got == 0 ? EIO : errno) }
            done += got
        }
        position += count
        return bytes
    }

    /// 16-bit little-endian samples as numbers: a file already in the configured format needs
    /// nothing else.
    static func signed16(_ bytes: [UInt8]) -> [Int16] {
        let count = bytes.count / 2
        var samples = [Int16](repeating: 0, count: count)
        samples.withUnsafeMutableBytes { $0.copyBytes(from: bytes[0..<count * 2]) }
        #if _endian(big)
        for index in samples.indices { samples[index] = Int16(littleEndian: samples[index]) }
        #endif
        return samples
    }

    private static func parse(_ prefix: [UInt8], fileLength: Int, path: String) throws(AudioCaptureError) -> WAVHeader? {
        do { return try WAVHeader.parse(prefix, fileLength: fileLength) } catch { throw .badWAV(path: path, error) }
    }

    private static func read(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws(AudioCaptureError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw .fileUnreadable(path: path, errno: errno) }
            if got == 0 { break }
            done += got
        }
        return Array(bytes[0..<done])
    }
}
