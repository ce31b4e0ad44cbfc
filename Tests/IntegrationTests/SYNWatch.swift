import Foundation
import TestSupport

/// Every TCP SYN to `port` on a namespace's loopback, with the kernel's receive timestamp
/// (SO_TIMESTAMPNS on a packet socket, so a loaded machine's late reads do not move it) and the
/// client's port: what reached the server, not what the client says it sent.
final class SYNWatch {
    let process: RunningProcess

    init(port: Int, namespace: NetworkNamespace) throws {
        process = try ProcessRunner.start("/usr/bin/env", namespace.execPrefix + [
            "python3", "-u", "-c",
            """
            import socket, struct
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
            s.bind(("lo", 0))
            s.setsockopt(socket.SOL_SOCKET, 35, 1)  # SO_TIMESTAMPNS (x86-64 and arm64; Python names it not)
            print("ready", flush=True)
            while True:
                data, ancillary, _, address = s.recvmsg(128, 64)
                if address[2] == 4 or len(data) < 34 or data[23] != 6:  # PACKET_OUTGOING: each loopback packet is seen leaving and arriving
                    continue
                tcp = 14 + (data[14] & 15) * 4
                source, destination = struct.unpack("!HH", data[tcp:tcp + 4])
                flags = data[tcp + 13]
                if destination == \(port) and flags & 0x02 and not flags & 0x10:
                    seconds, nanoseconds = struct.unpack("qq", ancillary[0][2][:16])
                    print(f"{seconds}.{nanoseconds:09d} {source}", flush=True)
            """,
        ])
        let deadline = Date().addingTimeInterval(20)
        while !process.stdoutSoFar.contains("ready") && !process.hasExited && Date() < deadline { usleep(20_000) }
        guard process.stdoutSoFar.contains("ready") else { throw HarnessError("the SYN watch did not start: \(process.stderrSoFar)") }
    }

    /// Stops watching; the SYNs seen, in order: Unix time and source port.
    func stop() throws -> [(time: Double, port: Int)] {
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 10)
        return result.stdout.split(separator: "\n").dropFirst().compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let time = Double(parts[0]), let port = Int(parts[1]) else { return nil }
            return (time, port)
        }
    }
}
