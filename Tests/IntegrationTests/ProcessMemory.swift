import Foundation

/// What the kernel says of a process's memory (/proc/PID/status), not what the process says.
enum ProcessMemory {
    /// VmRSS of a live process, in KiB; nil once it is gone.
    static func residentKB(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
