import Foundation
import TestSupport

/// stunnel4 (Debian) in front of an `RTMPServer`: TLS on loopback, plain RTMP behind it — the way
/// RTMPS ingests are built. Certificates come from `TestPKI` (openssl).
final class TLSTerminator {
    let directory: URL
    let port: Int
    let backendPort: Int
    /// The CA that signed the server certificate (PEM): what `--tls-ca-file` names.
    let caFile: URL
    private let configFile: URL
    private var process: RunningProcess?
    private let namespace: (any CommandPrefixing)?

    /// `maxVersion`: stunnel's `sslVersionMax` (e.g. "TLSv1.2"); nil offers TLS 1.3 too.
    /// A new CA and a certificate for `certificateNames`, both with `key` keys (ECDSA P-256 by
    /// default; an RSA ingest usually has an RSA CA too, as certbot's chains were).
    convenience init(in directory: URL, backendPort: Int, certificateNames: String = "DNS:localhost,IP:127.0.0.1",
                     key: TestPKI.KeyType = .ecdsaP256, maxVersion: String? = nil) throws {
        let pki = try TestPKI(in: directory, key: key)
        let bundle = try pki.server("server", key: key, names: certificateNames)
        try self.init(serving: bundle, caFile: pki.caFile, in: directory, backendPort: backendPort, maxVersion: maxVersion)
    }

    /// Serves `bundle` (a `TestPKI.server` file: certificate, chain, key), whose root is `caFile`.
    /// `minVersion`/`maxVersion`: stunnel's `sslVersionMin`/`sslVersionMax` ("TLSv1.2", "TLSv1.3").
    /// `namespace`: runs stunnel inside it (kept alive while stunnel runs).
    init(serving bundle: URL, caFile: URL, in directory: URL, backendPort: Int, minVersion: String? = nil,
         maxVersion: String? = nil, namespace: (any CommandPrefixing)? = nil) throws {
        self.directory = directory
        self.namespace = namespace
        self.backendPort = backendPort
        self.caFile = caFile
        port = backendPort + 20_000
        configFile = directory.appendingPathComponent("stunnel.conf")
        let path = directory.path
        let config = """
            foreground = yes
            pid =
            output = \(path)/stunnel.log
            [rtmps]
            accept = 127.0.0.1:\(port)
            connect = 127.0.0.1:\(backendPort)
            cert = \(bundle.path)
            \(minVersion.map { "sslVersionMin = \($0)" } ?? "")
            \(maxVersion.map { "sslVersionMax = \($0)" } ?? "")

            """
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        try start()
    }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/stunnel4") }

    func start() throws {
        let prefix = namespace?.execPrefix ?? []
        let stunnel = prefix + ["/usr/bin/stunnel4", configFile.path]
        process = try ProcessRunner.start(stunnel[0], Array(stunnel.dropFirst()))
        let probe = prefix + ["/bin/bash", "-c", "(exec 3<>/dev/tcp/127.0.0.1/\(port))"]
        for _ in 0..<200 {
            if try ProcessRunner.run(probe[0], Array(probe.dropFirst()), timeout: 5).status == 0 { return }
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
