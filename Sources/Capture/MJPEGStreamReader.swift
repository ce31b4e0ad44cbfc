#if canImport(Glibc)
import Glibc
#endif

/// Splits a Motion JPEG stream — JPEG images back to back, as `ffmpeg -f mjpeg` writes them and a
/// UVC camera sends them — into one JPEG per frame.
///
/// It walks the JPEG marker segments (ITU-T T.81 annex B: a marker is 0xFF then a code; segments
/// other than SOI, EOI and RSTn carry a two-byte length) and scans entropy-coded data for the next
/// marker (a 0xFF there is followed by a stuffed 0x00 or an RSTn, T.81 B.1.1.5), so a 0xFFD9 inside
/// an embedded thumbnail or a length field cannot end a frame early. A frame cut short — the next
/// SOI comes before its EOI, or the stream ends — is handed out as it is, for the decoder to reject
/// and the source to count, as a camera's truncated frame would be; bytes between frames that are
/// not a JPEG are skipped.
public struct MJPEGStreamReader<Input: Y4MByteInput> {
    public private(set) var input: Input
    /// Read from the input but not yet handed out; `start` is where the next frame begins.
    private var pending: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// Where each read lands before it is appended to `pending`.
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    /// Bytes skipped between frames because they were not part of a JPEG.
    public private(set) var skippedBytes = 0
    /// A frame larger than this is cut there (and fails to decode): a stream without markers must
    /// not grow the buffer without bound.
    public static var frameLimit: Int { 64 * 1024 * 1024 }

    public init(input: Input) {
        self.input = input
    }

    /// Copies the next frame into `frame` (its storage reused when large enough, `count` set to
    /// the frame's size); false at the end of the stream.
    public mutating func readFrame(into frame: inout [UInt8]) throws(Y4MError) -> Bool {
        guard try skipToStartOfImage() else { return false }
        let length = try frameLength()
        frame.removeAll(keepingCapacity: true)
        frame.append(contentsOf: pending[start..<(start + length)])
        start += length
        return true
    }

    /// Back to the start of the stream; false if the input cannot seek.
    public mutating func rewind() throws(Y4MError) -> Bool {
        guard try input.seek(to: 0) else { return false }
        pending.removeAll(keepingCapacity: true)
        start = 0
        atEnd = false
        return true
    }

    /// The byte at `offset` from `start`, reading more as needed; nil past the end of the stream.
    /// Offsets stay valid across reads: `fill` only drops bytes before `start`.
    private mutating func byte(at offset: Int) throws(Y4MError) -> UInt8? {
        while start + offset >= pending.count {
            guard try fill() else { return nil }
        }
        return pending[start + offset]
    }

    /// Moves `start` to the next SOI (FF D8), skipping anything before it; false at the end.
    private mutating func skipToStartOfImage() throws(Y4MError) -> Bool {
        while let first = try byte(at: 0) {
            if first == 0xFF, try byte(at: 1) == 0xD8 { return true }
            start += 1
            skippedBytes += 1
        }
        return false
    }

    /// Length of the frame at `start`: up to and including its EOI, up to the next SOI, or to the
    /// end of the stream.
    private mutating func frameLength() throws(Y4MError) -> Int {
        var offset = 2
        var inScan = false
        var scanned = false
        while offset < Self.frameLimit {
            guard let first = try byte(at: offset) else { return pending.count - start }
            guard let code = try byte(at: offset + 1) else { return pending.count - start }
            if inScan {
                // Entropy-coded data: 0xFF then 0x00 (a stuffed byte) or RSTn is data, not a marker.
                if first != 0xFF {
                    offset = nextMarkerCandidate(from: offset + 1)
                    continue
                }
                if code == 0x00 || (0xD0...0xD7).contains(code) {
                    offset += 2
                    continue
                }
                inScan = false
            }
            guard first == 0xFF else {
                // Not a marker where one must be: the frame is corrupt; it ends at the next SOI.
                return try lengthToNextStartOfImage(from: offset)
            }
            switch code {
            case 0xFF:
                offset += 1  // a fill byte before a marker
            case 0xD9:
                return offset + 2
            case 0xD8:
                return offset  // a new frame began: this one was cut short
            case 0x01, 0xD0...0xD7:
                offset += 2
            case 0xC0...0xFE:
                guard let high = try byte(at: offset + 2), let low = try byte(at: offset + 3) else {
                    return pending.count - start
                }
                let length = Int(high) << 8 | Int(low)
                guard length >= 2 else { return try lengthToNextStartOfImage(from: offset) }
                if scanned {
                    // Past the first scan a "segment" may be corrupt data read as a marker; its
                    // length must not carry the walk over the next image's SOI.
                    let next = try lengthToNextStartOfImage(from: offset + 2, before: offset + 2 + length)
                    if next < offset + 2 + length { return next }
                }
                offset += 2 + length
                if code == 0xDA {
                    inScan = true
                    scanned = true
                }
            default:
                // A reserved marker code: not a JPEG any more; the frame ends at the next SOI.
                return try lengthToNextStartOfImage(from: offset + 2)
            }
        }
        return min(Self.frameLimit, pending.count - start)
    }

    /// The offset of the next 0xFF at or after `offset` among the bytes read so far, or the end of
    /// them. memchr, not a byte-at-a-time walk: the scan is nearly all of a JPEG, and walking it
    /// through `byte(at:)` cost 4.5 % of the CPU of a 1080p MJPEG replay (perf).
    private func nextMarkerCandidate(from offset: Int) -> Int {
        let from = start + offset
        guard from < pending.count else { return offset }
        return pending.withUnsafeBufferPointer { bytes in
            guard let found = memchr(bytes.baseAddress! + from, 0xFF, bytes.count - from) else { return bytes.count - start }
            return UnsafeRawPointer(found) - UnsafeRawPointer(bytes.baseAddress!) - start
        }
    }

    /// Length up to the next SOI after `offset` (or the end of the stream), for a corrupt frame.
    /// Looks no further than `limit` when given.
    private mutating func lengthToNextStartOfImage(from offset: Int, before limit: Int = .max) throws(Y4MError) -> Int {
        var offset = offset
        while offset < min(limit, Self.frameLimit), let first = try byte(at: offset) {
            if first == 0xFF, try byte(at: offset + 1) == 0xD8 { return offset }
            offset += 1
        }
        return min(offset, pending.count - start)
    }

    /// Appends one chunk from the input, first dropping the bytes before `start`; false at its end.
    private mutating func fill() throws(Y4MError) -> Bool {
        guard !atEnd else { return false }
        if start > 0 {
            pending.removeSubrange(0..<start)
            start = 0
        }
        let got = try scratch.withUnsafeMutableBytes { buffer in
            Result { () throws(Y4MError) in try input.read(into: buffer) }
        }.get()
        pending.append(contentsOf: scratch[..<got])
        if got == 0 { atEnd = true }
        return got > 0
    }
}

extension MJPEGStreamReader: Sendable where Input: Sendable {}
