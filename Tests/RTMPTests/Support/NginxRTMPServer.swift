import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx-rtmp for one test: its own state directory under /tmp, its own free ports,
/// its own config (modelled on /work/shared/testbed/rtmp-server), stopped by `stop()`.
///
/// Apps: live, rec (record all → `recordingsDirectory`/NAME.flv), denyall (publish refused),
/// auth (on_publish → HTTP /auth, accepts ?key=secret).
final class NginxRTMPServer {
    static let modulePath = "/usr/lib/nginx/modules/ngx_rtmp_module.so"
    static let missingMessage = "nginx-rtmp is not installed: apt-get install -y nginx libnginx-mod-rtmp"

    let directory: String
    let rtmpPort: UInt16
    let httpPort: UInt16
    private let process: Process
    private var stopped = false

    var recordingsDirectory: String { directory + "/rec" }
    var errorLogPath: String { directory + "/logs/error.log" }

    func url(app: String, name: String, query: String? = nil) -> String {
        "rtmp://127.0.0.1:\(rtmpPort)/\(app)/\(name)" + (query.map { "?" + $0 } ?? "")
    }

    init() throws {
        guard let nginx = ProcessRunner.path(of: "nginx"),
              FileManager.default.fileExists(atPath: Self.modulePath) else {
            throw ToolMissing(description: Self.missingMessage)
        }
        let fm = FileManager.default
        directory = fm.temporaryDirectory.path + "/camcast-rtmp-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        for sub in ["logs", "rec", "tmp"] {
            try fm.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
        // nginx workers run as nobody: they must reach the directory and write recordings.
        chmod(directory, 0o755)
        chmod(directory + "/rec", 0o1777)
        rtmpPort = try freeLoopbackPort()
        httpPort = try freeLoopbackPort()
        try Self.config(directory: directory, rtmpPort: rtmpPort, httpPort: httpPort)
            .write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)

        process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-c", directory + "/nginx.conf", "-p", directory + "/", "-e", directory + "/logs/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()

        let deadline = Date().addingTimeInterval(5)
        while !canConnect(port: rtmpPort) || !canConnect(port: httpPort) {
            guard Date() < deadline, process.isRunning else {
                stop()
                let log = (try? String(contentsOfFile: errorLogPath, encoding: .utf8)) ?? ""
                throw ToolMissing(description: "nginx-rtmp did not start: \(log.suffix(500))")
            }
            usleep(20_000)
        }
    }

    /// Graceful stop (SIGQUIT: finish open sessions, close recordings), SIGKILL after 5 s.
    func stop() {
        guard !stopped else { return }
        stopped = true
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGQUIT)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The worker processes (children of the master we started).
    func workerPIDs() throws -> [pid_t] {
        let master = process.processIdentifier
        let path = "/proc/\(master)/task/\(master)/children"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    func errorLog() -> String {
        (try? String(contentsOfFile: errorLogPath, encoding: .utf8)) ?? ""
    }

    private static func config(directory d: String, rtmpPort p: UInt16, httpPort h: UInt16) -> String {
        """
        load_module \(modulePath);
        daemon off;
        master_process on;
        worker_processes 1;
        pid \(d)/nginx.pid;
        error_log \(d)/logs/error.log debug;
        events { worker_connections 64; }
        http {
            access_log \(d)/logs/access.log;
            client_body_temp_path \(d)/tmp/body;
            proxy_temp_path \(d)/tmp/proxy;
            fastcgi_temp_path \(d)/tmp/fastcgi;
            uwsgi_temp_path \(d)/tmp/uwsgi;
            scgi_temp_path \(d)/tmp/scgi;
            server {
                listen 127.0.0.1:\(h);
                location /auth { if ($arg_key = "secret") { return 200 "ok\\n"; } return 403 "denied\\n"; }
                location /stat { rtmp_stat all; }
                location /control { rtmp_control all; }
            }
        }
        rtmp {
            server {
                listen 127.0.0.1:\(p);
                chunk_size 4096;
                application live { live on; record off; }
                application rec { live on; record all; record_path \(d)/rec; record_unique off; }
                application denyall { live on; deny publish all; }
                application auth { live on; notify_method get; on_publish http://127.0.0.1:\(h)/auth; }
            }
        }

        """
    }
}

/// A loopback TCP port that was free a moment ago (bound to port 0, then closed).
func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ToolMissing(description: "socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw ToolMissing(description: "bind() to a free port failed") }
    return UInt16(bigEndian: address.sin_port)
}

func canConnect(port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}
