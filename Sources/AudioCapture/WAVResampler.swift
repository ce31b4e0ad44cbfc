internal import CSWResample
import Media

/// libswresample converting interleaved S16 from a WAV file's rate and channels to the configured
/// ones. Chosen over a hand-written interpolator because it low-pass filters before it decimates
/// (no aliasing from 48 → 44.1 kHz), mixes channels properly, and keeps its filter state across
/// calls, so a looped file's seam is resampled like any other sample.
///
/// Not thread-safe: used only by the WAV source's thread.
final class WAVResampler {
    let input: AudioFormat
    let output: AudioFormat
    private let context: OpaquePointer
    private var buffer: [Int16] = []

    init(from input: AudioFormat, to output: AudioFormat) throws(AudioCaptureError) {
        var opened: OpaquePointer?
        let status = cswr_open_s16(
            &opened, Int32(input.sampleRate), Int32(input.channels), Int32(output.sampleRate), Int32(output.channels))
        guard status == 0, let context = opened else { throw .resamplerFailed(code: status, message: Self.message(status)) }
        self.input = input
        self.output = output
        self.context = context
    }

    deinit { cswr_close(context) }

    /// Converts `samples` (whole input frames); returns the output frames ready so far (the
    /// filter holds a few back until more input comes).
    func convert(_ samples: ArraySlice<Int16>) throws(AudioCaptureError) -> ArraySlice<Int16> {
        let frames = samples.count / input.channels
        let capacity = frames * output.sampleRate / input.sampleRate + 256
        if buffer.count < capacity * output.channels { buffer = [Int16](repeating: 0, count: capacity * output.channels) }
        let produced = samples.withUnsafeBufferPointer { source in
            buffer.withUnsafeMutableBufferPointer { target in
                cswr_convert_s16(context, target.baseAddress, Int32(capacity), source.baseAddress, Int32(frames))
            }
        }
        guard produced >= 0 else { throw .resamplerFailed(code: produced, message: Self.message(produced)) }
        return buffer[0..<Int(produced) * output.channels]
    }

    static func message(_ code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 256)
        cswr_error_text(code, &text, text.count)
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
