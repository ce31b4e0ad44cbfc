internal import CGnuTLS
import Media
#if canImport(Glibc)
import Glibc
#endif

/// The TLS client handshake of an rtmps:// connection, run by Camcast on the socket it connected.
///
/// Debian's librtmp is built with GnuTLS but its own `TLS_connect` sends no SNI, verifies no
/// certificate and trusts `ca.pem` in the working directory. So Camcast runs the handshake here
/// (SNI, chain against `TLSTrust`, host name) and hands the established session to librtmp
/// (`crtmp_connect_with_socket`), which then reads and writes through it; librtmp is never told
/// the connection is TLS, so it never starts TLS of its own.
enum TLSSession {
    enum Failure: Error, Equatable {
        /// The server's certificate was refused; `reason` says why (unknown issuer, expired, name).
        case certificate(reason: String)
        /// The handshake failed otherwise (`reason` is GnuTLS's text).
        case handshake(reason: String)
        /// The handshake was still going at `deadline`.
        case timedOut
    }

    /// Runs the handshake on connected socket `fd` for `host` (SNI when it is a name; always the
    /// name or address the certificate must be issued for). Returns the session, which the
    /// caller hands to librtmp; on failure nothing is left to free (the socket stays the caller's).
    ///
    /// `host` must stay allocated until the session is freed: GnuTLS keeps the pointer given to
    /// gnutls_session_set_verify_cert (it does not copy the name) and reads it during the
    /// handshake, and librtmp frees the session in `RTMP_Close`. A Swift string passed there
    /// lived only for the call: the handshake compared the certificate with whatever had reused
    /// that memory, and refused RSA-keyed certificates as "issued for another name".
    static func handshake(socket fd: Int32, host: UnsafePointer<CChar>, trust: TLSTrust,
                          deadline: ContinuousClock.Instant) throws(Failure) -> OpaquePointer {
        let milliseconds = milliseconds(until: deadline)
        let name = String(cString: host)
        var created: OpaquePointer?
        let rc = cgnutls_client_new(&created, trust.credentials, fd, isAddressLiteral(name) ? nil : host, host, milliseconds)
        guard rc == 0, let session = created else { throw .handshake(reason: String(cString: gnutls_strerror(rc))) }
        var result: Int32
        repeat {
            result = gnutls_handshake(session)
        } while result < 0 && gnutls_error_is_fatal(result) == 0 && ContinuousClock.now < deadline
        guard result < 0 else { return session }

        let failure: Failure
        if result == GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR {
            failure = .certificate(reason: certificateReason(gnutls_session_get_verify_cert_status(session), host: name))
        } else if result == GNUTLS_E_TIMEDOUT || ContinuousClock.now >= deadline {
            failure = .timedOut
        } else {
            failure = .handshake(reason: String(cString: gnutls_strerror(result)))
        }
        gnutls_deinit(session)
        throw failure
    }

    /// The negotiated protocol, "TLS1.3" or "TLS1.2", for the connect log line.
    static func protocolName(_ session: OpaquePointer) -> String {
        gnutls_protocol_get_name(gnutls_protocol_get_version(session)).map { String(cString: $0) } ?? "TLS"
    }

    /// Ends a session librtmp was never given (a failed connect): no close_notify, just freed.
    static func discard(_ session: OpaquePointer) {
        gnutls_deinit(session)
    }

    /// Bounds every later wait for the server inside `session` (gnutls_record_recv, and
    /// gnutls_bye's wait for close_notify in librtmp's `RTMP_Close`) to the time left until
    /// `deadline` (at least 1 ms): without it they wait up to the socket's receive timeout.
    static func limitWaits(_ session: OpaquePointer, until deadline: ContinuousClock.Instant) {
        gnutls_record_set_timeout(session, milliseconds(until: deadline))
    }

    static func milliseconds(until deadline: ContinuousClock.Instant) -> UInt32 {
        UInt32(clamping: max(1, ContinuousClock.now.duration(to: deadline).clampedMillisecondsRoundedUp))
    }

    /// The reasons GnuTLS found, in words, most useful first.
    static func certificateReason(_ status: UInt32, host: String) -> String {
        let reasons: [(gnutls_certificate_status_t, String)] = [
            (GNUTLS_CERT_SIGNER_NOT_FOUND, "unknown issuer (no trusted CA signed it; see network.tls_ca_file)"),
            (GNUTLS_CERT_UNEXPECTED_OWNER, "issued for another name than \(host)"),
            (GNUTLS_CERT_EXPIRED, "expired"),
            (GNUTLS_CERT_NOT_ACTIVATED, "not yet valid"),
            (GNUTLS_CERT_REVOKED, "revoked"),
            (GNUTLS_CERT_SIGNER_NOT_CA, "signed by a certificate that is not a CA"),
            (GNUTLS_CERT_INSECURE_ALGORITHM, "signed with an insecure algorithm"),
            (GNUTLS_CERT_SIGNATURE_FAILURE, "bad signature"),
        ]
        let found = reasons.filter { status & $0.0.rawValue != 0 }.map(\.1)
        return found.isEmpty ? "not trusted (GnuTLS status 0x\(String(status, radix: 16)))" : found.joined(separator: ", ")
    }

    /// An IPv4 or IPv6 address literal: checked against the certificate's IP addresses, and
    /// never sent as SNI (RFC 6066 §3 allows only host names there).
    static func isAddressLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
