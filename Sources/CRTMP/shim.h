#ifndef CAMCAST_CRTMP_SHIM_H
#define CAMCAST_CRTMP_SHIM_H
#include <librtmp/rtmp.h>
#include <librtmp/log.h>
#include <stdarg.h>
#include <stdio.h>
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

/* librtmp's log callback takes a va_list, which Swift cannot receive: format here
 * (librtmp's own default handler uses the same 2048-byte limit) and forward. */
static inline void crtmp_log_trampoline(int level, const char *format, va_list args) {
    char line[2048];
    vsnprintf(line, sizeof line, format, args);
    camcast_rtmp_log_line(level, line);
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

/* RTMP_Connect resolves with gethostbyname and connects with no timeout. We connect
 * the TCP socket ourselves (with a deadline) and hand it over here. This mirrors
 * the post-connect part of RTMP_Connect0 + RTMP_Connect (rtmp.c): reset per-connection
 * flags, SO_RCVTIMEO = Link.timeout, TCP_NODELAY, enable acknowledgements, then
 * handshake + connect invoke via RTMP_Connect1. librtmp owns (and on failure closes)
 * the socket from here on. Returns TRUE/FALSE as librtmp does. */
static inline int crtmp_connect_with_socket(RTMP *r, int fd) {
    int on = 1;
    struct timeval tv;
    r->m_sb.sb_socket = fd;
    r->m_sb.sb_timedout = 0;
    r->m_pausing = 0;
    r->m_fDuration = 0.0;
    tv.tv_sec = r->Link.timeout;
    tv.tv_usec = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    r->m_bSendCounter = 1;
    return RTMP_Connect1(r, NULL);
}

/* One step of RTMP_ConnectStream's loop (rtmp.c): read one packet and let librtmp
 * handle it (createStream result → publish, onStatus Publish.Start → playing).
 * Returns 0 when reading failed (closed or receive timeout). An onStatus
 * description goes to `status_description` (see above). We run the loop in
 * Swift so that a refusal seen in the log (onStatus …BadName) ends it at once
 * instead of after the receive timeout. */
/* The `description` of an onStatus command (AMF0 command message, RTMP spec 1.0
 * §7.2.2: name "onStatus", transaction id, null, info object with level/code/
 * description), copied NUL-terminated into `out`. librtmp logs only the code, but
 * the description is what tells "already publishing" (nginx-rtmp: BadName,
 * "Already publishing") from other refusals. Leaves `out` empty otherwise. */
static inline void crtmp_status_description(const RTMPPacket *packet, char *out, int capacity) {
    AVal on_status = { (char *)"onStatus", 8 };
    AVal description_key = { (char *)"description", 11 };
    AMFObject obj, info;
    AVal method, description;
    if (capacity <= 0) return;
    out[0] = 0;
    if (packet->m_packetType != RTMP_PACKET_TYPE_INVOKE || packet->m_nBodySize < 1 ||
        packet->m_body[0] != 0x02 /* AMF0 string marker */) return;
    if (AMF_Decode(&obj, packet->m_body, (int)packet->m_nBodySize, FALSE) < 0) return;
    AMFProp_GetString(AMF_GetProp(&obj, NULL, 0), &method);
    if (AVMATCH(&method, &on_status)) {
        AMFProp_GetObject(AMF_GetProp(&obj, NULL, 3), &info);
        AMFProp_GetString(AMF_GetProp(&info, &description_key, -1), &description);
        if (description.av_len > 0) {
            int n = description.av_len < capacity - 1 ? description.av_len : capacity - 1;
            memcpy(out, description.av_val, (size_t)n);
            out[n] = 0;
        }
    }
    AMF_Reset(&obj);
}

static inline int crtmp_read_and_handle_packet(RTMP *r, char *status_description, int capacity) {
    RTMPPacket packet;
    memset(&packet, 0, sizeof packet);
    if (capacity > 0) status_description[0] = 0;
    if (!RTMP_ReadPacket(r, &packet)) {
        return 0;
    }
    if (RTMPPacket_IsReady(&packet) && packet.m_nBodySize > 0) {
        crtmp_status_description(&packet, status_description, capacity);
        /* Media before publish starts is not expected from a server; ignore it
         * as RTMP_ConnectStream does. */
        if (packet.m_packetType != RTMP_PACKET_TYPE_AUDIO &&
            packet.m_packetType != RTMP_PACKET_TYPE_VIDEO &&
            packet.m_packetType != RTMP_PACKET_TYPE_INFO) {
            RTMP_ClientPacket(r, &packet);
        }
    }
    RTMPPacket_Free(&packet);
    return 1;
}

/* librtmp sets m_bPlaying on onStatus NetStream.Publish.Start (also for publishing). */
static inline int crtmp_is_publishing(const RTMP *r) { return r->m_bPlaying; }
static inline int crtmp_is_timed_out(const RTMP *r) { return r->m_sb.sb_timedout; }
/* Bytes librtmp has read from the socket but not yet parsed. */
static inline int crtmp_buffered_bytes(const RTMP *r) { return r->m_sb.sb_size; }

/* Sends one message as a single RTMP message on chunk stream `channel` of the
 * publishing message stream. `prefix` (may be NULL) is copied before `body`
 * (used for the "@setDataFrame" AMF0 string). RTMPPacket_Alloc reserves
 * RTMP_MAX_HEADER_SIZE bytes in front of the body, where RTMP_SendPacket writes
 * the chunk headers. `absolute` selects a type-0 chunk header (absolute
 * timestamp); otherwise type 1 (delta to the previous message on the channel).
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
    packet.m_headerType = absolute ? RTMP_PACKET_SIZE_LARGE : RTMP_PACKET_SIZE_MEDIUM;
    packet.m_packetType = type;
    packet.m_hasAbsTimestamp = 0;
    packet.m_nChannel = channel;
    packet.m_nTimeStamp = timestamp;
    packet.m_nInfoField2 = r->m_stream_id;
    packet.m_nBodySize = prefix_len + body_len;
    ok = RTMP_SendPacket(r, &packet, 0);
    RTMPPacket_Free(&packet);
    return ok;
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
