import AudioPath
import Capture
import Encoder
import Media
import RTMPAddress
import Testing

@testable import CamcastDaemon
@testable import Outputs

@Suite struct ReloadPlanTests {
    static let file = OutputTarget.flvFile(path: "/var/lib/camcast/a.flv")
    static let server = OutputTarget.rtmp(try! RTMPURL(parsing: "rtmp://127.0.0.1/live/one"))
    static let otherKey = OutputTarget.rtmp(try! RTMPURL(parsing: "rtmp://127.0.0.1/live/two"))

    static func settings(bitrate: Int = 2500, outputs: [OutputTarget] = [file, server]) -> RunSettings {
        RunSettings(
            source: .testPattern,
            encoder: EncoderSettings(size: VideoSize(width: 640, height: 360), frameRate: FrameRate(numerator: 30, denominator: 1), bitrateKbps: bitrate),
            outputs: outputs)
    }

    @Test func sameSettingsChangeNothing() {
        #expect(ReloadPlan(from: Self.settings(), to: Self.settings()).isEmpty)
    }

    @Test func bitrateAndKeyframeIntervalApplyToTheRunningEncoderOnly() {
        var new = Self.settings(bitrate: 4000)
        new.encoder.keyframeIntervalSeconds = 1
        let plan = ReloadPlan(from: Self.settings(), to: new)
        #expect(plan.bitrateKbps == 4000)
        #expect(plan.keyframeInterval == .init(seconds: 1, frames: nil))
        #expect(plan.outputsToClose.isEmpty && plan.outputsToOpen.isEmpty, "no output reconnects")
        #expect(!plan.restartSource)
        #expect(plan.needsRestart.isEmpty)
    }

    /// Adaptive bitrate's switch and floor go into the running settings (the adapter reads them
    /// there); no output reconnects, nothing restarts.
    @Test func adaptiveBitrateChangesApplyWithoutRestartingAnything() {
        var old = Self.settings()
        old.adaptiveBitrateFloorKbps = 625
        var floor = old
        floor.adaptiveBitrateFloorKbps = 300
        let lowered = ReloadPlan(from: old, to: floor)
        #expect(lowered.adaptiveBitrateFloorKbps == .some(300))
        #expect(!lowered.isEmpty)
        var off = old
        off.adaptiveBitrateFloorKbps = nil
        let switchedOff = ReloadPlan(from: old, to: off)
        #expect(switchedOff.adaptiveBitrateFloorKbps == .some(nil))
        #expect(switchedOff.outputsToClose.isEmpty && switchedOff.outputsToOpen.isEmpty && switchedOff.needsRestart.isEmpty)
        #expect(ReloadPlan(from: old, to: old).adaptiveBitrateFloorKbps == nil)
    }

    @Test func anAudioChangeRestartsTheAudioStageOnly() {
        var old = Self.settings()
        old.audio = AudioSettings(source: .silent, format: AudioFormat(sampleRate: 48000, channels: 1), bitrateKbps: 128)
        var new = old
        new.audio?.source = .file("/srv/music.wav")
        let plan = ReloadPlan(from: old, to: new)
        #expect(plan.restartAudio == new.audio)
        #expect(!plan.restartSource && plan.outputsToClose.isEmpty && plan.needsRestart.isEmpty)
        #expect(ReloadPlan(from: old, to: old).restartAudio == nil)
        // Adding or removing the track changes what the outputs announced: a restart.
        var none = old
        none.audio = nil
        #expect(ReloadPlan(from: old, to: none).needsRestart == ["audio.source"])
        #expect(ReloadPlan(from: none, to: old).restartAudio == nil)
    }

    @Test func onlyTheOutputsThatChangedAreClosedAndOpened() {
        let plan = ReloadPlan(from: Self.settings(), to: Self.settings(outputs: [Self.file, Self.otherKey]))
        // Same host and app, another stream key: a different output, though both log as …/live/****.
        #expect(plan.outputsToClose == [Self.server])
        #expect(plan.outputsToOpen == [Self.otherKey])
        #expect(plan.bitrateKbps == nil)
    }

