import Foundation
import Testing
@testable import RTMP

/// The parts of rtmps:// that need no server: loading the trusted CAs, the words a refusal uses,
/// and which hosts get SNI. The handshake itself is tested against stunnel4 (IntegrationTests/RTMPSTests).
@Suite struct TLSSessionTests {
    @Test func theSystemTrustStoreLoadsWithoutACAFile() throws {
        _ = try TLSTrust(caFile: nil)
    }

    @Test func aMissingCAFileIsAClearError() throws {
        let error = try #require(throws: TLSTrust.LoadFailure.self) { try TLSTrust(caFile: "/nonexistent/camcast-ca.pem") }
        #expect(error.reason.hasPrefix("cannot read the TLS CA file /nonexistent/camcast-ca.pem: "), "\(error.reason)")
    }

    @Test func aCAFileWithoutACertificateIsAClearError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-empty-ca-\(getpid()).pem").path
        try "not a certificate\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: TLSTrust.LoadFailure.self) { try TLSTrust(caFile: path) }
        #expect(error.reason.contains("TLS CA file \(path)"), "\(error.reason)")
    }

    @Test func refusalReasonsAreNamed() {
        // GnuTLS's gnutls_certificate_status_t bits (gnutls.h).
        let signerNotFound: UInt32 = 1 << 6, invalid: UInt32 = 1 << 1, expired: UInt32 = 1 << 10
        let unexpectedOwner: UInt32 = 1 << 14, notActivated: UInt32 = 1 << 9
        #expect(TLSSession.certificateReason(invalid | signerNotFound, host: "h")
                == "unknown issuer (no trusted CA signed it; see network.tls_ca_file)")
        #expect(TLSSession.certificateReason(invalid | unexpectedOwner, host: "ingest.example") == "issued for another name than ingest.example")
        #expect(TLSSession.certificateReason(invalid | expired, host: "h") == "expired")
        #expect(TLSSession.certificateReason(invalid | notActivated, host: "h") == "not yet valid")
        #expect(TLSSession.certificateReason(invalid | signerNotFound | unexpectedOwner, host: "h")
                == "unknown issuer (no trusted CA signed it; see network.tls_ca_file), issued for another name than h")
        #expect(TLSSession.certificateReason(invalid, host: "h") == "not trusted (GnuTLS status 0x2)")
    }

    @Test(arguments: [("::1", true), ("2001:db8::1", true), ("127.0.0.1", true), ("localhost", false),
                      ("live-api-s.facebook.com", false), ("1.2.3", false)])
    func onlyHostNamesAreSentAsSNI(host: String, isAddress: Bool) {
        #expect(TLSSession.isAddressLiteral(host) == isAddress)
    }
}
