extension RTMPOutput {
    /// The output streamed and does not now (the server or the link went away, a reconnect is
    /// under way or was given up): what viewers miss, for an outage recording. An output that has
    /// not streamed yet is not down, so a start does not count as an outage, nor does one being
    /// stopped (the end of the run, a reload that removes it).
    package var isInterrupted: Bool {
        guard sentFrames.load(ordering: .relaxed) > 0 else { return false }
        return state.withLock { state in
            switch state {
            case .streaming, .draining, .finished(.stopped): false
            default: true
            }
        }
    }
}
