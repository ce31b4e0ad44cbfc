import Prometheus
import Telemetry

/// Turns one `TelemetryReport` into the Prometheus text format through swift-prometheus.
///
/// A fresh `PrometheusCollectorRegistry` per scrape: Camcast's own registry holds absolute
/// values and the series set follows the outputs in force, so rebuilding is simpler and exact
/// (no deltas, no unregistering after a reload) and costs microseconds at any sane scrape rate.
/// Families come sorted by name, their series sorted too (`PrometheusTextOrder`).
/// Names follow Prometheus' naming guide: one `camcast_` prefix, base units, `_total` counters.
enum MetricsExporter {
    /// Why an attempt failed: the fixed `reason` label set of connect failures (see
    /// `RTMPError.metricReason`); every RTMP output has every series from the start, so that
    /// `rate()` and `increase()` see the first failure.
    static let failureReasons = [
        "dns", "refused", "timeout", "connect_failed", "handshake", "rejected", "auth", "tls", "certificate", "protocol",
        "lost", "uplink", "other",
    ]

    /// The whole name in `metricName`: the names here are written out, as the naming guide spells them.
    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    static func text(for report: TelemetryReport, process: ProcessFacts) -> String {
        let registry = PrometheusCollectorRegistry()
        func gauge(_ name: String, _ help: String, _ labels: [(String, String)] = [], _ value: Double) {
            registry.makeGauge(descriptor: descriptor(name, help), labels: labels).set(value)
        }
        func counter(_ name: String, _ help: String, _ labels: [(String, String)] = [], _ value: Int) {
            registry.makeCounter(descriptor: descriptor(name, help), labels: labels).increment(by: Int64(value))
        }
        func counter(_ name: String, _ help: String, _ labels: [(String, String)] = [], seconds: Double) {
            registry.makeCounter(descriptor: descriptor(name, help), labels: labels).increment(by: seconds)
        }
        gauge("camcast_build_info", "Camcast's version; always 1.", [("version", report.version)], 1)
        gauge("camcast_pipeline_running", "1 while the pipeline runs.", [], report.facts.running ? 1 : 0)
        // Capture.
        let live = max(0, report.framesCaptured - report.placeholderFrames)
        counter("camcast_capture_frames_total", "Frames the source delivered, by kind.", [("kind", "live")], live)
        counter("camcast_capture_frames_total", "Frames the source delivered, by kind.", [("kind", "placeholder")], report.placeholderFrames)
        counter("camcast_capture_dropped_frames_total", "Frames lost before the encoder, by reason.", [("reason", "driver")], report.droppedByDriver)
        counter("camcast_capture_dropped_frames_total", "Frames lost before the encoder, by reason.", [("reason", "encoder_busy")], report.skippedAtSource)
        counter("camcast_capture_dropped_frames_total", "Frames lost before the encoder, by reason.", [("reason", "encoder_queue_full")], report.droppedAtEncoder)
        gauge("camcast_camera_online", "1 while the camera delivers pictures (not the placeholder).", [], report.cameraOnline ? 1 : 0)
        gauge(
            "camcast_source_resting", "1 while the source and the encoder rest between schedule windows (idle: close).", [],
            report.sourceResting != nil ? 1 : 0)
        // Encoder.
        counter("camcast_encoder_frames_total", "Pictures the encoder produced.", [], report.framesEncoded)
        counter("camcast_encoder_keyframes_total", "Keyframes (IDR) the encoder produced.", [], report.keyframes)
        counter("camcast_encoder_bytes_total", "Bytes the encoder produced.", [], report.encodedBytes)
        counter("camcast_encoder_encode_seconds_total", "Time spent encoding pictures.", [], seconds: report.encodeSeconds)
        // Base units: bytes per second (kbit/s × 1000 / 8).
        let configured = Double(report.configuredKbps) * 125
        gauge("camcast_encoder_configured_bitrate_bytes_per_second", "The configured video bitrate.", [], configured)
        let current = report.adaptedKbps > 0 ? Double(report.adaptedKbps) * 125 : configured
        gauge("camcast_encoder_bitrate_bytes_per_second", "The bitrate the encoder runs at now (adaptive bitrate may lower it).", [], current)
        // Sound.
        if report.hasAudio {
            counter("camcast_audio_frames_total", "AAC frames encoded.", [], report.audioFrames)
            counter("camcast_audio_xruns_total", "Capture overruns of the audio device.", [], report.audioXruns)
            gauge("camcast_audio_source_online", "1 while the audio source delivers sound.", [], report.audioTrouble == nil ? 1 : 0)
        }
        for output in report.outputs { export(output, gauge: gauge, counter: counter) }
        exportProcess(process, registry: registry)
        return PrometheusTextOrder.sorted(registry.emitToString())
    }

