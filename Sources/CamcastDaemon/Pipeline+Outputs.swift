import Encoder
import FLV
import Logging
import Media
import RTMP
import Recording
import SRT
import Telemetry

extension Pipeline {
    /// One output per target, in the order given. An output that fails later is taken out of the stream
    /// alone; the run stops only when it was the last one (issue 14 #8).
    /// Their keyframe requests go to whichever session runs when they ask.
    func makeOutputs(stages: PipelineStages, latency: LatencyRecorder?) throws -> [any StreamOutput] {
        let metadata = try FLVMuxer().metadataTag(
            FLVMetadata(
                width: settings.encoder.size.width, height: settings.encoder.size.height,
                frameRate: settings.encoder.frameRate.framesPerSecond,
                videoDataRate: Double(settings.encoder.bitrateKbps), encoder: "Camcast (\(settings.encoder.encoderName))",
                videoCodec: settings.encoder.codec == .h265 ? .fourCC(.hevc) : .codecID(.avc),
                audio: settings.audio.map {
                    FLVMetadata.Audio(dataRate: Double($0.bitrateKbps), sampleRate: $0.format.sampleRate, isStereo: $0.format.channels == 2)
                }))
        let logger = self.logger
        return settings.outputs.map { target -> any StreamOutput in
            let identity = OutputIdentity()
            let meter = control.meter(for: target, named: settings.outputNames[target])
            let fail: @Sendable (OutputFailure) -> Void = { failure in
                meter.enter(.failed, error: failure.reason)
                stages.outputFailed(identity, PipelineError(failure), logger: logger)
            }
            // A scheduled output makes a fresh one of these at each window's start.
            let build: @Sendable () -> any StreamOutput = { [self] in
            let output: any StreamOutput
            switch target {
            case .flvFile(let path):
                output = FLVFileOutput(
                    path: path, metadata: metadata, hasAudio: settings.audio != nil, logger: logger, requestKeyframe: { stages.encoder.requestKeyframe() },
                    onFailure: fail, meter: meter)
            case .rtmp, .srt:
                output = makeNetworkOutput(target, uplink: settings.outputUplinks[target], metadata: metadata, meter: meter, latency: latency, stages: stages, onFailure: fail)
            case .group(let legs, let policy):
                let legMeters = control.legMeters(for: target, group: meter, legs: legs)
                output = OutputGroup(
                    name: target.description,
                    legs: legs.enumerated().map { index, leg in
                        OutputLeg(
                            name: leg.description, meter: legMeters[index],
                            make: { [self] onFailure in
                                // Latency is measured on the primary only: two legs would count each frame twice.
                                makeNetworkOutput(
                                    leg, uplink: settings.outputUplinks[leg] ?? settings.outputUplinks[target], metadata: metadata, meter: legMeters[index], latency: index == 0 ? latency : nil, stages: stages,
                                    onFailure: onFailure)
                            },
                            isReachable: { [settings] in
                                Self.answers(leg, uplink: settings.outputUplinks[leg] ?? settings.outputUplinks[target], settings: settings)
                            })
                    }, policy: policy, meter: meter, logger: logger, onFailure: fail)
            case .annexBFile(let path, let maxFrames):
                output = AnnexBFileOutput(
                    path: path, frameLimit: maxFrames, logger: logger, requestKeyframe: { stages.encoder.requestKeyframe() },
                    onFailure: fail, meter: meter)
            case .recording(let recording):
                // A full disk pauses a recording; it never fails the run.
                output = RecordingOutput(
                    settings: recording,
                    stream: RecordedStream(
                        width: settings.encoder.size.width, height: settings.encoder.size.height, frameRate: settings.encoder.frameRate,
                        audioSampleRate: settings.audio?.format.sampleRate, audioChannels: settings.audio?.format.channels,
                        container: recording.container),
                    logger: logger, requestKeyframe: { stages.encoder.requestKeyframe() },
                    isDown: { stages.currentOutputs.contains(where: \.isInterrupted) }, meter: meter)
            }
            return output
            }
            let output: any StreamOutput
            if let schedule = settings.outputSchedules[target] {
                let unsetClock = settings.unsetClock
                output = ScheduledOutput(
                    name: target.description, meter: meter, logger: logger,
                    window: { ScheduleClock.window(of: schedule, unsetClock: unsetClock) }, make: build)
            } else {
                output = build()
            }
            identity.set(output)
            meter.setStatistics { [weak output] in output?.statistics ?? OutputStatistics() }
            return output
        }
    }

