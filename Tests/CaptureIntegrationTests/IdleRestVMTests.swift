import Foundation
import TestSupport
import Testing

/// `idle: close` against a real V4L2 driver (issue 44): in the vivid VM, camcast records
/// /dev/video0 on a schedule whose window is ten minutes away (its debug clock file moves the
/// clock). While it rests, another program can stream from the device (`v4l2-ctl --stream-mmap`
/// succeeds: camcast stopped streaming and closed it); once the window is 5 s away camcast takes
/// the device again, and the same `v4l2-ctl` then gets no buffer (REQBUFS: EBUSY, the queue belongs
/// to camcast), which shows the probe tells a held device from a released one.
@Suite(.serialized, .enabled(if: !VividEnvironment.insideVM, "already inside the VM"))
struct IdleRestVMTests {
    @Test(.timeLimit(.minutes(10)))
    func aRestingCameraIsReleasedForOtherPrograms() throws {
        let dir = try Project.scratchDirectory("idle-rest-vm")
        let log = dir.appendingPathComponent("camcast.log").path
        let clock = dir.appendingPathComponent("clock-offset").path
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            schedule_timezone: Europe/Berlin
            outputs:
              - record: "\(dir.appendingPathComponent("rec").path)"
                schedule:
                  - days: Mon-Sun
                    from: "07:30"
                    to: "07:31"

            """.write(to: config, atomically: true, encoding: .utf8)
        // The guest's clock is the host's (QEMU's RTC); the offset is computed inside, in whole seconds.
        let command = """
            set -u
            window=$(TZ=Europe/Berlin date -d 'next Monday 07:30' +%s)
            echo $((window - 600 - $(date +%s))) > '\(clock)'
            CAMCAST_DEBUG_CLOCK_OFFSET_FILE='\(clock)' '\(Project.camcastBinary.path)' run --config '\(config.path)' \
              --source \(VividEnvironment.device) --size 320x180 --fps 15 --bitrate 300 --preset ultrafast --audio none 2> '\(log)' &
            pid=$!
            for i in $(seq 1 1200); do grep -q 'the source and the encoder rest' '\(log)' && break; sleep 0.1; done
            v4l2-ctl -d \(VividEnvironment.device) --stream-mmap --stream-count=1 --stream-to=/dev/null > '\(dir.path)/resting.out' 2>&1
            echo $? > '\(dir.path)/resting.status'
            echo $((window - 5 - $(date +%s))) > '\(clock)'
            for i in $(seq 1 600); do grep -q 'a window opens soon; the source starts' '\(log)' && break; sleep 0.1; done
            sleep 2
            v4l2-ctl -d \(VividEnvironment.device) --stream-mmap --stream-count=1 --stream-to=/dev/null > '\(dir.path)/streaming.out' 2>&1
            echo $? > '\(dir.path)/streaming.status'
            kill -TERM $pid
            wait $pid
            """
        let finished: ProcessResult
        do {
            finished = try VividVM.run(command, settings: ["VIVID_TIMEOUT": "480", "VIVID_OPTS": VividVM.webcamOptions, "VIVID_SHARE": dir.path], timeout: 540)
        } catch let unavailable as VividVM.Unavailable {
            Issue.record("the test could not run: \(unavailable)")
            return
        }
        let camcastLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        func read(_ name: String) -> String {
            ((try? String(contentsOfFile: dir.appendingPathComponent(name).path, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let context = "\(VividVM.transcript(of: finished))\n--- camcast\n\(camcastLog)\n--- v4l2-ctl while resting\n\(read("resting.out"))"
            + "\n--- v4l2-ctl while streaming\n\(read("streaming.out"))"
        #expect(finished.status == 0, "\(context)")
        #expect(camcastLog.contains("the source and the encoder rest"), "\(context)")
        // v4l2-ctl prints `<` for each buffer it dequeued; a refused REQBUFS it reports (and still exits 0).
        #expect(read("resting.status") == "0" && read("resting.out").contains("<") && !read("resting.out").contains("busy"),
                "another program could not stream from the resting camera\n\(context)")
        #expect(camcastLog.contains("a window opens soon; the source starts"), "\(context)")
        #expect(read("streaming.out").contains("Device or resource busy") && !read("streaming.out").contains("<"),
                "the device was free while camcast streamed\n\(context)")
    }
}
