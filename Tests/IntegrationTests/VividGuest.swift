import Foundation
import TestSupport
import Testing

/// One `camcast run` inside the vivid VM (scripts/vivid-vm/run): the guest's /dev/video0 is the
/// kernel's vivid driver and the host's loopback is 10.0.2.2 (QEMU user networking), so a guest
/// camcast can publish to an nginx-rtmp started on the host by `RTMPServer`.
struct VividGuest {
    /// How the guest reaches a server listening on the host's 127.0.0.1.
    static let hostAddress = "10.0.2.2"

    struct Finished {
        /// camcast's exit status inside the guest.
        var status: Int32
        /// camcast's stderr (its log).
        var log: String
        /// Everything the VM harness and the guest printed, for failure messages.
        var transcript: String
        /// The run's scratch directory (read-write in the guest at the same path): `files`, the log,
        /// and whatever the event's command wrote there.
        var directory: URL

        /// The log lines containing `text`.
        func lines(_ text: String) -> [String] {
            log.split(separator: "\n").filter { $0.contains(text) }.map(String.init)
        }

        /// The last log line containing `text`.
        func line(_ text: String) -> String? { lines(text).last }

        /// An integer `key=value` from the last line containing `text`.
        func count(_ key: String, in text: String) -> Int? {
            line(text).flatMap { CamcastLog.value(key, in: $0) }.flatMap { Int($0) }
        }
    }

    /// A shell command run in the guest once camcast logs that it is streaming, `seconds` later
    /// (vivid's controls are set this way, as an operator or a flaky USB bus would).
    struct Event {
        var afterStreamingSeconds: Double
        var command: String
        /// Ends the run (SIGINT, camcast's graceful stop) this long after camcast logs the camera
        /// back, instead of at its `--duration` (then only the limit for a camera that never
        /// returns): a starved guest may take seconds to start the command, and a run of fixed
        /// media length ended before the camera was back.
        var stopSecondsAfterReturn: Double? = nil
    }

    /// Stands for the run's scratch directory in `arguments`, `files` and the event's command.
    static let directoryToken = "@DIR@"

    /// Boots the VM, runs camcast with `arguments` (and `environment`) in it, then powers off.
    /// `files` (name → text) are written into the run's scratch directory first (a config file).
    /// Returns nil, having recorded an issue, when the VM itself could not run: a hardware test
    /// that cannot run fails, it never passes by skipping.
    static func runCamcast(
        _ arguments: [String], environment: [String: String] = [:], event: Event? = nil,
        vividOptions: String = VividVM.webcamOptions, files: [String: String] = [:]
    ) throws -> Finished? {
        let dir = try Project.scratchDirectory("vivid-guest")
        let inDirectory = { (text: String) in text.replacingOccurrences(of: directoryToken, with: dir.path) }
        for (name, text) in files {
            try inDirectory(text).write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let arguments = arguments.map(inDirectory)
        let event = event.map { event in
            var event = event
            event.command = inDirectory(event.command)
            return event
        }
        let log = dir.appendingPathComponent("camcast.log").path
        let status = dir.appendingPathComponent("camcast.status").path
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted($0.value))" }
        let camcast = (assignments + [quoted(Project.camcastBinary.path)] + arguments.map(quoted)).joined(separator: " ")
        var script = ""
        let pid = dir.appendingPathComponent("camcast.pid").path
        if let event {
            var steps = ["sleep \(event.afterStreamingSeconds)", event.command]
            if let seconds = event.stopSecondsAfterReturn {
                steps += [
                    "until grep -q 'camera back;' \(quoted(log)) 2>/dev/null || [ -e \(quoted(status)) ]; do sleep 0.1; done",
                    "[ -e \(quoted(status)) ] || { sleep \(seconds); kill -INT \"$(cat \(quoted(pid)))\"; }",
                ]
            }
            script += """
                ( until grep -q ' streaming ' \(quoted(log)) 2>/dev/null || [ -e \(quoted(status)) ]; do sleep 0.1; done
                  [ -e \(quoted(status)) ] || { \(steps.joined(separator: "; ")); } ) &

                """
        }
        script += """
            \(camcast) 2> \(quoted(log)) & echo $! > \(quoted(pid))
            wait $!; echo $? > \(quoted(status))
            wait
            """
        let vm: ProcessResult
        do {
            vm = try VividVM.run(
                script, settings: ["VIVID_TIMEOUT": "300", "VIVID_RW_DIRS": dir.path, "VIVID_OPTS": vividOptions], timeout: 360)
        } catch let unavailable as VividVM.Unavailable {
            Issue.record("camcast could not run: \(unavailable)")
            return nil
        }
        let transcript = VividVM.transcript(of: vm)
        let statusText = (try? String(contentsOfFile: status, encoding: .utf8)) ?? ""
        guard let exitStatus = Int32(statusText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            Issue.record("camcast did not finish inside the VM\n\(transcript)")
            return nil
        }
        return Finished(
            status: exitStatus, log: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "",
            transcript: transcript, directory: dir)
    }

    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension RTMPServer {
    /// The server's URL as the guest sees it.
    func guestURL(app: String, name: String) -> String {
        "rtmp://\(VividGuest.hostAddress):\(port)/\(app)/\(name)"
    }
}
