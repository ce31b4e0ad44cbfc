import Capture
import Logging
import Media

extension Pipeline {
    /// The frame source `settings.source` names, opened (a camera opens and negotiates only in
    /// `start`). A file or replay that ends or fails fires `stop`.
    func makeSource(stop: StopSignal) throws -> any FrameSource {
        switch settings.source {
        case .testPattern:
            return try TestPatternSource(size: settings.encoder.size, frameRate: settings.encoder.frameRate)
        case .device(let device):
            return try V4L2CaptureSource(settings: device, logger: logger)
        case .file(let file):
            let source: Y4MFileSource
            do {
                source = try Y4MFileSource(settings: file, logger: logger) { error in
                    stop.fire(error.map { .failed(.sourceFailed("\(file.isStandardInput ? "stdin" : file.path): \($0)")) } ?? .sourceEnded)
                }
            } catch {
                // The header (the start checks read a named file's, not stdin's) or the file itself.
                throw PipelineError.sourceUnusable("\(error)")
            }
            // A file's header set the encoder up (SettingsResolver); stdin cannot be read twice, so
            // its header must agree with the size and rate given for it.
            guard source.size == settings.encoder.size, source.frameRate == settings.encoder.frameRate else {
                throw PipelineError.sourceUnusable(
                    "the y4m input is \(source.size)@\(source.frameRate) fps but the encoder is set up for "
                        + "\(settings.encoder.size)@\(settings.encoder.frameRate); give --size and --fps to match")
            }
            return source
        case .replay(let replay):
            let name = replay.isStandardInput ? "stdin" : replay.path
            do {
                return try CameraReplaySource(settings: replay, logger: logger) { error in
                    stop.fire(error.map { .failed(.sourceFailed("\(name): \($0)")) } ?? .sourceEnded)
                }
            } catch {
                throw PipelineError.sourceUnusable("\(name): \(error)")
            }
        }
    }

    /// The thread that rests the source and the encoder between schedule windows; nil (logged) if
    /// it cannot start: then they keep running, as with `idle: keep`.
    func startIdleRest(_ stages: PipelineStages) -> IdleRest? {
        do {
            let rest = try IdleRest(stages: stages, pipeline: self)
            try rest.start()
            return rest
        } catch {
            logger.warning("schedule: the source and the encoder cannot rest between windows", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
