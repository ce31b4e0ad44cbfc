#if canImport(Glibc)
import Glibc
#endif
internal import CALSA
import Media

/// One open ALSA capture PCM configured for interleaved S16 at the asked format, with kernel
/// timestamps on CLOCK_MONOTONIC. Opened non-blocking so the capture loop can wait with a timeout
/// and notice a stop.
///
/// Not thread-safe: owned by the ALSA source's capture thread.
final class ALSAPCM {
    let device: String
    let format: AudioFormat
    private let pcm: OpaquePointer
    private let statusBuffer: OpaquePointer
    /// Frames per period the device granted (how much one wake-up brings).
    let periodFrames: Int
    /// Whether the device stamps on CLOCK_MONOTONIC. A plugin that cannot (some sound-server
    /// plugins) is read with "now" as the reference instead: never a stamp on another clock.
    let kernelStamps: Bool

    /// What one read brought: interleaved samples and the capture instant of the first.
    struct Capture {
        var samples: [Int16]
        var timestamp: MonotonicTime
    }

    /// A read that did not bring samples.
    enum Failure: Error {
        /// An overrun (or a suspend): recoverable with `recover`.
        case xrun(code: Int32)
        /// The device is gone or broken (unplugged, card removed): close it.
        case lost(code: Int32, message: String)
    }

    init(device: String, format: AudioFormat) throws(AudioCaptureError) {
        calsa_silence_error_output()
        var opened: OpaquePointer?
        let status = snd_pcm_open(&opened, device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK)
        guard status == 0, let pcm = opened else {
            let message = Self.message(status)
            switch -status {
            case ENOENT, ENODEV, ENXIO: throw .deviceNotFound(device: device, code: status, message: message)
            case EBUSY: throw .deviceBusy(device: device, code: status, message: message)
            default: throw .deviceFailed(device: device, call: "snd_pcm_open", code: status, message: message)
            }
        }
        guard let statusBuffer = calsa_status_new() else {
            snd_pcm_close(pcm)
            throw .deviceFailed(device: device, call: "snd_pcm_status_malloc", code: -ENOMEM, message: Self.message(-ENOMEM))
        }
        do throws(AudioCaptureError) {
            (periodFrames, kernelStamps) = try Self.configure(pcm, device: device, format: format)
            let started = snd_pcm_start(pcm)
            guard started == 0 else { throw .deviceFailed(device: device, call: "snd_pcm_start", code: started, message: Self.message(started)) }
        } catch {
            snd_pcm_status_free(statusBuffer)
            snd_pcm_close(pcm)
            throw error
        }
        self.device = device
        self.format = format
        self.pcm = pcm
        self.statusBuffer = statusBuffer
    }

    deinit {
        snd_pcm_status_free(statusBuffer)
        snd_pcm_close(pcm)
    }

