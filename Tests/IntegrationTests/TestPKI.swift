import Foundation
import TestSupport

/// Keys and certificates made by openssl for the TLS tests: a root CA (`caFile`), optionally an
/// intermediate CA, and server certificates of any key type, names and validity. Each server
/// certificate is written as a stunnel `cert` file: the certificate, the chain up to (not
/// including) the root, then the key.
struct TestPKI: Sendable {
    enum KeyType: String, CaseIterable, Sendable {
        case rsa2048, rsa4096, ecdsaP256, ecdsaP384, ed25519

        var opensslOptions: [String] {
            switch self {
            case .rsa2048: ["-newkey", "rsa:2048"]
            case .rsa4096: ["-newkey", "rsa:4096"]
            case .ecdsaP256: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
            case .ecdsaP384: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:secp384r1"]
            case .ed25519: ["-newkey", "ed25519"]
            }
        }
    }

    /// A CA that signs: its certificate and key, and the chain a server sends above a leaf it signed.
    struct Issuer: Sendable {
        let certificate: URL
        let key: URL
        let chain: [URL]
    }

    let directory: URL
    let root: Issuer
    /// The root CA's certificate (PEM): what `--tls-ca-file` and `gnutls-cli --x509cafile` name.
    var caFile: URL { root.certificate }

    /// A new root CA with a `key` key.
    init(in directory: URL, key: KeyType = .ecdsaP256) throws {
        self.directory = directory
        let certificate = directory.appendingPathComponent("ca.pem")
        let keyFile = directory.appendingPathComponent("ca.key")
        try Self.openssl(["req", "-x509"] + key.opensslOptions + ["-nodes", "-keyout", keyFile.path,
                          "-out", certificate.path, "-days", "2", "-subj", "/CN=Camcast Test CA",
                          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        root = Issuer(certificate: certificate, key: keyFile, chain: [])
    }

    /// An intermediate CA signed by the root.
    func intermediate(named name: String) throws -> Issuer {
        let extensions = "basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n"
        let (certificate, key) = try sign(name, key: .ecdsaP256, extensions: extensions, issuer: root, days: 2)
        return Issuer(certificate: certificate, key: key, chain: [certificate])
    }

    /// A server certificate with subjectAltName `names` ("DNS:localhost,IP:127.0.0.1"), signed by
    /// `issuer` (the root when nil); `expired` makes one whose notAfter has passed. Returns the
    /// stunnel `cert` file.
    func server(_ name: String, key: KeyType, names: String, issuer: Issuer? = nil, expired: Bool = false) throws -> URL {
        let issuer = issuer ?? root
        let (certificate, keyFile) = try sign(name, key: key, extensions: "subjectAltName=\(names)\n", issuer: issuer,
                                              days: expired ? -1 : 2)
        let bundle = directory.appendingPathComponent("\(name).bundle")
        let parts = try ([certificate] + issuer.chain + [keyFile]).map { try String(contentsOf: $0, encoding: .utf8) }
        try parts.joined().write(to: bundle, atomically: true, encoding: .utf8)
        return bundle
    }

    /// `days` -1: notAfter one day before notBefore (now), so the certificate is expired.
    private func sign(_ name: String, key: KeyType, extensions: String, issuer: Issuer, days: Int) throws -> (URL, URL) {
        let path = directory.path
        let keyFile = directory.appendingPathComponent("\(name).key")
        let certificate = directory.appendingPathComponent("\(name).pem")
        try Self.openssl(["req"] + key.opensslOptions + ["-nodes", "-keyout", keyFile.path, "-out", "\(path)/\(name).csr",
                                                        "-subj", "/CN=\(name)"])
        try extensions.write(toFile: "\(path)/\(name).ext", atomically: true, encoding: .utf8)
        try Self.openssl(["x509", "-req", "-in", "\(path)/\(name).csr", "-CA", issuer.certificate.path, "-CAkey", issuer.key.path,
                          "-CAcreateserial", "-out", certificate.path, "-days", "\(days)", "-extfile", "\(path)/\(name).ext"])
        return (certificate, keyFile)
    }

    private static func openssl(_ arguments: [String]) throws {
        let result = try ProcessRunner.run("/usr/bin/openssl", arguments, timeout: 60)
        guard result.status == 0 else { throw HarnessError("openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(result.stderr)") }
    }
}
