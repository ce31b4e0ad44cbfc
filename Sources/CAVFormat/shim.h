#ifndef CAMCAST_CAVFORMAT_SHIM_H
#define CAMCAST_CAVFORMAT_SHIM_H
// libavformat's mov muxer writing fragmented MP4 (or its mpegts muxer writing MPEG-TS), for
// Recording's SegmentFile (and nothing else).
// The muxer writes through an AVIOContext over the caller's file descriptor, so the caller knows
// how many bytes reached the file and can fdatasync at each fragment boundary.
//
// libavformat is loaded with dlopen when the first segment opens, not linked: Debian's build
// brings 31 more shared libraries with it (Kerberos, ZeroMQ, SRT, libssh, libbluray, …), and
// loading them at every start cost each daemon ~3 MB of resident memory and ~15 ms before READY=1,
// recording or not (scripts/bench's startup section). Only the libavformat calls below go through
// the table; libavcodec and libavutil, which the AAC encoder links anyway, are called directly.
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/mem.h>

// The soname of the libavformat these headers describe (libavformat.so.59 on Debian 12).
#define CAVFORMAT_SONAME "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR)

// The libavformat functions the recorder calls, resolved by cavformat_load.
typedef struct cavformat_api {
    int (*alloc_output_context2)(AVFormatContext **, const AVOutputFormat *, const char *, const char *);
    void (*free_context)(AVFormatContext *);
    AVStream *(*new_stream)(AVFormatContext *, const AVCodec *);
    int (*write_header)(AVFormatContext *, AVDictionary **);
    int (*write_frame)(AVFormatContext *, AVPacket *);
    int (*write_trailer)(AVFormatContext *);
    AVIOContext *(*io_alloc_context)(unsigned char *, int, int, void *, int (*)(void *, uint8_t *, int),
                                     int (*)(void *, uint8_t *, int), int64_t (*)(void *, int64_t, int));
    void (*io_context_free)(AVIOContext **);
    void (*io_flush)(AVIOContext *);
} cavformat_api;

// What the one load left: the table (NULL if it failed) and why it failed. Function-local
// statics, because Swift emits a header's functions but not its variables; several object files
// may each hold a copy: each loads once for itself, and dlopen hands all of them the same library.
typedef struct cavformat_loaded {
    const cavformat_api *api;
    char failure[256];
} cavformat_loaded;
static inline cavformat_loaded *cavformat_state(void) { static cavformat_loaded state; return &state; }
static inline pthread_once_t *cavformat_once(void) { static pthread_once_t once = PTHREAD_ONCE_INIT; return &once; }