    /// Hardware: interleaved S16 at exactly the asked rate and channels (a `plughw:` or `default`
    /// device converts; a `hw:` device that cannot is a clear error), 20 ms periods in a buffer of
    /// up to 2 s (the device may grant less): reads start as soon as a period is there, so the
    /// size adds no latency, only room for a consumer that stalls (an encoder starting up, a
    /// loaded machine) before samples are lost. Software: timestamps on, on
    /// CLOCK_MONOTONIC, so `snd_pcm_status` stamps are on the video frames' clock.
    private static func configure(_ pcm: OpaquePointer, device: String, format: AudioFormat) throws(AudioCaptureError) -> (Int, Bool) {
        func check(_ code: Int32, _ what: String, refused: Bool = false) throws(AudioCaptureError) {
            guard code < 0 else { return }
            if refused { throw .formatRefused(device: device, what: what, code: code, message: message(code)) }
            throw .deviceFailed(device: device, call: what, code: code, message: message(code))
        }
        guard let hw = calsa_hw_params_new() else { throw .deviceFailed(device: device, call: "snd_pcm_hw_params_malloc", code: -ENOMEM, message: message(-ENOMEM)) }
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "interleaved access", refused: true)
        try check(snd_pcm_hw_params_set_format(pcm, hw, calsa_format_s16()), "16-bit samples (S16)", refused: true)
        try check(snd_pcm_hw_params_set_channels(pcm, hw, UInt32(format.channels)), "\(format.channels) channel(s)", refused: true)
        try check(snd_pcm_hw_params_set_rate(pcm, hw, UInt32(format.sampleRate), 0), "\(format.sampleRate) Hz", refused: true)
        var period = snd_pcm_uframes_t(format.sampleRate / 50)
        var direction: Int32 = 0
        try check(snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &direction), "a 20 ms period", refused: true)
        var buffer = snd_pcm_uframes_t(format.sampleRate * 2)
        try check(snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer), "a buffer of up to 2 s", refused: true)
        try check(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params")

        guard let sw = calsa_sw_params_new() else { throw .deviceFailed(device: device, call: "snd_pcm_sw_params_malloc", code: -ENOMEM, message: message(-ENOMEM)) }
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current")
        let stamps =
            snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE) == 0
            && snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC) == 0
        if !stamps { _ = snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_NONE) }
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "snd_pcm_sw_params_set_avail_min")
        try check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params")
        try check(snd_pcm_prepare(pcm), "snd_pcm_prepare")
        return (Int(period), stamps)
    }

    /// Waits up to `milliseconds` for a period, then reads what is there. nil: nothing yet.
    ///
    /// The first sample's time is the status's high-resolution timestamp (the instant of the last
    /// hardware pointer update, on CLOCK_MONOTONIC) minus the delay (frames captured but not yet
    /// read, as of that same update): the status and the read agree on which sample is first.
    func read(waitingUpTo milliseconds: Int32) throws(Failure) -> Capture? {
        let ready = snd_pcm_wait(pcm, milliseconds)
        if ready < 0 { throw classify(ready) }
        if ready == 0 { return nil }
        let status = snd_pcm_status(pcm, statusBuffer)
        if status < 0 { throw classify(status) }
        switch snd_pcm_status_get_state(statusBuffer) {
        case SND_PCM_STATE_XRUN: throw .xrun(code: -EPIPE)
        case SND_PCM_STATE_SUSPENDED: throw .xrun(code: -ESTRPIPE)
        case SND_PCM_STATE_DISCONNECTED: throw .lost(code: -ENODEV, message: "device disconnected")
        default: break
        }
        let available = Int(snd_pcm_status_get_avail(statusBuffer))
        guard available > 0 else { return nil }
        let delay = Int64(snd_pcm_status_get_delay(statusBuffer))
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(statusBuffer, &stamp)
        let stampNanoseconds = UInt64(stamp.tv_sec) * 1_000_000_000 + UInt64(stamp.tv_nsec)
        // A driver that stamps nothing leaves 0: then "now" is the nearest we know.
        let reference = kernelStamps && stampNanoseconds > 0 ? Int64(stampNanoseconds) : Int64(MonotonicTime.now().nanoseconds)
        let first = reference - max(0, delay) * 1_000_000_000 / Int64(format.sampleRate)

        let frames = min(available, periodFrames * 8)
        var samples = [Int16](repeating: 0, count: frames * format.channels)
        let got = samples.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(frames)) }
        if got == -Int(EAGAIN) { return nil }
        if got < 0 { throw classify(Int32(got)) }
        if got < frames { samples.removeLast((frames - got) * format.channels) }
        return Capture(samples: samples, timestamp: MonotonicTime(nanoseconds: UInt64(max(0, first))))
    }

    /// After an overrun or suspend: prepares the PCM again and restarts capture. Throws `.lost`
    /// if that does not work.
    func recover(from code: Int32) throws(Failure) {
        let recovered = snd_pcm_recover(pcm, code, 1)
        if recovered < 0 { throw .lost(code: recovered, message: Self.message(recovered)) }
        let started = snd_pcm_start(pcm)
        if started < 0 { throw .lost(code: started, message: Self.message(started)) }
    }

    private func classify(_ code: Int32) -> Failure {
        switch -code {
        case EPIPE, ESTRPIPE: .xrun(code: code)
        default: .lost(code: code, message: Self.message(code))
        }
    }

    static func message(_ code: Int32) -> String { String(cString: snd_strerror(code)) }
}
