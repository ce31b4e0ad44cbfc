import AudioCapture
import AudioPath
import Capture
import Logging
import Media

extension Pipeline {
    /// The audio stage for `settings.audio` (nil for none), its encoder checked now so that bad
    /// settings fail before anything starts. Packets go to `interleaver` (made for runs with
    /// sound); once the run stops, only those that start before `soundEnd` (stream ms): the sound
    /// ends with the picture, not a teardown later, and the encoder's last frames, which it hands
    /// out only at its flush (three frames: 384 ms at 8 kHz), are not lost.
    func makeAudioStage(
        stop: StopSignal, assembler: MediaPacketAssembler, interleaver: PacketInterleaver?, soundEnd: @escaping @Sendable () -> Int64,
        requestKeyframe: @escaping @Sendable () -> Void
    ) throws -> AudioStage? {
        guard let interleaver else { return nil }
        guard let audio = settings.audio else { return nil }
        do {
            try AudioStage.checkEncoder(audio)
        } catch {
            throw PipelineError.encoderFailed("audio: \(error)")
        }
        // Lead-in silence the interleaver can still place before the first pictures it holds: its
        // window less the AAC encoder's delay (the lead-in's packets come out with the first
        // real sample's, that much after it).
        let leadInMilliseconds = max(0, Self.interleaverWindowMilliseconds - PacketInterleaver.presentationDelay(sampleRate: audio.format.sampleRate))
        return AudioStage(
            settings: audio, logger: logger, startMilliseconds: assembler.startMilliseconds,
            leadInLimitNanoseconds: UInt64(leadInMilliseconds) * 1_000_000,
            // An encode's packets and the next one's time go in under one take of its lock.
            deliver: { packets, next in
                guard stop.hasFired else { return interleaver.push(packets, announcing: next.map { (.audio, $0) }) }
                let end = soundEnd()
                interleaver.push(packets.filter { $0.dts < end }, announcing: nil)
            },
            onFailure: { reason in stop.fire(.failed(.encoderFailed(reason))) },
            encoderChanging: { [logger] audio in
                // A keyframe soon: where the pictures take a raised delay, and where a recording
                // starts a segment for the sound's new format.
                requestKeyframe()
                // A lower sample rate: longer AAC frames, so the sound comes later after its
                // instant; the pictures take the longer delay at that keyframe.
                let delay = PacketInterleaver.presentationDelay(sampleRate: audio.format.sampleRate)
                if let before = interleaver.raisePresentationDelay(to: delay) {
                    logger.info(
                        "presentation delay raised",
                        metadata: ["from_ms": "\(before)", "to_ms": "\(delay)", "sample_rate": "\(audio.format.sampleRate)"])
                }
                interleaver.announce(.audio, next: Self.firstTimeOfNewEncoder(audio, assembler: assembler))
            })
    }

    /// The earliest stream time (ms) the packets of an audio encoder opened now can have: its
    /// source starts after this, and the encoder's first (priming) packet lies one frame before
    /// the first sample. Announced, it lets the pictures go on while the new encoder fills its
    /// first frames (three: 384 ms at 8 kHz); they used to wait for it, up to the interleaver's
    /// window, once per reload.
    static func firstTimeOfNewEncoder(_ audio: AudioSettings, assembler: MediaPacketAssembler) -> Int64 {
        let frameMilliseconds = Int64((1024 * 1000 + audio.format.sampleRate - 1) / audio.format.sampleRate)
        // A millisecond more: the packet's time is rounded down from nanoseconds.
        return assembler.streamTime(ofCaptureTime: MonotonicTime.now().milliseconds) - frameMilliseconds - 1
    }

    /// How far the interleaver lets one track run ahead of the other, stalled, in media time.
    /// The camera stamps placeholders up to `placeholderBackfillMilliseconds` into the past when
    /// it notices a loss late; with a shorter window the sound went out first and those pictures
    /// were moved up onto it (a 300 ms window, the vivid VM's silent camera: a 212 ms hole, then
    /// ten pictures 21 ms apart, the AAC frame's length). A quarter second more for encoding the
    /// first of them. Only a stall waits this long: with both tracks flowing the announcements
    /// release every packet as soon as the other track's time has passed it.
    static let interleaverWindowMilliseconds = V4L2CaptureSource.placeholderBackfillMilliseconds + 250

    /// The stop summary's audio figures.
    static func audioSummary(_ audio: AudioStage, late: Int) -> Logger.Metadata {
        let status = audio.status
        return [
            "audio_frames": "\(audio.encodedFrames.load(ordering: .relaxed))", "audio_xruns": "\(status.xruns)",
            "audio_device": "\(status.device)", "audio_late": "\(late)",
        ]
    }
}
