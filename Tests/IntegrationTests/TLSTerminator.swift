import Foundation
import TestSupport

/// stunnel4 (Debian) in front of an `RTMPServer`: TLS on loopback, plain RTMP behind it — the way
/// RTMPS ingests are built. The CA and the server certificate are made here with openssl, in the
/// server's state directory; `certificateNames` are the certificate's subjectAltName entries.
final class TLSTerminator {
    let directory: URL
    let port: Int
    let backendPort: Int
    /// The CA that signed the server certificate (PEM): what `--tls-ca-file` names.
    let caFile: URL
    private let configFile: URL
    private var process: RunningProcess?

    /// `maxVersion`: stunnel's `sslVersionMax` (e.g. "TLSv1.2"); nil offers TLS 1.3 too.
    init(in directory: URL, backendPort: Int, certificateNames: String = "DNS:localhost,IP:127.0.0.1",
         maxVersion: String? = nil) throws {
        self.directory = directory
        self.backendPort = backendPort
        port = backendPort + 20_000
        caFile = directory.appendingPathComponent("ca.pem")
        configFile = directory.appendingPathComponent("stunnel.conf")
        let path = directory.path
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + ec + ["-keyout", "\(path)/ca.key", "-out", caFile.path, "-days", "2",
                          "-subj", "/CN=Camcast Test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                          "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Self.openssl(["req"] + ec + ["-keyout", "\(path)/server.key", "-out", "\(path)/server.csr", "-subj", "/CN=camcast-test-server"])
        try "subjectAltName=\(certificateNames)\n".write(toFile: "\(path)/ext.cnf", atomically: true, encoding: .utf8)
        try Self.openssl(["x509", "-req", "-in", "\(path)/server.csr", "-CA", caFile.path, "-CAkey", "\(path)/ca.key",
                          "-CAcreateserial", "-out", "\(path)/server.pem", "-days", "2", "-extfile", "\(path)/ext.cnf"])
        let bundle = try String(contentsOfFile: "\(path)/server.pem", encoding: .utf8)
            + String(contentsOfFile: "\(path)/server.key", encoding: .utf8)
        try bundle.write(toFile: "\(path)/server.bundle", atomically: true, encoding: .utf8)
        let config = """
            foreground = yes
            pid =
            output = \(path)/stunnel.log
            [rtmps]
            accept = 127.0.0.1:\(port)
            connect = 127.0.0.1:\(backendPort)
            cert = \(path)/server.bundle
            \(maxVersion.map { "sslVersionMax = \($0)" } ?? "")

            """
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        try start()
    }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/stunnel4") }

    private static func openssl(_ arguments: [String]) throws {
        let result = try ProcessRunner.run("/usr/bin/openssl", arguments, timeout: 30)
        guard result.status == 0 else { throw HarnessError("openssl \(arguments[0]) failed: \(result.stderr)") }
    }

    func start() throws {
        process = try ProcessRunner.start("/usr/bin/stunnel4", [configFile.path])
        for _ in 0..<200 {
            if try ProcessRunner.run("/bin/bash", ["-c", "(exec 3<>/dev/tcp/127.0.0.1/\(port))"], timeout: 5).status == 0 { return }
            usleep(25_000)
        }
        throw HarnessError("stunnel4 did not listen on 127.0.0.1:\(port)")
    }

    /// SIGKILL: every TLS connection it holds ends without a close_notify.
    func kill() throws {
        guard let process else { return }
        process.signal(SIGKILL)
        _ = try process.wait(timeout: 10)
        self.process = nil
    }

    /// How many TLS handshakes stunnel accepted (its log: "connected remote server").
    var log: String { (try? String(contentsOfFile: directory.appendingPathComponent("stunnel.log").path, encoding: .utf8)) ?? "" }

    deinit { try? kill() }
}
