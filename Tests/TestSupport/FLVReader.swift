// Linux only, like the daemon: Glibc for open/read/write/pwrite/close.
import FLV
import Glibc
import Media

/// An incremental FLV file parser, for the tests (the product writes FLV and never reads it): feed it bytes in any chunking and it returns every tag that
/// is complete, checked and followed by its correct PreviousTagSize.
///
/// It validates the header (signature, version, DataOffset), PreviousTagSize0 = 0, each tag
/// header (type, StreamID) and each PreviousTagSize trailer. Any tag size the 24-bit field can
/// express is accepted; memory is bounded by the largest tag plus the chunk fed.
public struct FLVReader: Sendable {
    private enum State: Sendable {
        /// Waiting for the 9-byte header.
        case header
        /// Skipping header bytes beyond 9 (a larger DataOffset), then PreviousTagSize0.
        case headerPadding(remaining: Int)
        case previousTagSizeZero
        case tags
        /// A previous call threw; the stream position is lost.
        case failed(FLVError)
    }

    private var state: State = .header
    private var buffer: [UInt8] = []
    /// Start of unconsumed bytes in `buffer`; consumed bytes are dropped in batches.
    private var start = 0

    /// The file header, once it has been read.
    public private(set) var header: FLVHeader?

    public init() {}

    /// Appends `bytes` and returns the tags completed by them, in order. After an error every
    /// later call rethrows it.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(FLVError) -> [FLVTag] {
        if case .failed(let error) = state { throw error }
        buffer.append(contentsOf: bytes)
        do {
            let tags = try parseAvailable()
            compact()
            return tags
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Call at the end of input: throws `truncated` if a header or tag is incomplete.
    public func finish() throws(FLVError) {
        if case .failed(let error) = state { throw error }
        let available = buffer.count - start
        switch state {
        case .header:
            throw .truncated(needed: FLVHeader.size, available: available)
        case .headerPadding(let remaining):
            throw .truncated(needed: remaining + 4, available: available)
        case .previousTagSizeZero:
            throw .truncated(needed: 4, available: available)
        case .tags:
            guard available > 0 else { return }
            var needed = FLVTagHeader.size
            if available >= FLVTagHeader.size,
               let tagHeader = try? FLVTagHeader(parsing: buffer[start..<start + FLVTagHeader.size]) {
                needed = FLVTagHeader.size + Int(tagHeader.dataSize) + 4
            }
            throw .truncated(needed: needed, available: available)
        case .failed(let error):
            throw error
        }
    }

    private mutating func parseAvailable() throws(FLVError) -> [FLVTag] {
        var tags: [FLVTag] = []
        while true {
            let available = buffer.count - start
            switch state {
            case .header:
                // Check the signature as soon as its bytes arrive, so a non-FLV input fails early.
                let head = Array(buffer[start..<start + min(available, 3)])
                guard head == Array(FLVHeader.signature.prefix(head.count)) else { throw .badSignature(head) }
                guard available >= FLVHeader.size else { return tags }
                let parsed = try FLVHeader(parsing: buffer[start..<start + FLVHeader.size])
                header = parsed
                start += FLVHeader.size
                state = .headerPadding(remaining: Int(parsed.dataOffset) - FLVHeader.size)
            case .headerPadding(let remaining):
                let skip = min(remaining, available)
                start += skip
                guard skip == remaining else {
                    state = .headerPadding(remaining: remaining - skip)
                    return tags
                }
                state = .previousTagSizeZero
            case .previousTagSizeZero:
                guard available >= 4 else { return tags }
                let value = readU32(at: start)
                guard value == 0 else { throw .previousTagSizeMismatch(expected: 0, found: value) }
                start += 4
                state = .tags
            case .tags:
                guard available >= FLVTagHeader.size else { return tags }
                // Validate the header before waiting for the body, so garbage fails fast.
                let tagHeader = try FLVTagHeader(parsing: buffer[start..<start + FLVTagHeader.size])
                let total = FLVTagHeader.size + Int(tagHeader.dataSize) + 4
                guard available >= total else { return tags }
                tags.append(try FLVTag(parsing: buffer[start..<start + total]))
                start += total
            case .failed(let error):
                throw error
            }
        }
    }

    private func readU32(at index: Int) -> UInt32 {
        buffer[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Drops consumed bytes once they are at least half the buffer, keeping appends amortized O(1).
    private mutating func compact() {
        guard start > 0, start * 2 >= buffer.count else { return }
        buffer.removeFirst(start)
        start = 0
    }

    /// Media's `SystemCall.run` with the failure as `FLVError.io`, naming the file.
    private static func syscall<Result: BinaryInteger>(
        _ operation: String, path: String, _ body: () -> Result
    ) throws(FLVError) -> Result {
        do {
            return try SystemCall.run(operation, body)
        } catch {
            throw .io(operation: operation, path: path, errno: error.errno)
        }
    }

    /// Reads and parses a whole FLV file.
    public static func readFile(atPath path: String) throws(FLVError) -> (header: FLVHeader, tags: [FLVTag]) {
        let fd = try syscall("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { _ = close(fd) }
        var reader = FLVReader()
        var tags: [FLVTag] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try syscall("read", path: path) {
                chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            }
            if count == 0 { break }
            tags += try reader.feed(chunk[0..<count])
        }
        try reader.finish()
        guard let header = reader.header else { throw .truncated(needed: FLVHeader.size, available: 0) }
        return (header, tags)
    }
}
