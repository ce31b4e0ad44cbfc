import Foundation
import TestSupport
import Testing

/// The overlay end to end: a y4m clip through the real binary to nginx-rtmp, the recording decoded
/// by ffmpeg, the burned-in clock and camera name read back by tesseract, and the picture outside
/// the text compared with a run of the same clip without an overlay.
@Suite(.serialized, .enabled(if: Environment.ocrIntegrationEnabled, Environment.ocrSkipReason))
struct OverlayStreamTests {
    static let cameraName = "FrontDoor Cam 7"
    static let (width, height) = (640, 360)
    /// Instants 2 s apart, and the first frame's, whose time is the stream's start (seconds after
    /// it: frames 0, 20, 80 and 140 at 30 fps, wherever a loaded machine's source skipped some).
    static let frames = [0.0, 20.0 / 30, 80.0 / 30, 140.0 / 30]

    /// Six seconds of a still grey grid: the same picture in every frame, so the two runs' frames
    /// compare pixel by pixel even if a loaded machine skips a different frame in each.
    static func clip(in dir: URL) throws -> URL {
        let clip = dir.appendingPathComponent("grid.y4m")
        let made = try FFmpegTools.result(
            "ffmpeg",
            ["-nostdin", "-v", "error", "-f", "lavfi", "-i",
             "color=c=gray:size=\(width)x\(height):rate=30,drawgrid=w=40:h=40:t=2:c=white", "-t", "6",
             "-pix_fmt", "yuv420p", "-y", clip.path])
        guard made.status == 0 else { throw HarnessError("ffmpeg could not make the clip: \(made.stderr)") }
        return clip
    }

