import AudioCapture

extension AudioStage {
    /// Between schedule windows (`idle: close`, issue 44): the source stops (an ALSA device is
    /// closed, silence stops being made) and the session waits. Nothing else changes: the session
    /// stamps each block with its capture time (AACPacketClock), so the sound after `wake` lands
    /// at its own instant, hours on, beside the video of that instant. Call only while the stage
    /// runs, never beside a reload (the pipeline's stages serialise both).
    public func rest() {
        runningSource?.stop()
    }

    /// The source `rest` stopped starts again. Throws what its start threw (a device that will
    /// not open again with the format it had).
    public func wake() throws {
        try runningSource?.start(deliver: deliver)
    }

    private var runningSource: (any AudioSource)? {
        state.withLock { state in
            if case .running(let source, _) = state.phase { source } else { nil }
        }
    }
}
