import Foundation
import TestSupport

/// stunnel4 (Debian) in front of an `RTMPServer`: TLS on loopback, plain RTMP behind it — the way
/// RTMPS ingests are built. Certificates come from `TestPKI` (openssl).
final class TLSTerminator {
    let directory: URL
    /// Where stunnel listens: picked from `ports` when it starts, kept across `kill()` and `start()`.
    private(set) var port: Int
    let backendPort: Int
    /// The CA that signed the server certificate (PEM): what `--tls-ca-file` names.
    let caFile: URL
    private let bundle: URL
    private let versions: (min: String?, max: String?)
    private var process: RunningProcess?
    private let namespace: (any CommandPrefixing)?

    /// stunnel's ports: below Linux's ephemeral range (32768–60999), where every outgoing
    /// connection of the tests running beside this one takes its local port (a test listening
    /// there fails now and then with "address in use"), and above RTMPServer's 10000–29999.
    static let ports = 30_000..<32_768

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
        self.bundle = bundle
        versions = (minVersion, maxVersion)
        port = Int.random(in: Self.ports)
        // Another listener may hold the port picked; stunnel then ends at once, and another is tried.
        for _ in 0..<8 {
            if try launch() { return }
            port = Int.random(in: Self.ports)
        }
        throw HarnessError("stunnel4 found no free port in \(Self.ports)")
    }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/stunnel4") }

    /// Starts stunnel again after `kill()`, on the same port (the URL camcast reconnects to).
    func start() throws {
        guard try waitUntil(5, { try launch() }) else {
            throw HarnessError("stunnel4 could not listen on 127.0.0.1:\(port) again: the port stayed taken")
        }
    }

    /// Starts stunnel on `port` and waits until it accepts connections: true then, false when it
    /// ended because the port is taken; any other end, or no listener in time, throws with its output.
    private func launch() throws -> Bool {
        let path = directory.path
        let config = """
            foreground = yes
            pid =
            debug = info
            output = \(path)/stunnel.log
            [rtmps]
            accept = 127.0.0.1:\(port)
            connect = 127.0.0.1:\(backendPort)
            cert = \(bundle.path)
            \(versions.min.map { "sslVersionMin = \($0)" } ?? "")
            \(versions.max.map { "sslVersionMax = \($0)" } ?? "")

            """
        let configFile = directory.appendingPathComponent("stunnel.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        let prefix = namespace?.execPrefix ?? []
        let stunnel = prefix + ["/usr/bin/stunnel4", configFile.path]
        let started = try ProcessRunner.start(stunnel[0], Array(stunnel.dropFirst()))
        let probe = prefix + ["/bin/bash", "-c", "(exec 3<>/dev/tcp/127.0.0.1/\(port))"]
        // A connection alone does not show stunnel listens: another listener may hold the port
        // while stunnel is still starting. Its own line does ("debug = info", on its stderr).
        let bound = "bound to 127.0.0.1:\(port)"
        let accepts = { try ProcessRunner.run(probe[0], Array(probe.dropFirst()), timeout: 5).status == 0 }
        let listening = try waitUntil(20) { try started.hasExited || started.stderrSoFar.contains(bound) && accepts() }
        if started.hasExited {
            if started.stderrSoFar.contains("Address already in use") { return false }
            throw HarnessError("stunnel4 ended before it listened on 127.0.0.1:\(port): \(started.stderrSoFar)")
        }
        guard listening else {
            started.stop()
            throw HarnessError("stunnel4 did not listen on 127.0.0.1:\(port): \(started.stderrSoFar)")
        }
        process = started
        return true
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
