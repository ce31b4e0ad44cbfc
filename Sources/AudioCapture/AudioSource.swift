import Media

/// Something that produces PCM on its own thread until stopped: silence, a looped WAV file, an
/// ALSA capture device.
///
/// `start` returns once the source is producing; `deliver` is called on the source's dedicated
/// thread, one `AudioFrame` at a time, in capture order with timestamps on CLOCK_MONOTONIC (the
/// clock video frames carry). A source never stops on its own: a device that goes away is
/// replaced by silence with continuous timestamps until it comes back.
public protocol AudioSource: AnyObject, Sendable {
    func start(deliver: @escaping @Sendable (AudioFrame) -> Void) throws
    /// Stops producing and waits for the thread to end; `deliver` is not called after it returns.
    func stop()
    /// Counters and device state, for the status line.
    var status: AudioSourceStatus { get }
}
