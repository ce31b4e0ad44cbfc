/// The registry's figures at one moment (`TelemetryRegistry.report()`); /status is this as JSON.
public struct TelemetryReport: Sendable, Equatable, Codable {
    public var version: String
    public var startUnixSeconds: Double
    public var uptimeSeconds: Double
    public var facts: TelemetryRegistry.Facts
    public var framesCaptured: Int
    public var placeholderFrames: Int
    public var framesEncoded: Int
    public var keyframes: Int
    public var encodedBytes: Int
    public var encodeSeconds: Double
    public var configuredKbps: Int
    public var adaptedKbps: Int
    public var skippedAtSource: Int
    public var droppedByDriver: Int
    public var droppedAtEncoder: Int
    public var cameraTrouble: String?
    public var hasAudio: Bool
    public var audioFrames: Int
    public var audioXruns: Int
    public var audioTrouble: String?
    public var outputs: [OutputReading]
    /// Why no frame flows on purpose: every output rests by its schedule and the source with them
    /// (`idle: close`), "until Mon 07:30 (07:30)"; nil while the source runs.
    public var sourceResting: String? = nil

    public var cameraOnline: Bool { facts.running && cameraTrouble == nil }

    /// Why the stream is not healthy, one reason per problem; empty while it is: every RTMP output
    /// streams (or is in its very first connect), every file writes, the camera delivers.
    public var healthProblems: [String] {
        var problems: [String] = []
        if !facts.running { problems.append("pipeline not running") }
        if let cameraTrouble { problems.append("camera: \(cameraTrouble)") }
        // A leg of a group is the group's affair: the group is down only when it streams nowhere.
        for output in outputs where !output.up && output.leg == nil && output.phase != .scheduled {
            let firstConnect = (output.phase == .connecting || output.phase == .starting) && output.lastPublishUnixSeconds == 0
                && output.attemptsSinceUp <= 1 && output.lastError == nil
            if !firstConnect { problems.append(output.trouble ?? "\(output.name) \(output.phase.rawValue)") }
        }
        return problems
    }

    /// What an operator should know although nothing is down: a failover output streaming on a
    /// backup leg, a dual-ingest output with a leg down (/healthz says it with its 200).
    public var healthNotes: [String] {
        (sourceResting.map { ["source resting \($0): every output is outside its schedule"] } ?? [])
            + outputs.filter { $0.up && $0.isGroup }.compactMap { output in output.lastError.map { "\(output.name): \($0)" } }
    }

    /// The short form for systemd's STATUS=: `streaming 1280x720 to 2/2 outputs`, or what is wrong.
    public var shortStatus: String {
        let outputs = outputs.filter { $0.leg == nil && $0.phase != .scheduled }
        let up = outputs.filter(\.up).count
        var text = "\(up == outputs.count ? "streaming" : "degraded") \(facts.width)x\(facts.height) to \(up)/\(outputs.count) outputs"
        if let cameraTrouble { text = "[\(cameraTrouble)] " + text }
        let down = outputs.compactMap(\.trouble)
        if !down.isEmpty { text += "; " + down.joined(separator: "; ") }
        return text
    }
}
