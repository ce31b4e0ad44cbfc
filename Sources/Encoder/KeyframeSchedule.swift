/// Where the session places its scheduled IDRs: a full interval after the last IDR, counted both
/// in frames and in capture time, whichever is reached first.
///
/// Counting frames alone is wrong for real cameras: a webcam whose auto exposure halves its frame
/// rate in low light, or a driver that drops frames, would stretch "2 s between keyframes" to 4 s,
/// and a viewer joining the stream would wait that long for a picture.
struct KeyframeSchedule {
    /// The interval in frames (the smaller of the frame and second settings, see `EncoderSettings`).
    private(set) var intervalFrames: Int
    /// The interval in PTS milliseconds, less half a frame: on a jittery clock the frame that is
    /// nominally due may arrive a little early and must still count.
    private(set) var intervalMilliseconds: Int64
    /// Input index and PTS of the last IDR, forced here or chosen by x264 (scene cut).
    private(set) var lastInput: Int64?
    private(set) var lastPTS: Int64?

    init(_ settings: EncoderSettings) {
        intervalFrames = settings.keyframeIntervalInFrames
        intervalMilliseconds = Self.milliseconds(settings)
    }

    /// Takes a changed interval; it runs from the last IDR, so it may make the next frame due.
    mutating func change(to settings: EncoderSettings) {
        intervalFrames = settings.keyframeIntervalInFrames
        intervalMilliseconds = Self.milliseconds(settings)
    }

    /// Whether the frame with input index `input` and `pts` must be an IDR (the first always is).
    func isDue(input: Int64, pts: Int64) -> Bool {
        guard let lastInput, let lastPTS else { return true }
        return input - lastInput >= Int64(intervalFrames) || pts - lastPTS >= intervalMilliseconds
    }

    /// Notes an IDR; one learned late (x264 reports pictures after it took them) never moves the
    /// schedule back.
    mutating func recordKeyframe(input: Int64, pts: Int64) {
        if let lastInput, input < lastInput { return }
        lastInput = input
        lastPTS = pts
    }

    private static func milliseconds(_ settings: EncoderSettings) -> Int64 {
        let halfFrame = 500 / settings.frameRate.framesPerSecond
        return Int64((settings.keyframeIntervalSeconds * 1000 - halfFrame).rounded(.down))
    }
}
