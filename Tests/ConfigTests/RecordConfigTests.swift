import Config
import Testing

@Suite struct RecordConfigTests {
    @Test func aRecordOutputTakesItsKeys() throws {
        let config = try CamcastConfig.parse(
            yaml: """
                outputs:
                  - url: rtmp://example.com/live/k
                  - record: /var/lib/camcast/recordings
                    segment_seconds: 300
                    segment_name: "%Y/%m/%d/%H%M%S%z.mp4"
                    max_age_seconds: 604800
                    max_bytes: 20G
                    min_free_bytes: 512MiB
                """, fileName: "camcast.yaml")
        #expect(config.outputs.last == .record(CamcastConfig.RecordConfig(
            directory: "/var/lib/camcast/recordings", segmentSeconds: 300, name: "%Y/%m/%d/%H%M%S%z.mp4",
            maxAgeSeconds: 604_800, maxBytes: 20 << 30, minFreeBytes: 512 << 20)))
    }

    @Test func defaultsAreTenMinuteSegmentsNamedByLocalTimeWithOffset() throws {
        let config = try CamcastConfig.parse(yaml: "outputs:\n  - record: rec\n", fileName: "camcast.yaml")
        #expect(config.outputs == [.record(CamcastConfig.RecordConfig(directory: "rec"))])
        #expect(CamcastConfig.RecordConfig.defaultSegmentSeconds == 600)
        #expect(CamcastConfig.RecordConfig.defaultName == "%Y-%m-%d/%H-%M-%S%z.mp4")
    }

    @Test func containerTSNamesSegmentsDotTSUnlessANameIsGiven() throws {
        func record(_ keys: String) throws -> CamcastConfig.RecordConfig? {
            let config = try CamcastConfig.parse(yaml: "outputs:\n  - record: rec\n\(keys)", fileName: "camcast.yaml")
            guard case .record(let record) = config.outputs.first else { return nil }
            return record
        }
        let ts = try #require(try record("    container: ts\n"))
        #expect(ts.container == .ts && ts.name == "%Y-%m-%d/%H-%M-%S%z.ts")
        let named = try #require(try record("    segment_name: \"%H%M%S.ts\"\n    container: TS\n"))
        #expect(named.container == .ts && named.name == "%H%M%S.ts")
        #expect(try record("    container: mp4\n") == CamcastConfig.RecordConfig(directory: "rec"))
        let error = try #require(throws: ConfigError.self) { _ = try record("    container: mkv\n") }
        #expect(error.problems.contains { $0.keyPath == "outputs[0].container" && $0.message.contains("mp4, ts") }, "\(error)")
    }

    @Test(arguments: [
        ("    segment_seconds: 0", "outputs[0].segment_seconds"),
        ("    max_bytes: lots", "outputs[0].max_bytes"),
        ("    segment_name: ../escape-%s.mp4", "outputs[0].segment_name"),
        ("    segment_name: /abs/%s.mp4", "outputs[0].segment_name"),
        ("    segment_name: fixed.mp4", "outputs[0].segment_name"),
        ("    url: rtmp://example.com/live/k", "outputs[0]"),
    ])
    func badRecordKeysAreReportedWhereTheyStand(_ line: String, _ keyPath: String) throws {
        let error = try #require(throws: ConfigError.self) {
            try CamcastConfig.parse(yaml: "outputs:\n  - record: rec\n\(line)\n", fileName: "camcast.yaml")
        }
        #expect(error.problems.contains { $0.keyPath == keyPath }, "\(error)")
    }

    @Test func recordKeysWithoutRecordAreReported() throws {
        let error = try #require(throws: ConfigError.self) {
            try CamcastConfig.parse(yaml: "outputs:\n  - path: /tmp/a.flv\n    max_bytes: 1G\n", fileName: "camcast.yaml")
        }
        #expect(error.problems.contains { $0.keyPath == "outputs[0].max_bytes" && $0.message.contains("record") }, "\(error)")
    }

    @Test func outageModeTakesItsKeysAndTheyNeedIt() throws {
        let config = try CamcastConfig.parse(
            yaml: "outputs:\n  - record: rec\n    mode: outage\n    pre_seconds: 5\n    pre_bytes: 8M\n", fileName: "camcast.yaml")
        guard case .record(let record) = config.outputs.first else {
            Issue.record("not a record output: \(config.outputs)")
            return
        }
        #expect(record.outage == .init(preSeconds: 5, preBytes: 8 << 20, postSeconds: 10))
        let error = try #require(throws: ConfigError.self) {
            try CamcastConfig.parse(yaml: "outputs:\n  - record: rec\n    post_seconds: 5\n", fileName: "camcast.yaml")
        }
        #expect(error.problems.contains { $0.keyPath == "outputs[0].post_seconds" && $0.message.contains("mode: outage") }, "\(error)")
        let bad = try #require(throws: ConfigError.self) {
            try CamcastConfig.parse(yaml: "outputs:\n  - record: rec\n    mode: sometimes\n", fileName: "camcast.yaml")
        }
        #expect(bad.problems.contains { $0.keyPath == "outputs[0].mode" && $0.message.contains("continuous, outage") }, "\(bad)")
    }
}
