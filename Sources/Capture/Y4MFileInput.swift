#if canImport(Glibc)
import Glibc
#endif
import Media

/// A .y4m file, or standard input for the path `-`, read with plain read(2).
///
/// Owns its file descriptor and closes it in `deinit` (standard input is left open: the process
/// owns that). Immutable after init, so it may move to the source's thread.
public final class Y4MFileInput: Y4MByteInput, Sendable {
    public let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens `path` for reading; `-` is standard input.
    public init(path: String) throws(Y4MError) {
        self.path = path
        if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
            return
        }
        do {
            descriptor = try SystemCall.run("open") { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            throw .systemCallFailed(path: path, call: error.call, errno: error.errno)
        }
        ownsDescriptor = true
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Y4MError) -> Int {
        do {
            return Int(try SystemCall.run("read") { Int32(Glibc.read(descriptor, buffer.baseAddress, buffer.count)) })
        } catch {
            throw .systemCallFailed(path: path, call: error.call, errno: error.errno)
        }
    }

    public func seek(to offset: Int) throws(Y4MError) -> Bool {
        // A pipe or terminal cannot rewind: ESPIPE is an answer, not a failure.
        if lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) { return true }
        if errno == ESPIPE { return false }
        throw .systemCallFailed(path: path, call: "lseek", errno: errno)
    }
}