    /// An RTMP or SRT output (`target` is `.rtmp` or `.srt`): one of its own, or a leg of a group.
    /// `uplink`: the interface or source address it leaves by (a group's legs share the group's).
    func makeNetworkOutput(
        _ target: OutputTarget, uplink: Uplink?, metadata: FLVTag, meter: OutputMeter, latency: LatencyRecorder?, stages: PipelineStages,
        onFailure: @escaping @Sendable (OutputFailure) -> Void
    ) -> any NetworkOutput {
        switch target {
        case .srt(let url, var options):
            options.connectTimeoutSeconds = settings.rtmp.connectTimeoutSeconds
            options.sendTimeoutSeconds = settings.rtmp.sendTimeoutSeconds
            options.uplink = uplink
            let stream = RecordedStream(
                width: settings.encoder.size.width, height: settings.encoder.size.height, frameRate: settings.encoder.frameRate,
                audioSampleRate: settings.audio?.format.sampleRate, audioChannels: settings.audio?.format.channels, container: .ts)
            return SRTOutput(
                host: url.host, port: url.port, displayName: target.description, options: options, reconnect: settings.reconnect,
                queueMilliseconds: settings.sendQueueMilliseconds, logger: logger, requestKeyframe: { stages.encoder.requestKeyframe() },
                onFailure: onFailure,
                makeMuxer: { keyframe, audioConfiguration, sink throws(ConnectionMuxerError) in
                    try TransportStreamMuxer(
                        keyframe: keyframe, stream: stream, audioConfiguration: audioConfiguration, messageSize: SRTCaller.messageSize, sink: sink)
                }, meter: meter)
        case .rtmp(let url):
            var options = settings.rtmp
            options.uplink = uplink
            // The connect command announces the codec (Enhanced RTMP v2 fourCcList).
            options.videoFourCC = settings.encoder.codec == .h265 ? "hvc1" : "avc1"
            return RTMPOutput(
                url: url, options: options, reconnect: settings.reconnect, metadata: metadata,
                queueMilliseconds: settings.sendQueueMilliseconds, bitrateKbps: settings.encoder.bitrateKbps,
                logger: logger, requestKeyframe: { stages.encoder.requestKeyframe() }, onFailure: onFailure,
                latency: latency, meter: meter)
        default:
            preconditionFailure("\(target) is not a network output")
        }
    }

    /// Whether a leg's server answers now (a failover output's way back to an earlier leg): a TCP
    /// connection for RTMP, an SRT handshake (closed at once) for SRT; bounded by the connect timeout.
    static func answers(_ leg: OutputTarget, uplink: Uplink?, settings: RunSettings) -> Bool {
        let timeout = Double(min(5, max(1, settings.rtmp.connectTimeoutSeconds)))
        switch leg {
        case .rtmp(let url):
            return ServerProbe.acceptsConnections(host: url.host, port: url.port, timeoutSeconds: timeout, uplink: uplink)
        case .srt(let url, var options):
            options.connectTimeoutSeconds = Int(timeout)
            options.uplink = uplink
            let caller = SRTCaller(host: url.host, port: url.port, options: options)
            defer { caller.close() }
            do {
                try caller.connect()
                return true
            } catch {
                return false
            }
        default:
            return false
        }
    }

    /// A start that failed after the outputs opened: file outputs take away what they made (an
    /// empty file, a recording's new folder), the others end as on a stop (an RTMP output
    /// unpublishes). No debris (issues 25 and 41).
    static func abandon(_ outputs: [any StreamOutput]) async {
        await DedicatedThread.run {
            for output in outputs { output.abandon(endTime: 0, drainSeconds: 0) }
        }
    }

    /// Opens each output in turn, on a thread of its own. If one fails, the ones already open
    /// are abandoned (their files removed, an RTMP one unpublished) before the error, which
    /// names the output that failed.
    static func open(_ outputs: [any StreamOutput]) async throws {
        var opened: [any StreamOutput] = []
        for output in outputs {
            do {
                do {
                    try await DedicatedThread.run { () throws(OutputFailure) in try output.open() }
                } catch {
                    // Only a file output fails to open (an RTMP output connects in the background):
                    // a path the sandbox or permissions forbid, which no restart will mend.
                    throw PipelineError.outputUnavailable(output: error.output, reason: error.reason)
                }
                opened.append(output)
            } catch {
                // The earlier outputs' files were made for a run that does not start (issue 41:
                // `--output a.flv --output /proc/nope.flv` left a.flv with its 13-byte header).
                await abandon(opened)
                throw error
            }
        }
    }
}
