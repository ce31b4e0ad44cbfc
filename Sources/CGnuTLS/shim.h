#ifndef CAMCAST_CGNUTLS_SHIM_H
#define CAMCAST_CGNUTLS_SHIM_H
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <string.h>

/* GnuTLS for rtmps:// (RTMP module, TLSSession.swift). Debian's librtmp is linked against the same
 * libgnutls.so.30 and, once given a session in r->m_sb.sb_ssl, reads and writes through
 * gnutls_record_recv/gnutls_record_send (rtmp.c RTMPSockBuf_Fill/Send) and ends it with
 * gnutls_bye + gnutls_deinit (RTMPSockBuf_Close). Stateless helpers only. */

/* Trust: the system store (on Debian, /etc/ssl/certs/ca-certificates.crt, the trust file GnuTLS
 * is built with), plus `ca_file` (PEM) when not NULL. Returns 0 and *out, or a negative GnuTLS
 * error; *failed_step says which step failed (1: allocate, 2: system store, 3: ca_file, 4: ca_file
 * held no certificate). */
static inline int cgnutls_credentials_new(const char *ca_file, gnutls_certificate_credentials_t *out,
                                          int *failed_step) {
    gnutls_certificate_credentials_t cred;
    int rc = gnutls_certificate_allocate_credentials(&cred);
    if (rc < 0) { *failed_step = 1; return rc; }
    rc = gnutls_certificate_set_x509_system_trust(cred);
    if (rc < 0) { *failed_step = 2; gnutls_certificate_free_credentials(cred); return rc; }
    if (ca_file) {
        rc = gnutls_certificate_set_x509_trust_file(cred, ca_file, GNUTLS_X509_FMT_PEM);
        if (rc <= 0) {
            *failed_step = rc < 0 ? 3 : 4;
            gnutls_certificate_free_credentials(cred);
            return rc < 0 ? rc : GNUTLS_E_NO_CERTIFICATE_FOUND;
        }
    }
    *out = cred;
    return 0;
}

/* A client session on connected socket `fd`: default priorities, the credentials, SNI when
 * `sni_name` is not NULL (RFC 6066 forbids an IP address there), and verification of the chain
 * and of `verify_name` (a DNS name or an IP address literal) inside gnutls_handshake, which then
 * fails with GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR. `timeout_ms` bounds the handshake's waits. */
static inline int cgnutls_client_new(gnutls_session_t *out, gnutls_certificate_credentials_t cred, int fd,
                                     const char *sni_name, const char *verify_name, unsigned timeout_ms) {
    gnutls_session_t s;
    /* No session tickets: Camcast never resumes (each connect is a full handshake), and a
     * client that offers no psk_key_exchange_modes need not be sent any (RFC 8446 §4.6.1). */
    int rc = gnutls_init(&s, GNUTLS_CLIENT | GNUTLS_NO_TICKETS);
    if (rc < 0) return rc;
    if ((rc = gnutls_set_default_priority(s)) < 0 ||
        (rc = gnutls_credentials_set(s, GNUTLS_CRD_CERTIFICATE, cred)) < 0 ||
        (sni_name && (rc = gnutls_server_name_set(s, GNUTLS_NAME_DNS, sni_name, strlen(sni_name))) < 0)) {
        gnutls_deinit(s);
        return rc;
    }
    gnutls_session_set_verify_cert(s, verify_name, 0);
    gnutls_transport_set_int(s, fd);
    gnutls_handshake_set_timeout(s, timeout_ms);
    *out = s;
    return 0;
}

#endif
