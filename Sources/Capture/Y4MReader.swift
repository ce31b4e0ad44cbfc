/// Reads a YUV4MPEG2 stream: the stream header once, then one frame at a time.
///
/// It never reads past what it needs — header and FRAME lines are taken a few bytes at a time,
/// picture bytes straight into the caller's buffer — so no byte is copied twice and the offset of
/// the first frame is exact, which is what looping seeks back to. Format: see `Y4MStreamHeader`.
public struct Y4MReader<Input: Y4MByteInput> {
    /// Longest header or FRAME line accepted; real headers are well under 100 bytes.
    public static var lineLimit: Int { 4096 }

    public private(set) var input: Input
    public let header: Y4MStreamHeader
    /// Bytes of the stream header, newline included: where the first frame starts.
    public let headerByteCount: Int
    /// Frames read since the start (or the last rewind).
    public private(set) var framesRead: UInt64 = 0

    /// Reads and parses the stream header.
    public init(input: Input) throws(Y4MError) {
        var input = input
        var line: [UInt8] = []
        // The signature first, so that any other file fails as "not y4m", not as "line too long".
        let signature = Y4MStreamHeader.signature + [0x20]
        while line.count < signature.count {
            guard let byte = try Self.readByte(&input) else {
                throw line.isEmpty || line != Array(signature.prefix(line.count)) ? .notYUV4MPEG2 : .truncatedHeader
            }
            line.append(byte)
            guard line.last == signature[line.count - 1] else { throw .notYUV4MPEG2 }
        }
        guard try Self.readLine(&input, into: &line) else { throw .truncatedHeader }
        header = try Y4MStreamHeader(line: line)
        headerByteCount = line.count + 1
        self.input = input
    }

    /// Reads the next frame's FRAME line; false at the end of the stream.
    private mutating func readFrameMarker() throws(Y4MError) -> Bool {
        let frame = framesRead
        // "FRAME\n" is the common case: one read for all six bytes, into stack memory (no
        // allocation per frame).
        let (got, marker) = try withUnsafeTemporaryAllocation(byteCount: 6, alignment: 1) {
            (buffer) throws(Y4MError) -> (Int, [UInt8]) in
            let got = try Self.readFully(&input, into: buffer)
            let isPlainMarker = got == 6 && buffer.elementsEqual(Y4MFrameHeader.plainLine)
            return (got, isPlainMarker ? [] : Array(buffer.prefix(got)))
        }
        if got == 0 { return false }
        if !marker.isEmpty {
            guard got == 6 else {
                let matches = marker.prefix(5).elementsEqual(Y4MFrameHeader.marker.prefix(min(got, 5)))
                throw matches ? .truncatedFrame(frame: frame, received: 0, expected: header.frameByteCount) : .missingFrameMarker(frame: frame)
            }
            // "FRAME " then frame parameters (I, X): Camcast has no use for them, but they must be consumed.
            guard marker.prefix(5).elementsEqual(Y4MFrameHeader.marker), marker[5] == 0x20 else { throw .missingFrameMarker(frame: frame) }
            var parameters: [UInt8] = []
            guard try Self.readLine(&input, into: &parameters) else {
                throw .truncatedFrame(frame: frame, received: 0, expected: header.frameByteCount)
            }
        }
        return true
    }

    /// Reads the next frame's picture into `bytes` (resized to `header.frameByteCount` if it is not
    /// already that size; otherwise its storage is reused). Returns false at a clean end of stream.
    public mutating func readFrame(into bytes: inout [UInt8]) throws(Y4MError) -> Bool {
        guard try readFrameMarker() else { return false }
        return try readPicture(into: &bytes)
    }

    /// Reads the picture that follows a FRAME line into `bytes`.
    private mutating func readPicture(into bytes: inout [UInt8]) throws(Y4MError) -> Bool {
        let frame = framesRead
        let expected = header.frameByteCount
        if bytes.count != expected { bytes = [UInt8](repeating: 0, count: expected) }
        // Array's withUnsafeMutableBytes rethrows untyped errors: carry ours out in a Result.
        let received = try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Y4MError) in try Self.readFully(&input, into: buffer) }
        }.get()
        guard received == expected else { throw .truncatedFrame(frame: frame, received: received, expected: expected) }
        framesRead += 1
        return true
    }

    /// Goes back to the first frame; false if the input cannot seek (a pipe).
    public mutating func rewind() throws(Y4MError) -> Bool {
        guard try input.seek(to: headerByteCount) else { return false }
        framesRead = 0
        return true
    }

    /// Fills `buffer` unless the stream ends first; returns the bytes read.
    private static func readFully(_ input: inout Input, into buffer: UnsafeMutableRawBufferPointer) throws(Y4MError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    private static func readByte(_ input: inout Input) throws(Y4MError) -> UInt8? {
        var byte: UInt8 = 0
        let count = try withUnsafeMutableBytes(of: &byte) { (buffer) throws(Y4MError) in try readFully(&input, into: buffer) }
        return count == 1 ? byte : nil
    }

    /// Appends bytes up to the next newline (not included); false if the stream ends first.
    private static func readLine(_ input: inout Input, into line: inout [UInt8]) throws(Y4MError) -> Bool {
        while let byte = try readByte(&input) {
            if byte == 0x0A { return true }
            guard line.count < lineLimit else { throw .lineTooLong(limit: lineLimit) }
            line.append(byte)
        }
        return false
    }
}

extension Y4MReader: Sendable where Input: Sendable {}
