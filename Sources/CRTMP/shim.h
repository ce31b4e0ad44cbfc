#ifndef CAMCAST_CRTMP_SHIM_H
#define CAMCAST_CRTMP_SHIM_H
#include <librtmp/rtmp.h>
#include <librtmp/log.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

/* Helpers for what Swift cannot call or should not touch directly in librtmp 2.4
 * (Debian: 2.4+20151223.gitfa8646d). Everything here is stateless: a `static`
 * variable in this header would get one copy per Swift object file. */

/* Implemented in Swift (RTMP module, LibrtmpLog.swift) with @_cdecl. Receives one
 * formatted librtmp log line on the thread that called into librtmp. */
void camcast_rtmp_log_line(int level, const char *line);

/* Implemented in Swift (LibrtmpLog.swift): whether the publisher on this thread asked for
 * librtmp's debug lines (RTMPPublisherOptions.librtmpDebugLogging). */
int camcast_rtmp_log_debug_enabled(void);

/* The debug lines Camcast classifies failures by (LibrtmpLogEvent); their arguments are our own
 * command names, or a status code or error description from a message the guard has checked.
 * Every other debug line (AMF_Dump's one per property, "server invoking <...>", handshake
 * details) is dropped before formatting unless debug logs were asked for: formatting each
 * property of a server's reply cost 33 s of CPU on 2 000 000 of them (issue 19). */
static inline int crtmp_is_classified_debug_format(const char *format) {
    return strcmp(format, "Invoking %s") == 0 || strcmp(format, "%s, onStatus: %s") == 0 ||
           strcmp(format, "%s, error description: %s") == 0 ||
           strcmp(format, "%s, received error for method call <%s>") == 0 ||
           strcmp(format, "%s, RTMP socket closed by peer") == 0;
}

/* librtmp's log callback takes a va_list, which Swift cannot receive: format here and forward.
 * A line longer than the stack buffer is formatted whole on the heap (up to 1 MiB): cutting it
 * before Swift masks the stream key could leave part of the key in it. Longer lines, which only
 * a hostile server could cause, are replaced by a note. */
static inline void crtmp_log_trampoline(int level, const char *format, va_list args) {
    char line[2048];
    va_list copy;
    int needed;
    if (level >= RTMP_LOGDEBUG && !crtmp_is_classified_debug_format(format) &&
        !camcast_rtmp_log_debug_enabled()) return;
    va_copy(copy, args);
    needed = vsnprintf(line, sizeof line, format, args);
    if (needed < 0) {
        camcast_rtmp_log_line(level, "(unformattable librtmp log line)");
    } else if ((size_t)needed < sizeof line) {
        camcast_rtmp_log_line(level, line);
    } else if (needed < (1 << 20)) {
        char *long_line = (char *)malloc((size_t)needed + 1);
        if (long_line) {
            vsnprintf(long_line, (size_t)needed + 1, format, copy);
            camcast_rtmp_log_line(level, long_line);
            free(long_line);
        }
    } else {
        camcast_rtmp_log_line(level, "(librtmp log line over 1 MiB not shown)");
    }
    va_end(copy);
}

/* The callback and level are process-global in librtmp. */
static inline void crtmp_install_log_callback(int level) {
    RTMP_LogSetCallback(crtmp_log_trampoline);
    RTMP_LogSetLevel((RTMP_LogLevel)level);
}

/* Receive timeout librtmp sets (SO_RCVTIMEO) on the sockets it manages, in seconds. */
static inline void crtmp_set_link_timeout(RTMP *r, int seconds) {
    r->Link.timeout = seconds;
}

/* RTMP_Connect1 (handshake, then the connect command) with the connect command Camcast encodes
 * (RTMP module, RTMPConnectCommand: librtmp's own properties plus Enhanced RTMP v2's fourCcList and
 * capsEx, which librtmp cannot put into the command object). librtmp's SendConnectPacket sends a
 * packet it is given as is, queued (RTMP_SendPacket with queue TRUE), so the `_result` is matched
 * to `connect` by the transaction id in `command`, which Camcast writes as m_numInvokes + 1, the
 * number SendConnectPacket itself would take: it is counted here so later commands go on from it.
 * `command` NULL: librtmp's own connect. The packet is ours, freed here; librtmp keeps a copy of
 * the struct for header compression (m_vecChannelsOut) and never reads its body again. */