// The load itself, run once under pthread_once: the table and the failure text are written here
// only, and pthread_once makes every caller wait for it and see what it wrote, so neither needs a
// lock after. A failure stays for the process's life (a libavformat installed later is found
// after a restart; the .deb depends on it anyway).
static void cavformat_load_once(void) {
    cavformat_loaded *state = cavformat_state();
    void *library = dlopen(CAVFORMAT_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(state->failure, sizeof state->failure, "%s", reason ? reason : CAVFORMAT_SONAME " not found");
        return;
    }
    cavformat_api *api = calloc(1, sizeof(cavformat_api));
    if (!api) { dlclose(library); snprintf(state->failure, sizeof state->failure, "out of memory"); return; }
#define CAVFORMAT_RESOLVE(field, symbol) \
    if (!(*(void **)&api->field = dlsym(library, #symbol))) { \
        snprintf(state->failure, sizeof state->failure, "%s has no %s", CAVFORMAT_SONAME, #symbol); \
        free(api); dlclose(library); return; }
    CAVFORMAT_RESOLVE(alloc_output_context2, avformat_alloc_output_context2)
    CAVFORMAT_RESOLVE(free_context, avformat_free_context)
    CAVFORMAT_RESOLVE(new_stream, avformat_new_stream)
    CAVFORMAT_RESOLVE(write_header, avformat_write_header)
    CAVFORMAT_RESOLVE(write_frame, av_write_frame)
    CAVFORMAT_RESOLVE(write_trailer, av_write_trailer)
    CAVFORMAT_RESOLVE(io_alloc_context, avio_alloc_context)
    CAVFORMAT_RESOLVE(io_context_free, avio_context_free)
    CAVFORMAT_RESOLVE(io_flush, avio_flush)
#undef CAVFORMAT_RESOLVE
    // The library stays loaded for the process's life (the table points into it).
    state->api = api;
}

// Loads libavformat and resolves the table, once. Returns 0, or -1 with the reason in
// cavformat_load_error(). Safe from several threads: the first loads, the others wait for it.
static inline int cavformat_load(void) {
    if (pthread_once(cavformat_once(), cavformat_load_once) != 0) return -1;
    return cavformat_state()->api ? 0 : -1;
}

// Why cavformat_load failed (dlerror's words), for the one error line; only after it returned -1.
static inline const char *cavformat_load_error(void) {
    cavformat_loaded *state = cavformat_state();
    return state->failure[0] ? state->failure : "pthread_once failed";
}

// The loaded table; only after cavformat_load returned 0.
static inline const cavformat_api *cavformat_fn(void) { return cavformat_state()->api; }

typedef struct cavformat_mp4 {
    AVFormatContext *format;
    int fd;
    // Bytes write(2) accepted, and the errno of the first failed write (0: none).
    int64_t bytes;
    int write_errno;
    // MPEG-TS rather than MP4: no fragments; a flush also pushes out the PES the muxer holds.
    int mpegts;
    // Instead of `fd`, when set: each buffer the muxer fills goes to `sink` (a network output's
    // messages, the I/O buffer then the message size). Returns 0, or an errno that fails the write.
    int (*sink)(void *context, const uint8_t *data, int size);
    void *sink_context;
} cavformat_mp4;

// The AVIO write callback: every byte or an error (a full disk must not look like a short file).
// In C because its buffer parameter is `uint8_t *` before FFmpeg 7 and `const uint8_t *` after.
static int cavformat_write_all(void *opaque, uint8_t *buffer, int size) {
    cavformat_mp4 *mp4 = (cavformat_mp4 *)opaque;
    if (mp4->write_errno) return AVERROR(mp4->write_errno);
    if (mp4->sink) {
        int failed = mp4->sink(mp4->sink_context, buffer, size);
        if (failed) { mp4->write_errno = failed; return AVERROR(failed); }
        mp4->bytes += size;
        return size;
    }
    int done = 0;
    while (done < size) {
        ssize_t n = write(mp4->fd, buffer + done, (size_t)(size - done));
        if (n < 0) {
            if (errno == EINTR) continue;
            mp4->write_errno = errno;
            return AVERROR(errno);
        }
        done += (int)n;
        mp4->bytes += n;
    }
    return size;
}

static inline void cavformat_error_text(int code, char *buffer, size_t size) { av_strerror(code, buffer, size); }
static inline void cavformat_quiet(void) { av_log_set_level(AV_LOG_ERROR); }

// Frees the muxer and its I/O context; the descriptor stays open (the caller owns it).
static inline void cavformat_mp4_free(cavformat_mp4 *mp4) {
    if (!mp4) return;
    if (mp4->format) {
        AVIOContext *pb = mp4->format->pb;
        cavformat_fn()->free_context(mp4->format);
        if (pb) {
            av_freep(&pb->buffer);
            cavformat_fn()->io_context_free(&pb);
        }
    }
    free(mp4);
}

static inline int cavformat_set_extradata(AVCodecParameters *par, const uint8_t *data, int size) {
    par->extradata = av_mallocz((size_t)size + AV_INPUT_BUFFER_PADDING_SIZE);
    if (!par->extradata) return AVERROR(ENOMEM);
    memcpy(par->extradata, data, (size_t)size);
    par->extradata_size = size;
    return 0;
}

// Opens a fragmented MP4 on `fd` (a fragment at every video keyframe, the moov first and empty),
// or with `mpegts` an MPEG-TS (the muxer repeats the parameter sets before each keyframe and wraps
// the AAC in ADTS from `audio_config` itself)
// with stream 0 the video (H.264, or H.265 tagged hvc1 when `hevc`), its parameter sets as Annex-B
// in `video_config`, and stream 1 AAC when `audio_config` is not NULL. Writes the header.
// Time base: milliseconds for the video, samples for the audio. Returns 0 or a negative AVERROR; *out on success.
// With `sink` (and fd -1) the bytes go to it in buffers of `buffer_size` (0: 64 KiB), not to fd.
static inline int cavformat_open_io(
    cavformat_mp4 **out, int fd, int (*sink)(void *, const uint8_t *, int), void *sink_context, int buffer_size,
    int mpegts, int hevc, int width, int height, const uint8_t *video_config, int video_config_size,
    int sample_rate, int channels, const uint8_t *audio_config, int audio_config_size) {
    if (cavformat_load() != 0) return AVERROR(ELIBACC);
    cavformat_mp4 *mp4 = calloc(1, sizeof(cavformat_mp4));
    if (!mp4) return AVERROR(ENOMEM);
    mp4->fd = fd;
    mp4->mpegts = mpegts;
    mp4->sink = sink;
    mp4->sink_context = sink_context;
    int err = cavformat_fn()->alloc_output_context2(&mp4->format, 0, mpegts ? "mpegts" : "mp4", 0);
    if (err < 0) { free(mp4); return err; }
    if (buffer_size <= 0) buffer_size = 64 * 1024;
    unsigned char *buffer = av_malloc(buffer_size);
    if (!buffer) { cavformat_mp4_free(mp4); return AVERROR(ENOMEM); }
    mp4->format->pb = cavformat_fn()->io_alloc_context(buffer, buffer_size, 1, mp4, 0, cavformat_write_all, 0);
    if (!mp4->format->pb) { av_free(buffer); cavformat_mp4_free(mp4); return AVERROR(ENOMEM); }
    mp4->format->flags |= AVFMT_FLAG_CUSTOM_IO;

    AVStream *video = cavformat_fn()->new_stream(mp4->format, 0);
    if (!video) { cavformat_mp4_free(mp4); return AVERROR(ENOMEM); }
    video->time_base = (AVRational){1, 1000};
    video->codecpar->codec_type = AVMEDIA_TYPE_VIDEO;
    video->codecpar->codec_id = hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264;
    if (hevc && !mpegts) video->codecpar->codec_tag = MKTAG('h', 'v', 'c', '1');
    video->codecpar->width = width;
    video->codecpar->height = height;
    if ((err = cavformat_set_extradata(video->codecpar, video_config, video_config_size)) < 0) { cavformat_mp4_free(mp4); return err; }

    if (audio_config) {
        AVStream *audio = cavformat_fn()->new_stream(mp4->format, 0);
        if (!audio) { cavformat_mp4_free(mp4); return AVERROR(ENOMEM); }
        audio->time_base = (AVRational){1, sample_rate};
        audio->codecpar->codec_type = AVMEDIA_TYPE_AUDIO;
        audio->codecpar->codec_id = AV_CODEC_ID_AAC;
        audio->codecpar->sample_rate = sample_rate;
        audio->codecpar->frame_size = 1024;
        av_channel_layout_default(&audio->codecpar->ch_layout, channels);
        if ((err = cavformat_set_extradata(audio->codecpar, audio_config, audio_config_size)) < 0) { cavformat_mp4_free(mp4); return err; }
    }

    AVDictionary *options = 0;
    if (!mpegts) av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0);
    err = cavformat_fn()->write_header(mp4->format, &options);
    av_dict_free(&options);
    if (err < 0) { cavformat_mp4_free(mp4); return err; }
    *out = mp4;
    return 0;
}

static inline int cavformat_mp4_open(
    cavformat_mp4 **out, int fd, int mpegts, int hevc, int width, int height, const uint8_t *video_config, int video_config_size,
    int sample_rate, int channels, const uint8_t *audio_config, int audio_config_size) {
    return cavformat_open_io(
        out, fd, 0, 0, 0, mpegts, hevc, width, height, video_config, video_config_size, sample_rate, channels, audio_config,
        audio_config_size);
}

// Hands one packet (Annex-B for video) to the muxer; a video keyframe first writes out the
// fragment before it. Returns 0 or a negative AVERROR.
// `pts`, `dts` and `duration` count 1/`timescale` seconds. The duration is what the mov muxer gives
// the last sample of a fragment and of the file (the others last until the next one's dts):
// without it the muxer guesses and warns, "Estimating the duration of the last packet in a fragment".
static inline int cavformat_mp4_write(
    cavformat_mp4 *mp4, int stream, const uint8_t *data, int size, int64_t pts, int64_t dts, int64_t duration, int timescale,
    int keyframe) {
    AVPacket *packet = av_packet_alloc();
    if (!packet) return AVERROR(ENOMEM);
    int err = av_new_packet(packet, size);
    if (err < 0) { av_packet_free(&packet); return err; }
    memcpy(packet->data, data, (size_t)size);
    packet->stream_index = stream;
    packet->pts = pts;
    packet->dts = dts;
    packet->duration = duration;
    if (keyframe) packet->flags |= AV_PKT_FLAG_KEY;
    // The muxer's stream time base may differ from the one asked for.
    av_packet_rescale_ts(packet, (AVRational){1, timescale}, mp4->format->streams[stream]->time_base);
    err = cavformat_fn()->write_frame(mp4->format, packet);
    av_packet_free(&packet);
    return err;
}

// Pushes what the I/O buffer holds to the descriptor (not the muxer). Returns 0 or a negative AVERROR.
static inline int cavformat_io_flush(cavformat_mp4 *mp4) {
    cavformat_fn()->io_flush(mp4->format->pb);
    if (mp4->write_errno) return AVERROR(mp4->write_errno);
    return mp4->format->pb->error < 0 ? mp4->format->pb->error : 0;
}

// Pushes what the muxer holds (MPEG-TS: the PES it is filling) and the I/O buffer to the
// descriptor. Returns 0 or a negative AVERROR.
static inline int cavformat_mp4_flush(cavformat_mp4 *mp4) {
    if (mp4->mpegts) {
        int err = cavformat_fn()->write_frame(mp4->format, 0);
        if (err < 0) return err;
    }
    return cavformat_io_flush(mp4);
}

// Writes the last fragment and the trailer, then flushes (the muxer is done: only its I/O).
// Returns 0 or a negative AVERROR.
static inline int cavformat_mp4_finish(cavformat_mp4 *mp4) {
    int err = cavformat_fn()->write_trailer(mp4->format);
    // The trailer freed the muxer's streams: a later flush must not ask it for anything.
    mp4->mpegts = 0;
    int flushed = cavformat_io_flush(mp4);
    return err < 0 ? err : flushed;
}

#endif