    private static func export(
        _ output: OutputReading, gauge: (String, String, [(String, String)], Double) -> Void,
        counter: (String, String, [(String, String)], Int) -> Void
    ) {
        let labels = [("output", output.name), ("kind", output.kind)] + (output.leg.map { [("leg", $0)] } ?? [])
        gauge("camcast_output_up", "1 while the output streams or writes.", labels, output.up ? 1 : 0)
        gauge("camcast_output_scheduled", "1 while the output rests outside its schedule's windows (on purpose, not down).", labels, output.phase == .scheduled ? 1 : 0)
        for phase in OutputPhase.allCases {
            gauge("camcast_output_state", "The output's state: 1 for the current one.", labels + [("state", phase.rawValue)], phase == output.phase ? 1 : 0)
        }
        gauge("camcast_output_state_since_seconds", "Unix time the output entered its current state.", labels, output.sinceUnixSeconds)
        counter("camcast_output_sent_bytes_total", "Bytes sent to the server or written to the file.", labels, output.sentBytes)
        counter("camcast_output_sent_frames_total", "Video frames sent or written.", labels, output.sentFrames)
        gauge("camcast_output_queue_seconds", "Media waiting in the output's queue.", labels, output.queueSeconds)
        counter(
            "camcast_output_dropped_frames_total", "Frames the output dropped, by reason.", labels + [("reason", "congestion")],
            output.droppedCongestion)
        counter(
            "camcast_output_dropped_frames_total", "Frames the output dropped, by reason.", labels + [("reason", "disconnected")],
            output.droppedDisconnected)
        if let recording = output.recording { export(recording, labels: labels, gauge: gauge, counter: counter) }
        if let leg = output.activeLeg {
            gauge("camcast_output_active_leg", "A failover output's leg that carries the stream: 1 the primary, 2 the first backup, …", labels, Double(leg))
        }
        if let link = output.srtLink { export(link, labels: labels, gauge: gauge, counter: counter) }
        guard output.isNetwork else { return }
        counter("camcast_output_connect_attempts_total", "Connection attempts started.", labels, output.connectAttempts)
        for reason in failureReasons {
            counter(
                "camcast_output_connect_failures_total", "Failed connection attempts and lost connections, by reason.",
                labels + [("reason", reason)], output.failuresByReason[reason] ?? 0)
        }
        counter("camcast_output_reconnects_total", "Connections made after the first one.", labels, output.reconnects)
        if output.kind == "rtmp" {
            for outcome in ReconnectRequestOutcome.allCases {
                counter(
                    "camcast_output_reconnect_requests_total", "Reconnect requests the server sent (Enhanced RTMP), by what became of them.",
                    labels + [("outcome", outcome.rawValue)], output.reconnectRequests[outcome.rawValue] ?? 0)
            }
        }
        gauge(
            "camcast_output_last_publish_time_seconds", "Unix time of the last successful publish; 0 before the first.", labels,
            output.lastPublishUnixSeconds)
    }

