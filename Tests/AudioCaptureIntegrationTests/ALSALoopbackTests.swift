import AudioCapture
import Foundation
import Media
import Synchronization
import TestSupport
import Testing

/// ALSAAudioSource against snd-aloop in the VM (ALSALoopbackVMTests runs it there): aplay plays a
/// 1 kHz tone into the loopback card and the source captures the other end.
@Suite(.serialized, .enabled(if: ALSAVMEnvironment.insideVM, "needs snd-aloop: runs inside the VM"))
struct ALSALoopbackTests {
    static let format = AudioFormat(sampleRate: 48_000, channels: 1)

    static func sleep(_ seconds: Double) {
        SystemCall.sleep(nanoseconds: UInt64(seconds * 1e9))
    }

    /// Samples delivered after `index` (an arrival count), as −1...1.
    static func samples(_ collector: AudioFrameCollector, after index: Int) -> [Double] {
        collector.all.dropFirst(index).flatMap(\.frame.samples).map { Double($0) / 32768 }
    }

    /// The last second holds ffmpeg's 1 kHz sine (1/8 scale): loud enough, and all of it at 1 kHz.
    static func expectTone(_ samples: [Double], _ when: String) {
        let second = Array(samples.suffix(48_000))
        let level = Goertzel.meanSquare(second)
        let tone = Goertzel.power(of: second, at: 1000, sampleRate: 48_000)
        #expect(second.count == 48_000, "\(when): \(second.count) samples")
        #expect(level > 0.005, "\(when): mean square \(level), no tone")
        #expect(tone > 0.45 * level, "\(when): 1 kHz power \(tone) of mean square \(level)")
    }

    static func play(_ tone: String, device: String = ALSAVMEnvironment.playbackDevice) throws -> RunningProcess {
        try ProcessRunner.start("/usr/bin/aplay", ["-q", "-D", device, tone])
    }

    /// Waits until the loopback's playback subdevice runs (aplay has set its format and started):
    /// the capture end must then take the same hardware format, or the card refuses to start it.
    static func waitUntilPlaying(subdevice: Int) -> Bool {
        eventually(10) {
            let status = (try? String(contentsOfFile: "/proc/asound/Loopback/pcm0p/sub\(subdevice)/status", encoding: .utf8)) ?? ""
            return status.contains("state: RUNNING")
        }
    }

    /// Kills a player and waits until it is gone, so the loopback's playback end is free again.
    static func end(_ player: RunningProcess) {
        player.signal(SIGKILL)
        _ = try? player.wait(timeout: 5)
    }

