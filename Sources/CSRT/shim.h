#ifndef CAMCAST_CSRT_SHIM_H
#define CAMCAST_CSRT_SHIM_H
// libsrt (Debian's libsrt-gnutls 1.5) for the SRT module's caller socket, and nothing else.
// Wrappers for what Swift cannot call or name well: socket options set by their C type, and the
// live-mode caller set-up in one call, so the options' order (all before srt_connect) is fixed here.
#include <netdb.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <srt/srt.h>

// The live-mode caller options, all set before the connect. `passphrase` may be NULL (no
// encryption); `stream_id` may be NULL. Returns 0 or SRT_ERROR (srt_getlasterror_str says why).
static inline int csrt_configure_caller(
    SRTSOCKET socket, int latency_ms, int connect_timeout_ms, int peer_idle_timeout_ms, int send_timeout_ms,
    const char *passphrase, int key_length, const char *stream_id) {
    int live = SRTT_LIVE;
    if (srt_setsockflag(socket, SRTO_TRANSTYPE, &live, sizeof live) != 0) return SRT_ERROR;
    int yes = 1;
    if (srt_setsockflag(socket, SRTO_SENDER, &yes, sizeof yes) != 0) return SRT_ERROR;
    if (srt_setsockflag(socket, SRTO_LATENCY, &latency_ms, sizeof latency_ms) != 0) return SRT_ERROR;
    if (srt_setsockflag(socket, SRTO_CONNTIMEO, &connect_timeout_ms, sizeof connect_timeout_ms) != 0) return SRT_ERROR;
    if (srt_setsockflag(socket, SRTO_PEERIDLETIMEO, &peer_idle_timeout_ms, sizeof peer_idle_timeout_ms) != 0) return SRT_ERROR;
    if (srt_setsockflag(socket, SRTO_SNDTIMEO, &send_timeout_ms, sizeof send_timeout_ms) != 0) return SRT_ERROR;
    if (passphrase) {
        if (srt_setsockflag(socket, SRTO_PASSPHRASE, passphrase, (int)strlen(passphrase)) != 0) return SRT_ERROR;
        if (srt_setsockflag(socket, SRTO_PBKEYLEN, &key_length, sizeof key_length) != 0) return SRT_ERROR;
    }
    if (stream_id && srt_setsockflag(socket, SRTO_STREAMID, stream_id, (int)strlen(stream_id)) != 0) return SRT_ERROR;
    return 0;
}

// SRTO_BINDTODEVICE (libsrt forwards it as SO_BINDTODEVICE to its UDP socket when the connect opens
// it; libsrt 1.5 allows it for IPv4 only). Before srt_connect. Returns 0 or SRT_ERROR.
static inline int csrt_bind_to_device(SRTSOCKET socket, const char *interface_name) {
    return srt_setsockflag(socket, SRTO_BINDTODEVICE, interface_name, (int)strlen(interface_name));
}

// One message (at most SRT_LIVE_DEF_PLSIZE bytes in live mode), sent whole or not at all.
static inline int csrt_send_message(SRTSOCKET socket, const uint8_t *data, int size) {
    return srt_sendmsg2(socket, (const char *)data, size, NULL);
}

// Starts a connect that does not block (SRTO_RCVSYN off), so the caller can wait for it in slices
// and give up at a stop: srt_close on a socket blocked in srt_connect waits for the connect to end
// (seen: a stop held 8 s by a connect timeout). Returns an epoll id watching it, or SRT_ERROR.
static inline int csrt_start_connect(SRTSOCKET socket, const struct sockaddr *address, int length) {
    int no = 0;
    if (srt_setsockflag(socket, SRTO_RCVSYN, &no, sizeof no) != 0) return SRT_ERROR;
    int poll = srt_epoll_create();
    if (poll < 0) return SRT_ERROR;
    int events = SRT_EPOLL_OUT | SRT_EPOLL_ERR;
    if (srt_epoll_add_usock(poll, socket, &events) != 0 || srt_connect(socket, address, length) == SRT_ERROR) {
        srt_epoll_release(poll);
        return SRT_ERROR;
    }
    return poll;
}

