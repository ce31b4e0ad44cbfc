import Foundation
import TestSupport
import Testing

/// Camcast accepts exactly the server certificates that `gnutls-cli` accepts with the same CA and
/// name, and refuses the rest with the reason: each case is served by stunnel in front of
/// nginx-rtmp, and camcast's verdict (publishing, or "certificate refused: <reason>") is compared
/// with gnutls-cli's ("The certificate is trusted" or not). Everything runs in a network namespace
/// of the test's own, whose hosts file resolves the names a wildcard certificate covers.
@Suite(.serialized, .enabled(if: Environment.networkFaultsEnabled
                             && (Environment.requireIntegration || (TLSTerminator.isInstalled && Environment.hasExecutable("gnutls-cli"))),
                             "needs root, iproute2, stunnel4, gnutls-bin and openssl besides nginx-rtmp (scripts/install-deps)"))
struct TLSMatrixTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let certificate: String
        let host: String
        let version: String
        /// What camcast's refusal must name; nil when the certificate is good.
        let refusal: String?
        var testDescription: String { "\(certificate) as \(host) over \(version)" }
    }

    /// The certificates, made once for the suite (RSA 4096 key generation takes a while).
    struct Fixture: Sendable {
        let pki: TestPKI
        let bundles: [String: URL]

        init() throws {
            // An RSA root, as most public and self-made CAs are; the intermediate is ECDSA.
            let pki = try TestPKI(in: try Project.scratchDirectory("tls-matrix"), key: .rsa2048)
            let both = "DNS:localhost,IP:127.0.0.1"
            var bundles: [String: URL] = [:]
            for key in TestPKI.KeyType.allCases { bundles[key.rawValue] = try pki.server(key.rawValue, key: key, names: both) }
            bundles["chain"] = try pki.server("chain", key: .ecdsaP256, names: both, issuer: try pki.intermediate(named: "intermediate"))
            bundles["sanDNS"] = try pki.server("sanDNS", key: .rsa2048, names: "DNS:localhost")
            bundles["sanIP"] = try pki.server("sanIP", key: .rsa2048, names: "IP:127.0.0.1")
            bundles["wildcard"] = try pki.server("wildcard", key: .rsa2048, names: "DNS:*.camcast.test")
            bundles["expired"] = try pki.server("expired", key: .rsa2048, names: both, expired: true)
            self.pki = pki
            self.bundles = bundles
        }
    }

    static let fixture = Result { try Fixture() }
    static let wildcardHost = "ingest.camcast.test"

    static let cases: [Case] = ["TLSv1.2", "TLSv1.3"].flatMap { version in
        TestPKI.KeyType.allCases.map { Case(certificate: $0.rawValue, host: "localhost", version: version, refusal: nil) } + [
            Case(certificate: "rsa2048", host: "127.0.0.1", version: version, refusal: nil),
            Case(certificate: "chain", host: "localhost", version: version, refusal: nil),
            Case(certificate: "sanDNS", host: "localhost", version: version, refusal: nil),
            Case(certificate: "sanDNS", host: "127.0.0.1", version: version, refusal: "issued for another name"),
            Case(certificate: "sanIP", host: "127.0.0.1", version: version, refusal: nil),
            Case(certificate: "wildcard", host: wildcardHost, version: version, refusal: nil),
            Case(certificate: "wildcard", host: "localhost", version: version, refusal: "issued for another name"),
            Case(certificate: "expired", host: "localhost", version: version, refusal: "expired"),
        ]
    }

    @Test(arguments: cases)
    func camcastAgreesWithGnuTLSCli(_ testCase: Case) throws {
        let fixture = try Self.fixture.get()
        let bundle = try #require(fixture.bundles[testCase.certificate])
        let namespace = try NetworkNamespace()
        try namespace.resolve([Self.wildcardHost])
        let server = try RTMPServer(namespace: namespace)
        let tls = try TLSTerminator(serving: bundle, caFile: fixture.pki.caFile, in: try Project.scratchDirectory("tls"),
                                    backendPort: server.port, minVersion: testCase.version, maxVersion: testCase.version,
                                    namespace: namespace)

        let cli = namespace.execPrefix + ["/usr/bin/gnutls-cli", "--x509cafile", fixture.pki.caFile.path,
                                              "-p", "\(tls.port)", testCase.host]
        let reference = try ProcessRunner.run(cli[0], Array(cli.dropFirst()), timeout: 20)
        let status = reference.stdout.split(separator: "\n").first { $0.contains("- Status:") }.map(String.init) ?? ""
        try #require(!status.isEmpty, "gnutls-cli gave no verdict: \(reference.stdout) \(reference.stderr)")
        let gnutlsTrusts = status.contains("The certificate is trusted")

        let camcast = try ReconnectTests.startCamcast([
            "--output", "rtmps://\(testCase.host):\(tls.port)/live/\(ReconnectTests.streamKey)",
            "--tls-ca-file", fixture.pki.caFile.path,
        ], namespace: namespace)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && camcast.logLines(containing: "RTMP publishing").isEmpty
            && camcast.logLines(containing: "certificate refused").isEmpty {
            usleep(20_000)
        }
        let result = try ReconnectTests.stop(camcast)
        let published = result.stderr.contains("RTMP publishing")
        let refusal = result.stderr.split(separator: "\n").first { $0.contains("certificate refused") }.map(String.init)
        print("TLS matrix: \(testCase.testDescription): gnutls-cli \(gnutlsTrusts ? "trusted" : "NOT trusted"), "
              + "camcast \(published ? "published" : refusal.map { "refused: \(Self.reason(in: $0))" } ?? "no verdict")")

        #expect(published || refusal != nil, "no verdict from camcast: \(result.stderr)")
        #expect(published == gnutlsTrusts, "gnutls-cli: \(status); camcast: \(result.stderr)")
        #expect(gnutlsTrusts == (testCase.refusal == nil), "the case's expectation: \(status)")
        if let expected = testCase.refusal {
            #expect(refusal?.contains(expected) == true, "\(refusal ?? result.stderr)")
        } else {
            #expect(result.stderr.contains("tls=\(testCase.version.replacingOccurrences(of: "v", with: ""))"), "\(result.stderr)")
        }
        ReconnectTests.expectNoKey(result)
    }

    /// "…certificate refused: expired (rtmps://…" → "expired".
    static func reason(in line: String) -> String {
        let after = line.components(separatedBy: "certificate refused: ").last ?? line
        return after.components(separatedBy: " (rtmps://").first ?? after
    }
}
