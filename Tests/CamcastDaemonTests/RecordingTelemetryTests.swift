import Testing

@testable import StatusServer
@testable import Telemetry

/// A recording's figures as /metrics, /status and /healthz give them: read from its probe at
/// report time, its pause a phase of its own that health reports.
@Suite struct RecordingTelemetryTests {
    private func recordingRegistry(_ reading: RecordingReading) -> (TelemetryRegistry, OutputMeter) {
        let registry = TelemetryRegistry(version: "9.9.9")
        let meter = OutputMeter(name: "record-1", kind: "record", target: "/var/lib/camcast/rec")
        meter.setStatistics { OutputStatistics(sentFrames: 300, recording: reading) }
        registry.setOutputs([meter])
        registry.update { $0.running = true; $0.width = 320; $0.height = 180 }
        return (registry, meter)
    }

    @Test func metricsNameTheRecordingsFiguresInBaseUnits() {
        let reading = RecordingReading(
            directory: "/var/lib/camcast/rec", bytesWritten: 1_234_567, segmentsStarted: 7, filesDeleted: 3, keptBytes: 900_000,
            freeBytes: 5_000_000, currentSegment: "2026-11-26/07-00-00+0000.mp4", currentSegmentStartUnixSeconds: 1_795_000_000)
        let (registry, meter) = recordingRegistry(reading)
        meter.enter(.writing)
        let text = String(decoding: StatusEndpoints(registry: registry).reply(method: "GET", path: "/metrics").body, as: UTF8.self)
        let labels = #"{output="record-1",kind="record"}"#
        let expected: [(String, Double)] = [
            ("camcast_output_up", 1), ("camcast_output_sent_bytes_total", 1_234_567), ("camcast_recording_segments_total", 7),
            ("camcast_recording_deleted_files_total", 3), ("camcast_recording_kept_bytes", 900_000),
            ("camcast_recording_free_bytes", 5_000_000), ("camcast_recording_paused", 0),
            ("camcast_recording_segment_start_time_seconds", 1_795_000_000),
        ]
        for (name, value) in expected {
            #expect(Self.value(of: name + labels, in: text) == value, "\(name) in:\n\(text)")
        }
        #expect(text.contains("# TYPE camcast_recording_deleted_files_total counter"), "\(text)")
        #expect(!text.contains("07-00-00"), "a segment's name is no label")
        let status = String(decoding: StatusEndpoints(registry: registry).reply(method: "GET", path: "/status").body, as: UTF8.self)
        #expect(status.contains(#""currentSegment" : "2026-11-26\/07-00-00+0000.mp4""#), "\(status)")
        #expect(status.contains(#""filesDeleted" : 3"#) && status.contains(#""freeBytes" : 5000000"#), "\(status)")
    }

    @Test func aPausedRecordingIsUnhealthyAndSaysWhy() {
        let reading = RecordingReading(directory: "/rec", paused: true, pauseReason: "write /rec/a.mp4: No space left on device")
        let (registry, meter) = recordingRegistry(reading)
        meter.enter(.writing)
        meter.enter(.paused, error: "recording paused: write /rec/a.mp4: No space left on device")
        let endpoints = StatusEndpoints(registry: registry)
        let health = endpoints.reply(method: "GET", path: "/healthz")
        let body = String(decoding: health.body, as: UTF8.self)
        #expect(health.status == 503)
        #expect(body.hasPrefix("record-1 down 0 s: recording paused: write /rec/a.mp4: No space left on device"), "\(body)")
        let text = String(decoding: endpoints.reply(method: "GET", path: "/metrics").body, as: UTF8.self)
        #expect(Self.value(of: #"camcast_recording_paused{output="record-1",kind="record"}"#, in: text) == 1, "\(text)")
        #expect(Self.value(of: #"camcast_output_state{output="record-1",kind="record",state="paused"}"#, in: text) == 1, "\(text)")
        #expect(!text.contains(#"camcast_recording_free_bytes"#), "no figure where statvfs had none")
        meter.enter(.writing)
        #expect(endpoints.reply(method: "GET", path: "/healthz").status == 200)
    }

    static func value(of series: String, in metrics: String) -> Double? {
        metrics.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.dropFirst(series.count + 1)) }
    }
}