    static func config(clip: URL, url: String, overlay: Bool, in dir: URL) throws -> URL {
        var text = """
            source:
              type: file
              file: "\(clip.path)"
              loop: false
            encoder:
              bitrate_kbps: 3000
            outputs:
              - url: \(url)
            audio:
              source: none

            """
        if overlay {
            text += """
                overlay:
                  items:
                    - text: "%H:%M:%S"
                      position: bottom-left
                      height: 40
                      box: black
                      box_alpha: 1
                    - text: "\(cameraName)"
                      position: top-right
                      height: 32
                      colour: yellow
                      box: "#000000"
                      box_alpha: 1

                """
        }
        let file = dir.appendingPathComponent(overlay ? "overlay.yaml" : "plain.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func clockAndNameReadBackAndNothingElseChanges() throws {
        let dir = try Project.scratchDirectory("overlay-stream")
        let clip = try Self.clip(in: dir)
        let server = try RTMPServer()
        // The first frame's capture, bounded by this test's own clock: not before camcast was
        // started, not after its "first frame captured" line could be read (polled every 5 ms,
        // so the bound is late, never early). The log line's own time field is not used.
        var firstCapture: ClosedRange<Date>?
        for (name, overlay) in [("withoverlay", true), ("plain", false)] {
            let config = try Self.config(clip: clip, url: server.url(app: "rec", name: name), overlay: overlay, in: dir)
            let launched = Date()
            let run = try ProcessRunner.start(Project.camcastBinary.path, ["run", "--config", config.path])
            if overlay {
                while !run.stderrSoFar.contains("first frame captured") && !run.hasExited && Date().timeIntervalSince(launched) < 60 {
                    usleep(5_000)
                }
                let seen = Date()
                try #require(run.stderrSoFar.contains("first frame captured"), "\(run.stderrSoFar)")
                firstCapture = launched...seen
            }
            let result = try run.wait(timeout: 90)
            #expect(result.status == 0, "camcast failed: \(result.stderr)")
        }
        try server.stop()  // nginx closes the recordings
        let captured = try #require(firstCapture)
        print("overlay clock: first capture between launch and +\(Int(captured.upperBound.timeIntervalSince(captured.lowerBound) * 1000)) ms")
        let drawn = try OverlayFrames(server.recording("withoverlay"), atSeconds: Self.frames, frameRate: 30, width: Self.width, height: Self.height)
        let plain = try OverlayFrames(server.recording("plain"), atSeconds: Self.frames, frameRate: 30, width: Self.width, height: Self.height)
        try #require(drawn.seconds.count == Self.frames.count, "showinfo times: \(drawn.seconds)")

        var clockReadings: [Int] = []
        for index in 1..<Self.frames.count {
            let (a, b) = (drawn.pictures[index], plain.pictures[index])
            let clockBox = try #require(
                OverlayFrames.changedBox(a, b, width: Self.width, within: (0..<(Self.width / 2), (Self.height / 2)..<Self.height)),
                "no clock drawn at \(Self.frames[index]) s")
            let nameBox = try #require(
                OverlayFrames.changedBox(a, b, width: Self.width, within: ((Self.width / 2)..<Self.width, 0..<(Self.height / 2))),
                "no name drawn at \(Self.frames[index]) s")
            // Placed where the config says: 16 pixels in from their corners.
            #expect(abs(clockBox.x.lowerBound - 16) <= 2 && abs(Self.height - clockBox.y.upperBound - 16) <= 2, "clock box \(clockBox)")
            #expect(abs(Self.width - nameBox.x.upperBound - 16) <= 2 && abs(nameBox.y.lowerBound - 16) <= 2, "name box \(nameBox)")

            // Outside the boxes (grown by a block's width for the encoder's blur), the same picture.
            let grown = [clockBox, nameBox].map { OverlayFrames.grown($0, by: 8, width: Self.width, height: Self.height) }
            let outside = OverlayFrames.differenceOutside(grown, a, b, width: Self.width)
            #expect(outside.mean < 1.5 && outside.large < 0.002, "at \(Self.frames[index]) s, outside the text: \(outside)")

            let name = try OverlayFrames.read(a, width: Self.width, box: nameBox, in: dir, name: "name\(index)")
            #expect(name == Self.cameraName)

            let clock = try OverlayFrames.read(a, width: Self.width, box: clockBox, in: dir, name: "clock\(index)")
            let parts = clock.split(separator: ":").compactMap { Int($0) }
            try #require(parts.count == 3, "tesseract read \(clock.debugDescription) at \(Self.frames[index]) s")
            let read = parts[0] * 3600 + parts[1] * 60 + parts[2]
            // The frame's wall-clock time is the first frame's capture plus its stream time (the
            // recording's first frame is the first captured: a file source's first frame is a
            // keyframe). The capture lies in `captured`, so the second drawn lies between those
            // of its ends plus the stream time, each widened by 10 ms: the recording's times are
            // whole milliseconds, and the two clocks (camcast's capture stamps are monotonic, this
            // test's realtime) may drift by NTP's 500 ppm at most over the clip's 6 s (3 ms).
            let streamTime = drawn.seconds[index] - drawn.seconds[0]
            let earliest = Self.secondOfDay(captured.lowerBound.addingTimeInterval(streamTime - 0.01))
            let latest = Self.secondOfDay(captured.upperBound.addingTimeInterval(streamTime + 0.01))
            let window = earliest <= latest ? Array(earliest...latest) : Array(earliest..<86_400) + Array(0...latest)  // midnight
            #expect(window.contains(read), "at \(Self.frames[index]) s the clock reads \(clock), expected a second of the day in \(earliest)...\(latest)")
            clockReadings.append(read)
        }
        // Frames two seconds apart show different times.
        #expect(Set(clockReadings).count == clockReadings.count, "\(clockReadings)")
    }

    /// The local second of the day at `date`, in the zone camcast used (the same system's).
    static func secondOfDay(_ date: Date) -> Int {
        let parts = Calendar.current.dateComponents(in: TimeZone.current, from: date)
        return (parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0)
    }
}

extension Environment {
    /// The RTMP parts and tesseract (Debian's tesseract-ocr), which reads text off decoded frames.
    static var ocrIntegrationEnabled: Bool { requireIntegration || (hasRTMPServerParts && hasExecutable("tesseract")) }
    static let ocrSkipReason: Comment =
        "needs nginx, libnginx-mod-rtmp, ffmpeg and tesseract-ocr (scripts/install-deps); CAMCAST_TEST_REQUIRE_INTEGRATION=1 fails instead"
}
