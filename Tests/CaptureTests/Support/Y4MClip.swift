import Capture
import Foundation
import Media

/// Small .y4m streams built in memory, and inputs that hand them out in pieces.
enum Y4MClip {
    /// A stream of `frames` pictures; frame n's bytes are all `UInt8(n + 1)`, so frames are told apart.
    static func bytes(width: Int = 16, height: Int = 16, fps: String = "30:1", frames: Int, frameLine: String = "FRAME\n") -> [UInt8] {
        var out = Array("YUV4MPEG2 W\(width) H\(height) F\(fps) Ip A1:1 C420jpeg\n".utf8)
        let size = width * height * 3 / 2
        for n in 0..<frames {
            out += Array(frameLine.utf8)
            out += [UInt8](repeating: UInt8(n + 1), count: size)
        }
        return out
    }

    /// Writes `bytes` to a fresh file under /tmp and returns its path.
    static func file(_ bytes: [UInt8], name: String = "clip.y4m") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-y4m-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The bytes of the file at `path` now.
    static func contents(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// An in-memory input that returns at most `chunk` bytes per read (1 = drip-feed).
struct ChunkedInput: Y4MByteInput {
    let bytes: [UInt8]
    let chunk: Int
    var seekable = true
    var position = 0

    init(_ bytes: [UInt8], chunk: Int, seekable: Bool = true) {
        self.bytes = bytes
        self.chunk = chunk
        self.seekable = seekable
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(Y4MError) -> Int {
        let count = min(chunk, buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: count)
        }
        position += count
        return count
    }

    mutating func seek(to offset: Int) throws(Y4MError) -> Bool {
        guard seekable else { return false }
        position = offset
        return true
    }
}
