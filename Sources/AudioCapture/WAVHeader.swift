import Media

/// The parts of a RIFF/WAVE file's header Camcast needs: the PCM format and where the samples are.
///
/// Parsed by `parse(_:fileLength:)` from the file's first bytes, which may be fewer than the
/// header needs: it then returns nil (read more and call again), so the reader never guesses a
/// header size. Chunks other than "fmt " and "data" (LIST, fact, cue…) are skipped.
public struct WAVHeader: Sendable, Equatable {
    public var format: AudioFormat
    /// How each sample is stored (anything but 16-bit PCM goes through libswresample).
    public var sampleFormat: WAVSampleFormat
    /// Byte offset of the first sample in the file.
    public var dataOffset: Int
    /// Bytes of whole sample frames in the data chunk.
    public var dataLength: Int

    public init(format: AudioFormat, sampleFormat: WAVSampleFormat = .signed16, dataOffset: Int, dataLength: Int) {
        self.format = format
        self.sampleFormat = sampleFormat
        self.dataOffset = dataOffset
        self.dataLength = dataLength
    }

    public var bytesPerFrame: Int { format.channels * sampleFormat.bytes }
    public var frameCount: Int { dataLength / bytesPerFrame }

    /// WAVE_FORMAT_EXTENSIBLE: its sub-format GUID then says PCM (1) or IEEE float (3).
    private static let extensibleTag = 0xFFFE

    /// The header in `bytes` (the file's beginning), nil if more bytes are needed to know it.
    /// `fileLength` is the whole file's size: a header that needs bytes past it is truncated.
    public static func parse(_ bytes: [UInt8], fileLength: Int) throws(WAVError) -> WAVHeader? {
        func need(_ end: Int) throws(WAVError) -> Bool {
            if end <= bytes.count { return true }
            if end > fileLength { throw .truncatedHeader(at: fileLength) }
            return false
        }
        guard try need(12) else { return nil }
        guard bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else { throw .notRIFFWAVE }
        var offset = 12
        var format: (audio: AudioFormat, sample: WAVSampleFormat)?
        while true {
            guard try need(offset + 8) else { return nil }
            let id = bytes[offset..<offset + 4]
            let size = Int(le32(bytes, offset + 4))
            let body = offset + 8
            if id.elementsEqual("data".utf8) {
                guard let format else { throw .missingFormatChunk }
                let available = fileLength - body
                // 0 and 0xFFFFFFFF are what streaming writers leave when they cannot seek back:
                // the samples run to the end of the file.
                let declared = (size == 0 || size == 0xFFFF_FFFF) ? available : size
                guard declared <= available else { throw .truncatedData(declared: declared, available: available) }
                let frameBytes = format.audio.channels * format.sample.bytes
                let length = declared / frameBytes * frameBytes
                guard length > 0 else { throw .noSamples }
                return WAVHeader(format: format.audio, sampleFormat: format.sample, dataOffset: body, dataLength: length)
            }
            if id.elementsEqual("fmt ".utf8) {
                guard size >= 16 else { throw .formatChunkTooShort(size) }
                guard try need(body + min(size, 40)) else { return nil }
                format = try parseFormat(bytes, at: body, size: size)
            }
            // Chunks are padded to an even length.
            offset = body + size + (size & 1)
            if offset >= fileLength { throw format == nil ? .missingFormatChunk : .missingDataChunk }
        }
    }

    private static func parseFormat(
        _ bytes: [UInt8], at body: Int, size: Int
    ) throws(WAVError) -> (audio: AudioFormat, sample: WAVSampleFormat) {
        var tag = Int(le16(bytes, body))
        let channels = Int(le16(bytes, body + 2))
        let rate = Int(le32(bytes, body + 4))
        let blockAlign = Int(le16(bytes, body + 12))
        let bits = Int(le16(bytes, body + 14))
        if tag == extensibleTag {
            // cbSize(2) validBits(2) channelMask(4) then the sub-format GUID, whose first two
            // bytes are the format tag it stands for.
            guard size >= 40 else { throw .formatChunkTooShort(size) }
            tag = Int(le16(bytes, body + 24))
        }
        guard tag == 1 || tag == 3 else { throw .notPCM(formatTag: tag) }
        guard let sample = WAVSampleFormat(formatTag: tag, bits: bits) else { throw .unsupportedBitDepth(bits) }
        guard channels > 0 else { throw .inconsistentFormat("0 channels") }
        guard rate > 0 else { throw .inconsistentFormat("sample rate 0") }
        guard blockAlign == channels * sample.bytes else {
            throw .inconsistentFormat(
                "block align \(blockAlign) for \(channels) channels of \(bits) bits (\(channels * sample.bytes) expected)")
        }
        return (AudioFormat(sampleRate: rate, channels: channels), sample)
    }

    private static func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
