internal import CSWResample
import Media

/// libswresample converting a WAV file's interleaved samples (any of its sample formats) at its
/// rate and channels to S16 at the configured ones. Chosen over a hand-written interpolator
/// because it low-pass filters before it decimates (no aliasing from 48 → 44.1 kHz), mixes
/// channels properly, dithers what it reduces to 16 bits, and keeps its filter state across
/// calls, so a looped file's seam is resampled like any other sample.
///
/// Not thread-safe: used only by the WAV source's thread.
final class WAVResampler {
    let input: AudioFormat
    let sampleFormat: WAVSampleFormat
    let output: AudioFormat
    private let context: OpaquePointer
    private var buffer: [Int16] = []
    /// 24-bit samples widened to 32 (libswresample has no packed 24-bit format).
    private var widened: [Int32] = []

    init(from input: AudioFormat, sampleFormat: WAVSampleFormat, to output: AudioFormat) throws(AudioCaptureError) {
        var opened: OpaquePointer?
        let status = cswr_open(
            &opened, Self.libswresampleFormat(sampleFormat).rawValue, Int32(input.sampleRate), Int32(input.channels),
            Int32(output.sampleRate), Int32(output.channels))
        guard status == 0, let context = opened else { throw .resamplerFailed(code: status, message: Self.message(status)) }
        self.input = input
        self.sampleFormat = sampleFormat
        self.output = output
        self.context = context
    }

    private static func libswresampleFormat(_ format: WAVSampleFormat) -> AVSampleFormat {
        switch format {
        case .unsigned8: AV_SAMPLE_FMT_U8
        case .signed16: AV_SAMPLE_FMT_S16
        case .signed24, .signed32: AV_SAMPLE_FMT_S32
        case .float32: AV_SAMPLE_FMT_FLT
        case .float64: AV_SAMPLE_FMT_DBL
        }
    }

    deinit { cswr_close(context) }

    /// Converts `bytes` (whole input frames, as the file stores them); returns the output frames
    /// ready so far (the filter holds a few back until more input comes).
    func convert(_ bytes: [UInt8]) throws(AudioCaptureError) -> ArraySlice<Int16> {
        let frames = bytes.count / (input.channels * sampleFormat.bytes)
        let capacity = frames * output.sampleRate / input.sampleRate + 256
        if buffer.count < capacity * output.channels { buffer = [Int16](repeating: 0, count: capacity * output.channels) }
        func run(_ source: UnsafeRawBufferPointer) -> Int32 {
            buffer.withUnsafeMutableBufferPointer { target in
                cswr_convert(context, target.baseAddress, Int32(capacity), source.baseAddress, Int32(frames))
            }
        }
        let produced: Int32
        if sampleFormat == .signed24 {
            widen24(bytes, samples: frames * input.channels)
            produced = widened.withUnsafeBytes { run($0) }
        } else {
            produced = bytes.withUnsafeBytes { run($0) }
        }
        guard produced >= 0 else { throw .resamplerFailed(code: produced, message: Self.message(produced)) }
        return buffer[0..<Int(produced) * output.channels]
    }

    /// Each 3-byte little-endian sample into the top of an Int32, as S32 reads it.
    private func widen24(_ bytes: [UInt8], samples: Int) {
        if widened.count != samples { widened = [Int32](repeating: 0, count: samples) }
        for index in 0..<samples {
            let at = index * 3
            let value = UInt32(bytes[at]) << 8 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 24
            widened[index] = Int32(bitPattern: value)
        }
    }

    static func message(_ code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 256)
        cswr_error_text(code, &text, text.count)
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
