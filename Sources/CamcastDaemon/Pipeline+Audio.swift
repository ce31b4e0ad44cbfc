import AudioCapture
import Logging
import Media

extension Pipeline {
    /// The audio stage for `settings.audio` (nil for none), its encoder checked now so that bad
    /// settings fail before anything starts. Packets go to `interleaver` (made for runs with
    /// sound); once the run stops, only those that start before `soundEnd` (stream ms): the sound
    /// ends with the picture, not a teardown later, and the encoder's last frames, which it hands
    /// out only at its flush (three frames: 384 ms at 8 kHz), are not lost.
    func makeAudioStage(
        stop: StopSignal, streamStart: Int64, interleaver: PacketInterleaver?, soundEnd: @escaping @Sendable () -> Int64,
        requestKeyframe: @escaping @Sendable () -> Void
    ) throws -> AudioStage? {
        guard let interleaver else { return nil }
        guard let audio = settings.audio else { return nil }
        do {
            try AudioStage.checkEncoder(audio)
        } catch {
            throw PipelineError.encoderFailed("audio: \(error)")
        }
        return AudioStage(
            settings: audio, logger: logger, startMilliseconds: streamStart,
            // An encode's packets and the next one's time go in under one take of its lock.
            deliver: { packets, next in
                guard stop.hasFired else { return interleaver.push(packets, announcing: next.map { (.audio, $0) }) }
                let end = soundEnd()
                interleaver.push(packets.filter { $0.dts < end }, announcing: nil)
            },
            onFailure: { reason in stop.fire(.failed(.encoderFailed(reason))) },
            encoderChanging: { [logger] audio in
                // A lower sample rate: longer AAC frames, so the sound comes later after its
                // instant; the pictures take the longer delay at a keyframe asked for now.
                let delay = PacketInterleaver.presentationDelay(sampleRate: audio.format.sampleRate)
                guard let before = interleaver.raisePresentationDelay(to: delay) else { return }
                requestKeyframe()
                logger.info(
                    "presentation delay raised", metadata: ["from_ms": "\(before)", "to_ms": "\(delay)", "sample_rate": "\(audio.format.sampleRate)"])
            })
    }

    /// The stop summary's audio figures.
    static func audioSummary(_ audio: AudioStage, late: Int) -> Logger.Metadata {
        let status = audio.status
        return [
            "audio_frames": "\(audio.encodedFrames.load(ordering: .relaxed))", "audio_xruns": "\(status.xruns)",
            "audio_device": "\(status.device)", "audio_late": "\(late)",
        ]
    }
}