static inline int crtmp_connect1(RTMP *r, const uint8_t *command, uint32_t length) {
    RTMPPacket packet;
    int ok;
    if (!command) return RTMP_Connect1(r, NULL);
    memset(&packet, 0, sizeof packet);
    if (!RTMPPacket_Alloc(&packet, length)) return 0;
    memcpy(packet.m_body, command, length);
    packet.m_nChannel = 0x03; /* librtmp's control channel (invoke), as SendConnectPacket */
    packet.m_headerType = RTMP_PACKET_SIZE_LARGE;
    packet.m_packetType = RTMP_PACKET_TYPE_INVOKE;
    packet.m_nTimeStamp = 0;
    packet.m_nInfoField2 = 0;
    packet.m_hasAbsTimestamp = 0;
    packet.m_nBodySize = length;
    r->m_numInvokes++;
    ok = RTMP_Connect1(r, &packet);
    RTMPPacket_Free(&packet);
    return ok;
}

/* RTMP_Connect resolves with gethostbyname (IPv4 only) and connects with no timeout. We connect
 * the TCP socket ourselves (getaddrinfo, IPv4 or IPv6, with a deadline) and hand it over here, so
 * librtmp never resolves or connects: Camcast never calls RTMP_Connect, and the one place librtmp
 * calls it itself (publisher auth, below) finds no host name. Its parsed Link.port is unused. This mirrors the post-connect part of RTMP_Connect0 +
 * RTMP_Connect (rtmp.c): reset per-connection flags, SO_RCVTIMEO = Link.timeout, TCP_NODELAY,
 * enable acknowledgements, then handshake + connect invoke via RTMP_Connect1.
 * librtmp owns (and on failure closes) the socket from here on. rtmps:// connects through
 * crtmp_connect_after_handshake instead. Returns TRUE/FALSE as librtmp does. */
static inline int crtmp_connect_with_socket(RTMP *r, int fd, const uint8_t *command, uint32_t length) {
    int on = 1;
    int ok;
    struct timeval tv;
    r->Link.protocol &= ~RTMP_FEATURE_SSL;
    /* No host name left for librtmp to connect to: HandleInvoke answers an `_error` to connect
     * that asks for Adobe publisher auth (PublisherAuth returns 1) with CloseInternal +
     * RTMP_Connect + RTMP_ConnectStream — gethostbyname, a blocking connect with no timeout, no
     * TLS, and RTMP_ReadPacket unguarded. RTMP_Connect returns FALSE at once without a host name.
     * Nothing else Camcast uses reads it (tcUrl, app and playpath are their own fields). */
    r->Link.hostname.av_len = 0;
    r->m_sb.sb_socket = fd;
    r->m_sb.sb_timedout = 0;
    r->m_pausing = 0;
    r->m_fDuration = 0.0;
    tv.tv_sec = r->Link.timeout;
    tv.tv_usec = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    r->m_bSendCounter = 1;
    ok = crtmp_connect1(r, command, length);
    return ok;
}

/* rtmps:// (RTMPPublisher+TLSHandshake.swift): Camcast has run the TLS handshake and the RTMP
 * handshake itself through the TLS session; librtmp's RTMP_Connect1 always runs a handshake of
 * its own before sending `connect`, so it runs it here against a stand-in: its writes go to
 * `local_fd` (one end of a socketpair whose other end Camcast reads: C0 C1 C2, then the connect
 * command, which Camcast forwards through the TLS session), and its reads are served from
 * `stand_in` (S0 S1 S2, 3073 bytes) placed in its read buffer. librtmp never reads through the TLS
 * session, so it never meets GNUTLS_E_AGAIN from a TLS 1.3 post-handshake message (which its
 * RTMPSockBuf_Fill would add to its buffer size). On failure librtmp closes `local_fd`.
 * Returns TRUE/FALSE as librtmp does. */
static inline int crtmp_connect_after_handshake(RTMP *r, int local_fd, const uint8_t *stand_in, int length,
                                                const uint8_t *command, uint32_t command_length) {
    if (length <= 0 || length > RTMP_BUFFER_CACHE_SIZE) return 0;
    r->Link.protocol &= ~RTMP_FEATURE_SSL;
    r->Link.hostname.av_len = 0;
    r->m_sb.sb_socket = local_fd;
    r->m_sb.sb_ssl = NULL;
    r->m_sb.sb_timedout = 0;
    r->m_pausing = 0;
    r->m_fDuration = 0.0;
    r->m_sb.sb_start = r->m_sb.sb_buf;
    memcpy(r->m_sb.sb_buf, stand_in, (size_t)length);
    r->m_sb.sb_size = length;
    r->m_bSendCounter = 1;
    return crtmp_connect1(r, command, command_length);
}

/* The stand-in connection for crtmp_connect_after_handshake: a close-on-exec socketpair. */
static inline int crtmp_local_pair(int *fds) { return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds); }

/* A stand-in connection that failed after RTMP_Connect1 succeeded on it: librtmp forgets the
 * socket (already closed by Camcast), so RTMP_Close sends nothing and closes nothing. */
static inline void crtmp_forget_socket(RTMP *r) { r->m_sb.sb_socket = -1; }

