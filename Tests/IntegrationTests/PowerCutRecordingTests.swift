import Foundation
import TestSupport
import Testing

/// A power cut, not a `kill -9`: a killed process leaves its writes in the page cache, which a
/// power cut loses, so only this shows that each fragment really was synced. camcast records inside
/// the VM onto a virtual disk (an ext4 image on the host, `cache=none`: what the guest was told is on
/// the disk is in the image file, nothing more), streaming the same encode to nginx-rtmp on the host
/// as an independent record of what it had encoded; mid-fragment the guest resets without a sync
/// (sysrq `b`: no flush, no unmount, the machine simply stops). Then the image is checked on the host
/// with e2fsck (replaying ext4's journal, as a boot would) and its segment read with debugfs, and
/// ffmpeg judges it: it plays to its last synced fragment, and at most the fragment being gathered
/// at the cut (and the one being written then) is lost against what reached the server.
@Suite(.serialized)
struct PowerCutRecordingTests {
    static let streamKey = "pOwEr-CuT-kEy"
    /// A keyframe, and so a fragment, every second.
    static let keyframeSeconds = 1.0

    @Test(.timeLimit(.minutes(8)))
    func aPowerCutMidFragmentLosesAtMostTheFragmentInProgress() throws {
        let dir = try Project.scratchDirectory("power-cut")
        let image = dir.appendingPathComponent("disk.img").path
        _ = try ProcessRunner.run("/usr/bin/truncate", ["-s", "256M", image], timeout: 30)
        let mkfs = try ProcessRunner.run("/usr/sbin/mkfs.ext4", ["-q", "-F", "-L", "camcast-rec", image], timeout: 60)
        try #require(mkfs.status == 0, "mkfs.ext4: \(mkfs.stderr)")

        let server = try RTMPServer()
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            source:
              size: 320x180
              fps: 15
            encoder:
              preset: ultrafast
              keyframe_interval_seconds: \(Self.keyframeSeconds)
            outputs:
              - url: \(server.guestURL(app: "rec", name: Self.streamKey))
              - record: /mnt/disk/rec
                segment_seconds: 600
            """.write(to: config, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("camcast.log").path
        // In the guest: the disk mounted, camcast recording onto it; 6.5 s after it streams (in the
        // middle of a one-second fragment) the run's exit code is left for the harness, and the guest
        // resets at once. Nothing syncs the disk but camcast's own fdatasync calls.
        let script = """
            modprobe virtio_blk && modprobe ext4 || exit 99
            mkdir -p /mnt/disk && mount -t ext4 /dev/vda /mnt/disk || exit 98
            '\(Project.camcastBinary.path)' run --config '\(config.path)' --audio none 2> '\(log)' &
            until grep -q ' streaming ' '\(log)' 2>/dev/null; do kill -0 $! 2>/dev/null || exit 97; sleep 0.05; done
            sleep 6.5
            echo 0 > /run/vivid/rc
            echo b > /proc/sysrq-trigger
            sleep 60
            """
        let vm: ProcessResult
        do {
            vm = try VividVM.run(script, settings: [
                "VIVID_OPTS": "none", "VIVID_TIMEOUT": "240", "VIVID_RW_DIRS": dir.path,
                "VIVID_QEMU_EXTRA": "-drive file=\(image),format=raw,if=virtio,cache=none",
            ], timeout: 300)
        } catch let unavailable as VividVM.Unavailable {
            Issue.record("camcast could not run in the VM: \(unavailable)")
            return
        }
        try server.stop()
        let camcastLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let context = "\(VividVM.transcript(of: vm))\n--- camcast\n\(camcastLog)"
        try #require(vm.status == 0, "the guest did not reach the cut\n\(context)")
        #expect(!camcastLog.contains("stopped"), "camcast stopped before the cut: not a power cut\n\(context)")

        // What a boot would see: the journal replayed (e2fsck exits 1 when it corrected anything).
        let fsck = try ProcessRunner.run("/usr/sbin/e2fsck", ["-fy", image], timeout: 120)
        #expect(fsck.status <= 1, "e2fsck: \(fsck.status)\n\(fsck.stdout)\n\(fsck.stderr)")
        let segment = try Self.theOneSegment(in: image, copyTo: dir)

        // It plays, cleanly, to its last fragment: whole fragments only.
        #expect(try ProbedVideo.decodeErrors(segment) == "", "the segment does not decode cleanly\n\(context)")
        let probe = try RecordingProbe.probe(segment)
        #expect(probe.decodedFrames == probe.videoPackets.count)
        let keyframes = probe.videoPackets.filter(\.isKeyframe).map(\.dtsSeconds)
        #expect(keyframes.count >= 3, "\(keyframes.count) fragments survived 6.5 s of one-second fragments\n\(context)")

        // Against the independent record: the server got the same encode up to the cut (the
        // connection's last few frames may be lost with it). The recording may lack what came after
        // its last synced fragment: the fragment being gathered at the cut and, if the cut fell
        // while the one before was being written and synced, that one: two keyframe intervals, plus
        // a frame interval for where the cut fell within one.
        let reference = try ProbedVideo.probe(server.recording(Self.streamKey))
        let referenceEnd = Double(try #require(reference.packets.last?.dtsMilliseconds, "nothing reached the server")) / 1000
        let recordedEnd = try #require(probe.videoPackets.last?.dtsSeconds)
        let lost = referenceEnd - recordedEnd
        print("power cut: the segment ends at \(recordedEnd) s, the server's recording at \(referenceEnd) s; \(keyframes.count) fragments")
        #expect(lost <= 2 * Self.keyframeSeconds + 1.0 / 15,
                "the segment ends \(lost) s before the server's recording: more than the fragment in progress was lost\n\(context)")
    }

    /// The one segment camcast wrote under rec/ in the image, copied out with debugfs.
    static func theOneSegment(in image: String, copyTo dir: URL) throws -> URL {
        func debugfs(_ request: String) throws -> String {
            let result = try ProcessRunner.run("/usr/sbin/debugfs", ["-R", request, image], timeout: 60)
            return result.stdout
        }
        let days = try debugfs("ls -p /rec").split(separator: "\n").compactMap { Self.entryName($0) }
        let day = try #require(days.first, "no day folder in the image's /rec")
        let files = try debugfs("ls -p /rec/\(day)").split(separator: "\n").compactMap { Self.entryName($0) }
            .filter { $0.hasSuffix(".mp4") }
        try #require(files.count == 1, "segments in the image: \(files)")
        let out = dir.appendingPathComponent("segment.mp4")
        _ = try debugfs("dump /rec/\(day)/\(files[0]) \(out.path)")
        try #require(FileManager.default.fileExists(atPath: out.path), "debugfs could not copy the segment out")
        return out
    }

    /// A name from `debugfs ls -p` (`/inode/mode/uid/gid/name/size/`), leaving out `.` and `..`.
    static func entryName(_ line: Substring) -> String? {
        let fields = line.split(separator: "/", omittingEmptySubsequences: false)
        guard fields.count >= 6 else { return nil }
        let name = String(fields[5])
        return name == "." || name == ".." || name.isEmpty ? nil : name
    }
}