    /// Waits up to `seconds` for `condition`.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = MonotonicTime.now().adding(nanoseconds: UInt64(seconds * 1e9))
        while !condition() {
            if MonotonicTime.now() > deadline { return false }
            sleep(0.02)
        }
        return true
    }

    @Test(.timeLimit(.minutes(2)))
    func toneArrivesAndSurvivesOverrunPlayerLossAndCardRemoval() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("alsa-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tone = directory.appendingPathComponent("tone.wav").path
        _ = try FFmpegTools.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=60", "-ac", "1", "-c:a", "pcm_s16le", tone,
        ])

        var player = try Self.play(tone)
        defer { Self.end(player) }
        try #require(Self.waitUntilPlaying(subdevice: 0), "aplay did not start")
        let collector = AudioFrameCollector()
        let lateness = WakeLateness()
        defer { lateness.stop() }
        let stall = Atomic<Bool>(false)
        let source = ALSAAudioSource(device: ALSAVMEnvironment.captureDevice, format: Self.format)
        try source.start { frame in
            collector.deliver(frame)
            // A consumer that stalls longer than the 2 s buffer makes the device overrun.
            if stall.exchange(false, ordering: .relaxed) { Self.sleep(2.5) }
        }
        defer { source.stop() }

        // 1. The tone arrives, stamped by the kernel on CLOCK_MONOTONIC.
        Self.sleep(1.5)
        Self.expectTone(Self.samples(collector, after: 0), "live")
        Self.expectStampedInTheRing(collector.all.dropFirst(2), lateness: lateness)

        // 2. An overrun is counted and recovered; the tone goes on.
        stall.store(true, ordering: .relaxed)
        #expect(Self.eventually(8) { source.status.xruns >= 1 }, "no overrun counted: \(source.status)")
        var mark = collector.count
        Self.sleep(1.2)
        Self.expectTone(Self.samples(collector, after: mark), "after the overrun")

        // 3. The player dies: capture goes on (the loopback's other end is silent now).
        Self.end(player)
        mark = collector.count
        Self.sleep(1)
        #expect(Self.samples(collector, after: mark).count >= 40_000, "capture stopped with the player")
        #expect(source.status.device == .live)

        // 4. The card goes away (its platform device unbound, as a USB unplug removes a card):
        // silence goes out in its place.
        try ALSAVMEnvironment.sysfsWrite(ALSAVMEnvironment.platformDevice, to: "\(ALSAVMEnvironment.driverDirectory)/unbind")
        #expect(Self.eventually(3) { source.status.device != .live }, "the source did not notice: \(source.status)")
        let substitutedBefore = source.status.substitutedSampleFrames
        mark = collector.count
        Self.sleep(2)
        let during = Self.samples(collector, after: mark)
        #expect(during.count >= 72_000, "only \(during.count) samples in 2 s without the card")
        #expect(during.allSatisfy { $0 == 0 })
        #expect(source.status.substitutedSampleFrames - substitutedBefore >= 72_000)

        // 5. The card comes back: the source reopens it within a couple of reopen intervals, and
        // a new player's tone arrives.
        try ALSAVMEnvironment.sysfsWrite(ALSAVMEnvironment.platformDevice, to: "\(ALSAVMEnvironment.driverDirectory)/bind")
        #expect(Self.eventually(5) { source.status.device == .live && source.status.reopens == 1 }, "not reopened: \(source.status)")
        player = try Self.play(tone)
        #expect(Self.waitUntilPlaying(subdevice: 0), "aplay did not start again")
        Self.sleep(0.5)
        mark = collector.count
        Self.sleep(1.5)
        Self.expectTone(Self.samples(collector, after: mark), "after the card came back")
        source.stop()
        collector.markStopped()
        #expect(collector.lateDeliveries == 0)

        // Across all of it, time never went back and never jumped: each frame starts where the
        // previous ended (give or take the time line's small corrections, see CaptureTimeline),
        // or after the samples an overrun lost (at most the stall plus the buffer).
        let all = collector.all
        for (previous, next) in zip(all, all.dropFirst()) {
            let end = previous.frame.timestamp.adding(nanoseconds: previous.frame.durationNanoseconds)
            let gap = next.frame.timestamp.nanoseconds(since: end)
            #expect(gap > -2_000_000 && gap < 3_000_000_000, "gap of \(Double(gap) / 1e6) ms at \(next.frame.timestamp)")
        }
        let status = source.status
        #expect(status.deliveredFrames == all.count)
        #expect(status.xruns >= 1 && status.reopens == 1)
    }

    /// A second capture of the same subdevice is refused by the kernel ("busy"). At start that is
    /// what any device trouble is (issue 25): silence on the sample clock and a retry; once the
    /// first capture lets the device go, the second one takes it.
    @Test func aDeviceInUseStartsOnSilenceAndIsTakenWhenFreed() throws {
        let first = ALSAAudioSource(device: ALSAVMEnvironment.captureDevice, format: Self.format)
        try first.start { _ in }
        var firstRunning = true
        defer { if firstRunning { first.stop() } }
        let second = ALSAAudioSource(device: ALSAVMEnvironment.captureDevice, format: Self.format, reopenIntervalSeconds: 0.2)
        let delivered = Atomic<Int>(0)
        try second.start { _ in delivered.add(1, ordering: .relaxed) }
        defer { second.stop() }
        for _ in 0..<250 where delivered.load(ordering: .relaxed) < 5 { usleep(20_000) }
        let busy = second.status
        #expect(busy.deliveredFrames >= 5 && busy.substitutedSampleFrames == busy.deliveredSampleFrames, "\(busy)")
        switch busy.device {
        case .silenced(let reason), .reopening(let reason): #expect(reason == "busy")
        case .live: Issue.record("a device in use reported live")
        }
        first.stop()
        firstRunning = false
        for _ in 0..<250 where second.status.device != .live { usleep(20_000) }
        #expect(second.status.device == .live, "\(second.status)")
        #expect(second.status.reopens >= 1)
    }

    /// snd-aloop takes 1 to 32 channels: asking a hw: device for 33 names what it refused.
    @Test func aFormatTheDeviceRefusesIsNamed() throws {
        let source = ALSAAudioSource(device: ALSAVMEnvironment.captureDevice, format: AudioFormat(sampleRate: 48_000, channels: 33))
        let error = try #require(throws: AudioCaptureError.self) { try source.start { _ in } }
        guard case .formatRefused(_, let what, let code, _) = error else {
            Issue.record("not 'format refused': \(error)")
            return
        }
        #expect(what == "33 channel(s)" && code < 0)
        #expect("\(error)".contains("refused 33 channel(s)"))
    }

    /// Through the plug layer (`plughw:`, what a user names to let ALSA convert): a 48 kHz mono
    /// tone captured as 44.1 kHz stereo is still the tone, stamped on the same clock.
    @Test(.timeLimit(.minutes(1)))
    func plugDeviceConvertsAndKeepsTheClock() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("alsa-plug-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tone = directory.appendingPathComponent("tone.wav").path
        _ = try FFmpegTools.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=20", "-ac", "1", "-c:a", "pcm_s16le", tone,
        ])
        // Subdevice 1 of the cable, apart from the other tests' subdevice 0.
        let player = try Self.play(tone, device: "hw:Loopback,0,1")
        defer { Self.end(player) }
        try #require(Self.waitUntilPlaying(subdevice: 1), "aplay did not start")
        let format = AudioFormat(sampleRate: 44_100, channels: 2)
        let source = ALSAAudioSource(device: "plughw:CARD=Loopback,DEV=1,SUBDEV=1", format: format)
        let collector = AudioFrameCollector()
        let lateness = WakeLateness()
        defer { lateness.stop() }
        try source.start { collector.deliver($0) }
        Self.sleep(1.5)
        source.stop()
        let all = collector.all
        #expect(all.allSatisfy { $0.frame.format == format })
        let left = all.flatMap { arrival in stride(from: 0, to: arrival.frame.samples.count, by: 2).map { Double(arrival.frame.samples[$0]) / 32768 } }
        let second = Array(left.suffix(44_100))
        #expect(second.count == 44_100)
        #expect(Goertzel.power(of: second, at: 1000, sampleRate: 44_100) > 0.45 * Goertzel.meanSquare(second))
        #expect(Goertzel.meanSquare(second) > 0.005)
        Self.expectStampedInTheRing(all.dropFirst(2), lateness: lateness)
    }

    /// Each frame's first sample was captured before the frame reached us, never after, and no
    /// longer before than the device's ring holds samples (ALSAPCM asks for up to 2 s): a stamp
    /// further off is on the wrong clock or counts from the wrong end of the ring. And the frame
    /// was handed on as soon as the machine let the reader run: after its last sample it waited
    /// at most the hardware pointer's step (one 20-ms period at most) and one wake-up, which
    /// `lateness` measured on this machine in this run (doubled: its thread samples the
    /// scheduler at other instants than the reader's). A source that buffered would exceed it on
    /// any machine; a slow one only widens it (a frame 340 ms old in a starved VM once failed a
    /// fixed 300-ms bound: the reader, woken late, takes up to eight periods at once).
    static func expectStampedInTheRing(_ arrivals: ArraySlice<AudioFrameCollector.Arrival>, lateness: WakeLateness) {
        let ring: Int64 = 2_000_000_000
        let period: Int64 = 20_000_000
        let woken = lateness.measured
        let waitBound = 2 * (period + Int64(woken.longestNanoseconds))
        var longestWait: Int64 = 0
        for arrival in arrivals {
            let age = arrival.at.nanoseconds(since: arrival.frame.timestamp)
            let frameNanoseconds = Int64(arrival.frame.frameCount) * 1_000_000_000 / Int64(arrival.frame.format.sampleRate)
            longestWait = max(longestWait, age - frameNanoseconds)
            #expect(age > 0 && age < ring, "frame captured \(Double(age) / 1e6) ms before delivery")
        }
        print("ALSALoopbackTests: \(arrivals.count) frames; the longest wait after a frame's last sample \(Double(longestWait) / 1e6) ms, "
            + "bound \(Double(waitBound) / 1e6) ms (the longest of \(woken.sleeps) wake-ups \(Double(woken.longestNanoseconds) / 1e6) ms late)")
        #expect(longestWait <= waitBound, "a frame waited \(Double(longestWait) / 1e6) ms after its last sample; bound \(Double(waitBound) / 1e6) ms")
    }
}