    @Test func networkSettingsReopenEveryRTMPOutputButNoFile() {
        var new = Self.settings()
        new.rtmp.sendTimeoutSeconds = 3
        let plan = ReloadPlan(from: Self.settings(), to: new)
        #expect(plan.outputsToClose == [Self.server])
        #expect(plan.outputsToOpen == [Self.server])
    }

    /// `reconnect.*` changes were silently ignored by a reload; now every RTMP output is
    /// reopened with the new policy (files are untouched).
    @Test func reconnectSettingsReopenEveryRTMPOutputButNoFile() {
        var new = Self.settings()
        new.reconnect.maxDelaySeconds = 5
        let plan = ReloadPlan(from: Self.settings(), to: new)
        #expect(plan.reconnectChanged)
        #expect(plan.outputsToClose == [Self.server])
        #expect(plan.outputsToOpen == [Self.server])
        #expect(!plan.isEmpty)
    }

    @Test func aNewDeviceRestartsTheSourceOnly() {
        var new = Self.settings()
        new.source = .device(
            V4L2SourceSettings(devicePath: "/dev/video0", size: new.encoder.size, frameRate: new.encoder.frameRate))
        let plan = ReloadPlan(from: Self.settings(), to: new)
        #expect(plan.restartSource)
        #expect(plan.outputsToClose.isEmpty && plan.bitrateKbps == nil && plan.needsRestart.isEmpty)
    }

    @Test func sizeProfileAndPresetNeedARestartAndAreNotApplied() {
        var new = Self.settings()
        new.encoder.size = VideoSize(width: 1280, height: 720)
        new.encoder.profile = .main
        new.encoder.preset = "ultrafast"
        new.source = .device(V4L2SourceSettings(devicePath: "/dev/video0", size: new.encoder.size, frameRate: new.encoder.frameRate))
        let plan = ReloadPlan(from: Self.settings(), to: new)
        #expect(plan.needsRestart == ["source.size", "encoder.preset", "encoder.profile"])
        #expect(!plan.restartSource, "a source of another size would not fit the running encoder")
    }

    @Test func aCodecChangeReplacesTheEncoderSessionAndNeedsNoRestart() {
        var new = Self.settings(bitrate: 1500)
        new.encoder.codec = .h265
        let plan = ReloadPlan(from: Self.settings(), to: new)
        #expect(plan.codec == .h265 && plan.needsRestart.isEmpty)
        #expect(plan.bitrateKbps == 1500)
        #expect(!plan.restartSource && plan.outputsToClose.isEmpty)
    }

    @Test func aBackendChangeReplacesTheEncoderSessionAndNeedsNoRestart() {
        var new = Self.settings()
        new.encoder.implementation = .avcodec("libx264")
        let plan = ReloadPlan(from: Self.settings(), to: new)
        #expect(plan.implementation == .avcodec("libx264") && plan.codec == nil && plan.needsRestart.isEmpty && !plan.isEmpty)
        #expect(ReloadPlan(from: new, to: new).isEmpty)
    }

    @Test func changedEncoderOptionsNeedARestart() {
        var old = Self.settings()
        old.encoder.implementation = .avcodec("libx264")
        var new = old
        new.encoder.codecOptions = [EncoderOption(name: "g", value: "10")]
        let plan = ReloadPlan(from: old, to: new)
        #expect(plan.needsRestart == ["encoder.options"] && plan.implementation == nil)
    }

    @Test func scalingNeedsARestartAndIsNotApplied() {
        var new = Self.settings()
        new.encoder.scaling = .fill
        let plan = ReloadPlan(from: Self.settings(), to: new)
        #expect(plan.needsRestart == ["encoder.scaling"])
        #expect(!plan.restartSource && plan.outputsToClose.isEmpty && plan.bitrateKbps == nil)
    }

    @Test func statusIntervalIsApplied() {
        var new = Self.settings()
        new.statusIntervalSeconds = 5
        #expect(ReloadPlan(from: Self.settings(), to: new).statusIntervalSeconds == 5)
    }
}
