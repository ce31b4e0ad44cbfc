import Foundation
import TestSupport
import Testing

/// Issue 29 with issue 25: a run started while its camera is not there sends the operator's slate
/// from the first frame, and the operator's words read back off the stream nginx-rtmp recorded
/// (tesseract, a reader nobody here wrote).
@Suite(.serialized, .enabled(if: Environment.ocrIntegrationEnabled, Environment.ocrSkipReason))
struct SlateStreamTests {
    static let (width, height) = (640, 360)

    @Test func aCameraNeverThereShowsTheOperatorsSlateFromTheStart() throws {
        let dir = try Project.scratchDirectory("slate-stream")
        let server = try RTMPServer()
        let key = "slate\(UInt32.random(in: 0...UInt32.max))"
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            source:
              type: device
              device: /dev/video-camcast-never-there
              size: \(Self.width)x\(Self.height)
              fps: 30
            outputs:
              - url: \(server.url(app: "rec", name: key))
            audio:
              source: none
            overlay:
              slate_text: "CAMERA OFFLINE\\nBACK SOON"
            """.write(to: config, atomically: true, encoding: .utf8)
        let process = try Daemon.start(["run", "--config", config.path, "--duration", "4"])
        let result = try process.wait(timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("waiting for camera; sending the slate meanwhile"), "\(result.stderr)")

        let recording = server.recording(key)
        // The first picture and the one at 1.5 s, chosen by time: a loaded machine's placeholder
        // clock may skip slots, so the 46th picture need not be there.
        let frames = try OverlayFrames(recording, atSeconds: [0, 1.5], frameRate: 30, width: Self.width, height: Self.height)
        for (index, picture) in frames.pictures.enumerated() {
            let text = try OverlayFrames.read(
                picture, width: Self.width, box: (0..<Self.width, 0..<Self.height), in: dir, name: "slate-\(index)", pageMode: "6")
            let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words == "CAMERA OFFLINE BACK SOON", "frame at \(index == 0 ? "0" : "1.5") s: tesseract read \(text.debugDescription)")
        }
    }

    /// Issue 24 with 25 and 29: while the camera is awaited, /snapshot.jpg is the slate at the
    /// stream's size (its words read back by tesseract) and /healthz says 503 with the reason.
    @Test func theSnapshotIsTheSlateAndHealthSaysWhyWhileTheCameraIsAwaited() throws {
        let dir = try Project.scratchDirectory("slate-snapshot")
        let port = Int(try freeLoopbackPort())
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            source:
              type: device
              device: /dev/video-camcast-never-there
              size: \(Self.width)x\(Self.height)
            outputs:
              - path: \(dir.appendingPathComponent("out.flv").path)
            audio:
              source: none
            http:
              listen: 127.0.0.1:\(port)
            overlay:
              slate_text: "CAMERA OFFLINE\\nBACK SOON"
            """.write(to: config, atomically: true, encoding: .utf8)
        let process = try Daemon.start(["run", "--config", config.path])
        defer { process.signal(SIGKILL); _ = try? process.wait(timeout: 5) }
        try #require(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")
        let http = OperatorHTTP(port: port)
        let health = try http.wait("/healthz", timeout: 10) { $0.status != 0 }
        #expect(health.status == 503 && health.body.contains("camera"), "/healthz: \(health.status) \(health.body)")

        let jpeg = dir.appendingPathComponent("snapshot.jpg")
        var fetched = false
        for _ in 0..<20 where !fetched {
            let fetch = try ProcessRunner.run(
                "/usr/bin/curl", ["-s", "-f", "-m", "5", "-o", jpeg.path, "http://127.0.0.1:\(port)/snapshot.jpg"], timeout: 10)
            fetched = fetch.status == 0
            if !fetched { usleep(250_000) }
        }
        try #require(fetched, "no snapshot: \(process.stderrSoFar)")
        let gray = try FFmpegTools.run("ffmpeg", ["-nostdin", "-v", "error", "-i", jpeg.path, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let picture = [UInt8](gray)
        try #require(picture.count == Self.width * Self.height, "the snapshot is not \(Self.width)x\(Self.height): \(picture.count) bytes")
        let text = try OverlayFrames.read(
            picture, width: Self.width, box: (0..<Self.width, 0..<Self.height), in: dir, name: "snapshot", pageMode: "6")
        #expect(text.split(whereSeparator: \.isWhitespace).joined(separator: " ") == "CAMERA OFFLINE BACK SOON", "tesseract read \(text.debugDescription)")
    }
}
