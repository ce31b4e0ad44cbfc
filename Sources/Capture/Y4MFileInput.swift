#if canImport(Glibc)
import Glibc
#endif
import Media

/// A .y4m file, or standard input for the path `-`, read with plain read(2).
///
/// Owns its file descriptor and closes it in `deinit` (standard input is left open: the process
/// owns that). Sendable: the descriptor is fixed, and the stall report sits behind a Mutex.
///
/// A pipe (or anything else that can make a read wait: a FIFO, a terminal, standard input) is read
/// only once poll says it is readable, polled together with an eventfd: `interrupt()` ends a read
/// that waits for a writer who has gone quiet, so a stop does not wait for it, and a wait longer
/// than `stallSeconds` is reported as a stall (and its end as a resume). A regular file never waits.
public final class Y4MFileInput: Y4MByteInput, Sendable {
    public let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Set for inputs that can make a read wait; nil for regular files.
    private let wake: WakeEvent?
    private let stallReport = Lock<Callback<Bool, Void>?>(nil)
    /// How long a read may wait before the input is reported as stalled.
    public static var stallSeconds: Int32 { 2 }

    /// Opens `path` for reading; `-` is standard input.
    public init(path: String) throws(Y4MError) {
        self.path = path
        if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            do {
                descriptor = try SystemCall.run("open") { open(path, O_RDONLY | O_CLOEXEC) }
            } catch {
                throw .systemCallFailed(path: path, call: error.call, errno: error.errno)
            }
            ownsDescriptor = true
        }
        var info = stat()
        // A regular file never waits; without an eventfd a read still works, it just cannot be interrupted.
        let isRegular = fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        wake = isRegular ? nil : try? WakeEvent()
    }

    /// Called with true when a read has waited `stallSeconds` for data, with false when data comes again.
    public func reportStalls(to report: @escaping @Sendable (_ stalled: Bool) -> Void) {
        stallReport.withLock { $0 = Callback(report) }
    }

    /// Ends a read waiting for data (it throws `.interrupted`), and every later one until `resume`.
    public func interrupt() {
        wake?.signal()
    }

    /// Lets reads wait again after `interrupt`.
    public func resume() {
        wake?.reset()
    }

    /// Waits until the descriptor is readable; throws `.interrupted` once `interrupt` was called.
    private func waitUntilReadable(_ wake: WakeEvent) throws(Y4MError) {
        var stalled = false
        defer { if stalled { stallReport.withLock { $0 }?(false) } }
        while true {
            var fds = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0),
            ]
            let ready: Int32
            do {
                ready = try SystemCall.run("poll") { poll(&fds, 2, Self.stallSeconds * 1000) }
            } catch {
                throw .systemCallFailed(path: path, call: error.call, errno: error.errno)
            }
            if fds[1].revents != 0 {
                stalled = false  // not a resume: the source is stopping
                throw .interrupted
            }
            if ready > 0 { return }  // readable, at its end (POLLHUP) or in error: read says which
            if !stalled {
                stalled = true
                stallReport.withLock { $0 }?(true)
            }
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Y4MError) -> Int {
        if let wake { try waitUntilReadable(wake) }
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