/* After crtmp_connect_after_handshake: librtmp writes to the real connection from here on (and
 * owns `fd` and `tls_session`: RTMP_Close ends both). The socket options mirror
 * crtmp_connect_with_socket's. */
static inline void crtmp_use_connection(RTMP *r, int fd, void *tls_session) {
    int on = 1;
    struct timeval tv;
    r->m_sb.sb_socket = fd;
    r->m_sb.sb_ssl = tls_session;
    r->m_sb.sb_size = 0;
    r->m_sb.sb_start = r->m_sb.sb_buf;
    tv.tv_sec = r->Link.timeout;
    tv.tv_usec = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

/* The TLS session librtmp reads and writes through (NULL for plain RTMP). */
static inline void *crtmp_tls_session(const RTMP *r) { return r->m_sb.sb_ssl; }

/* Camcast reads the server's side of the connection itself after the handshake (RTMPChunkReader,
 * RTMPServerMessageGuard in the RTMP module) and never calls RTMP_ReadPacket, which allocates
 * whatever length a chunk header declares, per chunk stream, and leaks partial messages (issue
 * 19). The handshake is librtmp's (fixed-size reads), but its buffered read may have taken
 * bytes past it: they are moved out here, unparsed, into Camcast's reader. Returns the count. */
static inline int crtmp_take_buffered(RTMP *r, uint8_t *out, int capacity) {
    int n = r->m_sb.sb_size < capacity ? r->m_sb.sb_size : capacity;
    if (n <= 0) return 0;
    memcpy(out, r->m_sb.sb_start, (size_t)n);
    r->m_sb.sb_start += n;
    r->m_sb.sb_size -= n;
    return n;
}

/* Hands one whole, checked server message to librtmp's handler (createStream result -> publish,
 * onStatus Publish.Start -> playing, ping -> pong, ...). The packet is ours: allocated and freed
 * here on every path. Returns 0 only when allocation failed. */
static inline int crtmp_handle_message(RTMP *r, int channel, uint8_t type, uint32_t stream_id,
                                       uint32_t timestamp, const uint8_t *body, uint32_t length) {
    RTMPPacket packet;
    memset(&packet, 0, sizeof packet);
    if (!RTMPPacket_Alloc(&packet, length)) return 0;
    if (length > 0) memcpy(packet.m_body, body, length);
    packet.m_headerType = RTMP_PACKET_SIZE_LARGE;
    packet.m_packetType = type;
    packet.m_nChannel = channel;
    packet.m_nTimeStamp = timestamp;
    packet.m_nInfoField2 = (int32_t)stream_id;
    packet.m_nBodySize = length;
    packet.m_nBytesRead = length;
    RTMP_ClientPacket(r, &packet);
    RTMPPacket_Free(&packet);
    return 1;
}

/* librtmp sets m_bPlaying on onStatus NetStream.Publish.Start (also for publishing). */
static inline int crtmp_is_publishing(const RTMP *r) { return r->m_bPlaying; }
static inline int crtmp_is_timed_out(const RTMP *r) { return r->m_sb.sb_timedout; }

/* Fills the header fields of `packet` for one media message of `body_size` bytes on chunk
 * stream `channel` of the publishing message stream; m_body is the caller's (allocated or in
 * place). `absolute` selects a type-0 chunk header (absolute timestamp); otherwise type 1 (delta
 * to the previous message on the channel), which librtmp compresses further when it can — except
 * where its compression is wrong: RTMP_SendPacket (2.4) writes a type-3 header (no fields) for a
 * message of the previous one's type, size AND timestamp, taking type 3 to mean "same timestamp";
 * the spec (RTMP 1.0 §5.3.1.2.4), nginx-rtmp, FFmpeg and librtmp's own RTMP_ReadPacket read it as
 * "the previous delta again", so the message and every later one on the channel arrive one delta
 * late (a delta of 0 after one of 40 ms: +40 ms for the rest of the stream; RTMPTests'
 * OutgoingStreamReadBackTests). Such a message goes with a type-0 header (11 bytes more). */
static inline void crtmp_media_packet(RTMPPacket *packet, const RTMP *r, int channel, uint8_t type,
                                      uint32_t timestamp, int absolute, uint32_t body_size) {
    const RTMPPacket *previous =
        channel < r->m_channelsAllocatedOut ? r->m_vecChannelsOut[channel] : NULL;
    if (previous && previous->m_packetType == type && previous->m_nBodySize == body_size
        && previous->m_nTimeStamp == timestamp) {
        absolute = 1;
    }
    packet->m_headerType = absolute ? RTMP_PACKET_SIZE_LARGE : RTMP_PACKET_SIZE_MEDIUM;
    packet->m_packetType = type;
    packet->m_hasAbsTimestamp = 0;
    packet->m_nChannel = channel;
    packet->m_nTimeStamp = timestamp;
    packet->m_nInfoField2 = r->m_stream_id;
    packet->m_nBodySize = body_size;
}

/* Sends one message as a single RTMP message on chunk stream `channel` of the
 * publishing message stream. `prefix` (may be NULL) is copied before `body`
 * (used for the "@setDataFrame" AMF0 string). RTMPPacket_Alloc reserves
 * RTMP_MAX_HEADER_SIZE bytes in front of the body, where RTMP_SendPacket writes
 * the chunk headers. `absolute` as in crtmp_media_packet.
 * Returns TRUE/FALSE as RTMP_SendPacket does; FALSE also if allocation fails. */
static inline int crtmp_send_message(RTMP *r, int channel, uint8_t type, uint32_t timestamp,
                                     int absolute,
                                     const uint8_t *prefix, uint32_t prefix_len,
                                     const uint8_t *body, uint32_t body_len) {
    RTMPPacket packet;
    int ok;
    memset(&packet, 0, sizeof packet);
    if (!RTMPPacket_Alloc(&packet, prefix_len + body_len)) {
        return 0;
    }
    if (prefix_len > 0) memcpy(packet.m_body, prefix, prefix_len);
    if (body_len > 0) memcpy(packet.m_body + prefix_len, body, body_len);
    crtmp_media_packet(&packet, r, channel, type, timestamp, absolute, prefix_len + body_len);
    ok = RTMP_SendPacket(r, &packet, 0);
    RTMPPacket_Free(&packet);
    return ok;
}

/* Sends one message like crtmp_send_message, but from the caller's buffer, without copying the
 * body: `body` must follow RTMP_MAX_HEADER_SIZE (18) writable bytes of the same buffer. Issue 26:
 * a video picture's bytes used to be copied five times between x264 and send() (x264's buffer ->
 * a parser buffer -> one array per NAL unit -> the AVCC payload -> the FLV tag body -> a packet
 * from RTMPPacket_Alloc here); now twice: out of x264's buffer (reused at the next encode) into
 * one array per NAL unit, and from those into the FLV tag body, which is sent from here.
 * RTMP_SendPacket (rtmp.c, 2.4 fa8646d as in Debian, unchanged in 2.6) writes the first chunk
 * header into the bytes just before m_body (at most 1 + 11 + 4 extended-timestamp bytes on chunk
 * stream 4), and before each later chunk its type-3 header (1 byte, 5 with an extended
 * timestamp) over the last bytes of the chunk it has just sent, which it does NOT restore. So
 * the buffer must be private to this call, writable, and holds garbage afterwards: the caller
 * gives up the message (RTMPPublisher.send takes it as `consuming`). The bytes on the wire are
 * those of crtmp_send_message for the same arguments (RTMPTests' in-place differential test).
 * The caller keeps the body to 16 MiB − 1; channel must be below 64 (one-byte basic header). */
static inline int crtmp_send_in_place(RTMP *r, int channel, uint8_t type, uint32_t timestamp,
                                      int absolute, uint8_t *body, uint32_t body_len) {
    RTMPPacket packet;
    if (channel < 2 || channel > 63) return 0;
    memset(&packet, 0, sizeof packet);
    packet.m_body = (char *)body;
    crtmp_media_packet(&packet, r, channel, type, timestamp, absolute, body_len);
    /* librtmp keeps a copy of the packet struct (m_vecChannelsOut) for the next message's header
     * compression; it reads its size, type and timestamp only, never the body pointer. */
    return RTMP_SendPacket(r, &packet, 0);
}

/* Announces our outgoing chunk size (RTMP spec 1.0 §5.4.1, Set Chunk Size, message
 * type 1 on chunk stream 2, message stream 0) and switches librtmp to it. librtmp
 * 2.4 never does this itself and splits every message into 128-byte chunks, one
 * send() each. */
static inline int crtmp_set_chunk_size(RTMP *r, uint32_t size) {
    RTMPPacket packet;
    int ok;
    memset(&packet, 0, sizeof packet);
    if (!RTMPPacket_Alloc(&packet, 4)) {
        return 0;
    }
    packet.m_body[0] = (char)((size >> 24) & 0x7F); /* the top bit must be 0 */
    packet.m_body[1] = (char)((size >> 16) & 0xFF);
    packet.m_body[2] = (char)((size >> 8) & 0xFF);
    packet.m_body[3] = (char)(size & 0xFF);
    packet.m_headerType = RTMP_PACKET_SIZE_LARGE;
    packet.m_packetType = RTMP_PACKET_TYPE_CHUNK_SIZE;
    packet.m_nChannel = 0x02;
    packet.m_nTimeStamp = 0;
    packet.m_nInfoField2 = 0;
    packet.m_nBodySize = 4;
    ok = RTMP_SendPacket(r, &packet, 0);
    RTMPPacket_Free(&packet);
    if (ok) r->m_outChunkSize = (int)size;
    return ok;
}

#endif
