import Foundation
import TestSupport
import Testing

/// Issue 29 (and issue 24's snapshot): the vivid camera is unplugged mid-run (its platform device
/// unbound) for longer than the last good frame is held (5 s): the operator's slate goes out on the
/// same connection, tesseract reads its words off nginx-rtmp's recording on the host, and
/// /snapshot.jpg fetched in the guest during the outage decodes at the stream's size and shows it.
extension VividStreamTests {
    static let slateWords = "CAMERA OFFLINE BACK SOON"
    static let (slateWidth, slateHeight, slateFPS) = (640, 360, 15)

    @Test(.timeLimit(.minutes(8)), .enabled(if: Environment.ocrIntegrationEnabled, Environment.ocrSkipReason))
    func aCameraGoneLongerThanTheHeldFrameShowsTheOperatorsSlate() throws {
        let server = try RTMPServer()
        let key = "vivid-slate-\(UInt32.random(in: 0...UInt32.max))"
        let seconds = 32
        let config = """
            source:
              type: device
              device: /dev/video0
              size: \(Self.slateWidth)x\(Self.slateHeight)
              fps: \(Self.slateFPS)
            outputs:
              - url: \(server.guestURL(app: "rec", name: key))
            audio:
              source: none
            http:
              listen: 127.0.0.1:8088
            overlay:
              slate_text: "CAMERA OFFLINE\\nBACK SOON"

            """
        // Unplugged as a USB camera is: vivid's platform device unbound, so the node goes away and
        // the open handle fails with ENODEV (unbinding waits for the last handle: in the
        // background). 7 s later, past the 5 s the last good frame is held, the snapshot is
        // fetched in the guest (again after 0.5 s while it answers 503: the emulated guest sends
        // far fewer placeholders than 15 a second, and the endpoint waits 1 s for one); then the device is bound again and the camera comes back. Under
        // emulation each command in the guest takes a while, hence the long run.
        let dir = VividGuest.directoryToken
        let vivid = "/sys/bus/platform/drivers/vivid"
        let outage = """
            ip link set lo up 2>/dev/null
            ( echo vivid.0 > \(vivid)/unbind ) & unbinding=$!
            sleep 7; fetched=1
            for try in 1 2 3 4 5 6; do
                curl -s -f -m 20 -o \(dir)/snapshot.jpg http://127.0.0.1:8088/snapshot.jpg && { fetched=0; break; }; sleep 0.5
            done; echo $fetched > \(dir)/curl-status
            wait $unbinding; echo vivid.0 > \(vivid)/bind
            """
        guard let run = try VividGuest.runCamcast(
            ["run", "--config", "\(dir)/camcast.yaml", "--duration", "\(seconds)"],
            event: .init(afterStreamingSeconds: 3, command: outage), files: ["camcast.yaml": config])
        else { return }
        try server.stop()  // nginx closes the recording
        #expect(run.status == 0, "camcast failed in the VM\n\(run.transcript)\n\(run.log)")
        try Self.checkOneOutageOnOneConnection(run, camera: "gone", reason: "No such device")

        // The snapshot taken in the outage: the stream's size, the operator's words.
        let curlStatus = (try? String(contentsOf: run.directory.appendingPathComponent("curl-status"), encoding: .utf8)) ?? "none"
        #expect(curlStatus.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "curl in the guest: \(curlStatus)\n\(run.log)")
        let jpeg = run.directory.appendingPathComponent("snapshot.jpg")
        let gray = try FFmpegTools.run("ffmpeg", ["-nostdin", "-v", "error", "-i", jpeg.path, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        try #require(gray.count == Self.slateWidth * Self.slateHeight, "the snapshot is not \(Self.slateWidth)x\(Self.slateHeight): \(gray.count) bytes")
        let snapshotText = try Self.words(in: [UInt8](gray), name: "snapshot", dir: run.directory)
        #expect(snapshotText == Self.slateWords, "tesseract read \(snapshotText.debugDescription) off /snapshot.jpg")

        // The recording, one picture a second of stream time (ffmpeg's fps filter, so frames the
        // emulated guest skipped do not shift it): live vivid first, then (once the held frame's
        // 5 s are over) the slate, then vivid again.
        let size = Self.slateWidth * Self.slateHeight
        let decoded = [UInt8](try FFmpegTools.run(
            "ffmpeg", ["-nostdin", "-v", "error", "-i", server.recording(key).path, "-vf", "fps=1", "-f", "rawvideo", "-pix_fmt", "gray", "-"]))
        try #require(decoded.count >= size * (seconds - 4) && decoded.count % size == 0, "\(decoded.count) bytes decoded")
        let pictures = stride(from: 0, to: decoded.count, by: size).map { Array(decoded[$0..<($0 + size)]) }
        var readings: [String] = []
        for (second, picture) in pictures.enumerated() {
            readings.append(try Self.words(in: picture, name: "second\(second)", dir: run.directory))
        }
        let slateSeconds = readings.indices.filter { readings[$0] == Self.slateWords }
        print("vivid slate: the slate read in the recording's seconds \(slateSeconds) of \(readings.count)")
        #expect(readings.first != Self.slateWords, "the run starts live: \(readings)")
        #expect(slateSeconds.count >= 2, "the slate's words in fewer than two of the recording's seconds: \(readings)")
        #expect(readings.last != Self.slateWords, "the camera came back: \(readings)")
    }

    /// The words tesseract reads in a whole `slateWidth`×`slateHeight` luma picture, joined by single spaces.
    static func words(in picture: [UInt8], name: String, dir: URL) throws -> String {
        let text = try OverlayFrames.read(
            picture, width: slateWidth, box: (0..<slateWidth, 0..<slateHeight), in: dir, name: name, pageMode: "6")
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