// Waits up to `milliseconds` on the connect `csrt_start_connect` began: 1 connected, 0 still
// connecting, -1 failed (srt_getrejectreason says why; SRTO_CONNTIMEO ends a silent one).
static inline int csrt_wait_connected(int poll, SRTSOCKET socket, int milliseconds) {
    SRT_EPOLL_EVENT ready[1];
    srt_epoll_uwait(poll, ready, 1, milliseconds);
    SRT_SOCKSTATUS status = srt_getsockstate(socket);
    if (status == SRTS_CONNECTED) return 1;
    if (status == SRTS_CONNECTING || status == SRTS_OPENED || status == SRTS_INIT) return 0;
    return -1;
}

// What the SRT module reads of libsrt's statistics (SRT_TRACEBSTATS), in plain fields. The send
// buffer's and the drops' bytes are payload: libsrt counts them with 44 header bytes a packet
// (CPacket::SRT_DATA_HDR_SIZE, IPv4's 28 and SRT's 16, whatever the family), taken off here.
struct csrt_link_statistics {
    double rtt_ms;
    double bandwidth_mbps;         // libsrt's estimate of the link's capacity (packet pairs)
    double send_rate_mbps;         // what it sent over the last interval, retransmissions included
    int send_buffer_ms;            // span of the packets not acknowledged yet (instantaneous)
    int send_buffer_packets;
    long long send_buffer_bytes;
    int available_send_buffer_bytes;
    long long sent_packets;        // unique data packets sent (pktSentUniqueTotal)
    long long retransmitted_packets;
    long long lost_packets;        // reported lost by the receiver (pktSndLossTotal)
    long long dropped_packets;     // dropped by the sender as too late (pktSndDropTotal)
    long long dropped_bytes;
};

// Fills `out` from srt_bistats (instantaneous send-buffer figures, no counter cleared). Returns 0,
// or -1 if the socket is gone or libsrt could not read its send buffer this time (it then reports
// an empty buffer with no room in it: it only tries the connection's lock, and zeros all three).
static inline int csrt_link_statistics(SRTSOCKET socket, struct csrt_link_statistics *out) {
    SRT_TRACEBSTATS stats;
    memset(&stats, 0, sizeof stats);
    if (srt_bistats(socket, &stats, 0, 1) != 0) return -1;
    if (stats.pktSndBuf == 0 && stats.byteAvailSndBuf == 0) return -1;
    const long long header = 44;
    out->rtt_ms = stats.msRTT;
    out->bandwidth_mbps = stats.mbpsBandwidth;
    out->send_rate_mbps = stats.mbpsSendRate;
    out->send_buffer_ms = stats.msSndBuf;
    out->send_buffer_packets = stats.pktSndBuf;
    out->send_buffer_bytes = (long long)stats.byteSndBuf - header * stats.pktSndBuf;
    out->available_send_buffer_bytes = stats.byteAvailSndBuf;
    out->sent_packets = stats.pktSentUniqueTotal;
    out->retransmitted_packets = stats.pktRetransTotal;
    out->lost_packets = stats.pktSndLossTotal;
    out->dropped_packets = stats.pktSndDropTotal;
    out->dropped_bytes = (long long)stats.byteSndDropTotal - header * stats.pktSndDropTotal;
    return 0;
}

static inline int csrt_live_message_size(void) { return SRT_LIVE_DEF_PLSIZE; }
static inline int csrt_invalid_socket(void) { return SRT_INVALID_SOCK; }
static inline int csrt_reject_unknown(void) { return SRT_REJ_UNKNOWN; }
static inline int csrt_reject_bad_secret(void) { return SRT_REJ_BADSECRET; }
static inline int csrt_reject_unsecure(void) { return SRT_REJ_UNSECURE; }
static inline int csrt_reject_timeout(void) { return SRT_REJ_TIMEOUT; }
static inline int csrt_reject_peer(void) { return SRT_REJ_PEER; }
static inline int csrt_reject_system(void) { return SRT_REJ_SYSTEM; }
static inline int csrt_error_connection_lost(void) { return SRT_ECONNLOST; }
static inline int csrt_error_no_connection(void) { return SRT_ENOCONN; }
// libsrt's log lines (its errors and above) go to `handler` instead of stderr, each the bare
// message: no time, thread, severity or newline of libsrt's own (the daemon's log adds its own).
static inline void csrt_route_logs(SRT_LOG_HANDLER_FN *handler) {
    srt_setloglevel(3 /* LOG_ERR */);
    srt_setlogflags(SRT_LOGF_DISABLE_TIME | SRT_LOGF_DISABLE_THREADNAME | SRT_LOGF_DISABLE_SEVERITY | SRT_LOGF_DISABLE_EOL);
    srt_setloghandler(NULL, handler);
}

#endif