    /// An SRT output's link as libsrt reports it: every SRT output has every series from the start.
    private static func export(
        _ link: SRTLinkReading, labels: [(String, String)], gauge: (String, String, [(String, String)], Double) -> Void,
        counter: (String, String, [(String, String)], Int) -> Void
    ) {
        gauge("camcast_output_srt_rtt_seconds", "SRT's smoothed round-trip time; 0 without a connection.", labels, link.roundTripSeconds)
        gauge(
            "camcast_output_srt_send_buffer_seconds", "Media time SRT holds unacknowledged; packets older than the latency come too late.",
            labels, link.sendBufferSeconds)
        gauge("camcast_output_srt_send_buffer_bytes", "Payload SRT holds unacknowledged.", labels, Double(link.sendBufferBytes))
        gauge(
            "camcast_output_srt_bandwidth_bytes_per_second", "SRT's estimate of the link's capacity (packet pairs).", labels,
            link.bandwidthBytesPerSecond)
        gauge(
            "camcast_output_srt_send_rate_bytes_per_second", "What SRT sent over its last interval, retransmissions included.", labels,
            link.sendRateBytesPerSecond)
        counter("camcast_output_srt_sent_packets_total", "SRT data packets sent (each once; retransmissions not counted).", labels, link.sentPackets)
        counter("camcast_output_srt_retransmitted_packets_total", "SRT data packets sent again.", labels, link.retransmittedPackets)
        counter("camcast_output_srt_lost_packets_total", "SRT data packets the receiver reported lost.", labels, link.lostPackets)
        counter(
            "camcast_output_srt_dropped_packets_total", "SRT data packets dropped as too late for the receiver's latency.", labels,
            link.droppedPackets)
    }

    /// A recording's own figures (its bytes written are `camcast_output_sent_bytes_total`). The
    /// segment in progress is a start time, not a label: names would make a series per segment.
    private static func export(
        _ recording: RecordingReading, labels: [(String, String)], gauge: (String, String, [(String, String)], Double) -> Void,
        counter: (String, String, [(String, String)], Int) -> Void
    ) {
        counter("camcast_recording_segments_total", "Segments the recording began.", labels, recording.segmentsStarted)
        counter("camcast_recording_deleted_files_total", "Segments retention deleted.", labels, recording.filesDeleted)
        gauge("camcast_recording_kept_bytes", "All of the recording's segments on the disk, the one in progress included.", labels, Double(recording.keptBytes))
        if let free = recording.freeBytes {
            gauge("camcast_recording_free_bytes", "Free space on the recording's file system.", labels, Double(free))
        }
        gauge("camcast_recording_paused", "1 while the recording waits for disk space.", labels, recording.paused ? 1 : 0)
        gauge(
            "camcast_recording_segment_start_time_seconds", "Unix time the segment in progress is named by; 0 when none is open.", labels,
            recording.currentSegmentStartUnixSeconds ?? 0)
    }

    private static func exportProcess(_ process: ProcessFacts, registry: PrometheusCollectorRegistry) {
        registry.makeCounter(descriptor: descriptor("process_cpu_seconds_total", "Total user and system CPU time spent in seconds."), labels: [])
            .increment(by: process.cpuSeconds)
        let gauges: [(String, String, Double)] = [
            ("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", process.startTimeSeconds),
            ("process_resident_memory_bytes", "Resident memory size in bytes.", process.residentBytes),
            ("process_virtual_memory_bytes", "Virtual memory size in bytes.", process.virtualBytes),
            ("process_open_fds", "Number of open file descriptors.", process.openFileDescriptors),
            ("process_max_fds", "Maximum number of open file descriptors.", process.maxFileDescriptors),
            ("process_threads", "Number of OS threads in the process.", process.threads),
        ]
        for (name, help, value) in gauges {
            registry.makeGauge(descriptor: descriptor(name, help), labels: []).set(value)
        }
    }
}
