import AudioCapture
import AudioEncoder
import Media

extension AudioStage {
    /// A reload: a new source (and a new session if the format or bit rate changed) in place of
    /// the old, the video untouched. Throws if the new source cannot start; the old one then goes
    /// on, with a session of its own format (the old session, or a fresh one if it was flushed).
    ///
    /// While it runs the phase is `.replacing`, so a stop meanwhile is seen: it stops the old
    /// source and flushes the session in force, and the replacement, if it started, is stopped
    /// here rather than left running. Nothing fails silently: an old source that cannot start
    /// again fails the run through `onFailure`.
    public func replace(with new: AudioSettings) throws {
        let replacement = try sources(new)
        let taken = state.withLock { state -> (any AudioSource, AACEncoderSession?, AudioSettings, MonotonicTime?)? in
            guard case .running(let source, let session) = state.phase else { return nil }
            state.phase = .replacing(source: source, session: session)
            return (source, session, state.settings, state.origin)
        }
        guard let (old, oldSession, oldSettings, origin) = taken else { return }
        old.stop()
        let changesEncoder = Self.encoderSettings(new) != Self.encoderSettings(oldSettings)
        var session = oldSession
        if changesEncoder, let oldSession, let origin {
            // The new session opens before the old one is flushed: if it cannot, the old source
            // goes on with its session untouched.
            do {
                session = try openSession(new, origin: origin)
            } catch {
                resume(old, with: oldSession)
                throw error
            }
            // Its last packets go out; the AudioSpecificConfig may change, and outputs send the
            // new one before the next frame. A stop may have flushed it already (.closed).
            try? oldSession.flush()
        }
        // Before the new source's first packet; kept if it then fails to start (a delay larger
        // than the old rate needs costs nothing but a later presentation).
        if changesEncoder { encoderChanging(new) }
        let stillReplacing = state.withLock { state -> Bool in
            guard case .replacing = state.phase else { return false }
            state.phase = .replacing(source: old, session: session)
            return true
        }
        guard stillReplacing else {
            if session !== oldSession { session?.close() }
            return
        }
        do {
            try replacement.start(deliver: deliver)
        } catch {
            if session !== oldSession { session?.close() }
            var restored = oldSession
            if changesEncoder, oldSession != nil, let origin {
                do {
                    restored = try openSession(oldSettings, origin: origin)
                } catch let reopenError {
                    restored = nil
                    onFailure("audio encoder: the previous settings could not be opened again: \(reopenError)")
                }
            }
            resume(old, with: restored)
            throw error
        }
        let installed = state.withLock { state -> Bool in
            guard case .replacing = state.phase else { return false }
            let retired = old.status
            state.retired.deliveredFrames += retired.deliveredFrames
            state.retired.xruns += retired.xruns
            state.retired.reopens += retired.reopens
            state.settings = new
            state.phase = .running(source: replacement, session: session)
            return true
        }
        // A stop came while the replacement started: it stopped the old source only.
        if !installed { replacement.stop() }
    }

    /// The replaced source starts again with `session`, unless a stop came meanwhile. A source
    /// that will not start again fails the run: a stream silently without its sound is worse.
    private func resume(_ old: any AudioSource, with session: AACEncoderSession?) {
        let resumed = state.withLock { state -> Bool in
            guard case .replacing = state.phase else { return false }
            state.phase = .running(source: old, session: session)
            return true
        }
        guard resumed else {
            session?.close()
            return
        }
        do {
            try old.start(deliver: deliver)
        } catch {
            onFailure("audio: the previous source could not start again: \(error)")
        }
    }
}
