internal import CGnuTLS

/// The CA certificates an rtmps:// connection trusts: the system store plus an optional PEM file
/// (`RTMPPublisherOptions.tlsCAFile`). One per publisher, loaded at its first TLS connect; librtmp
/// ends each session (gnutls_deinit) in `RTMP_Close`, and this outlives them all, because the
/// publisher closes librtmp in its `deinit` before its stored properties go.
public final class TLSTrust {
    let credentials: gnutls_certificate_credentials_t

    /// Why the trust could not be loaded, worded for an error message.
    struct LoadFailure: Error {
        let reason: String
    }

    init(caFile: String?) throws(LoadFailure) {
        var credentials: gnutls_certificate_credentials_t?
        var failedStep: Int32 = 0
        let rc = cgnutls_credentials_new(caFile, &credentials, &failedStep)
        guard rc == 0, let credentials else {
            let text = String(cString: gnutls_strerror(rc))
            switch failedStep {
            case 2: throw LoadFailure(reason: "cannot load the system trust store: \(text)")
            case 3: throw LoadFailure(reason: "cannot read the TLS CA file \(caFile ?? ""): \(text)")
            case 4: throw LoadFailure(reason: "the TLS CA file \(caFile ?? "") holds no PEM certificate")
            default: throw LoadFailure(reason: "GnuTLS: \(text)")
            }
        }
        self.credentials = credentials
    }

    deinit { gnutls_certificate_free_credentials(credentials) }
}
