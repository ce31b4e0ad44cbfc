#ifndef CAMCAST_CAVCODEC_SHIM_H
#define CAMCAST_CAVCODEC_SHIM_H
// libavcodec for two modules: AudioEncoder's native AAC encoder (AACEncoderSession) and
// Encoder's AVCodecEncoder backend (a named H.264/H.265 video encoder fed software frames).
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>

// AVERROR(EAGAIN) and AVERROR_EOF are macros Swift cannot import.
static inline int cavcodec_error_again(void) { return AVERROR(EAGAIN); }
static inline int cavcodec_error_eof(void) { return AVERROR_EOF; }

// av_err2str is a macro over a compound literal; this fills a caller's buffer instead.
static inline void cavcodec_error_text(int code, char *buffer, size_t size) { av_strerror(code, buffer, size); }

// The AAC-LC profile constant moved from FF_PROFILE_* to AV_PROFILE_* in FFmpeg 6.1; both are 1.
static inline int cavcodec_profile_aac_low(void) {
#ifdef AV_PROFILE_AAC_LOW
    return AV_PROFILE_AAC_LOW;
#else
    return FF_PROFILE_AAC_LOW;
#endif
}

// Opens the native "aac" encoder: planar float input (what it takes), AAC-LC, `bit_rate` bit/s,
// global header so the AudioSpecificConfig lands in extradata instead of ADTS in every packet.
// Returns 0 or a negative AVERROR; on success *out is open and its frame_size is 1024.
static inline int cavcodec_open_aac(AVCodecContext **out, int sample_rate, int channels, int64_t bit_rate) {
    const AVCodec *codec = avcodec_find_encoder_by_name("aac");
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    AVCodecContext *context = avcodec_alloc_context3(codec);
    if (!context) return AVERROR(ENOMEM);
    context->sample_fmt = AV_SAMPLE_FMT_FLTP;
    context->sample_rate = sample_rate;
    av_channel_layout_default(&context->ch_layout, channels);
    context->bit_rate = bit_rate;
    context->profile = cavcodec_profile_aac_low();
    context->time_base = (AVRational){1, sample_rate};
    context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    int err = avcodec_open2(context, codec, 0);
    if (err < 0) {
        avcodec_free_context(&context);
        return err;
    }
    *out = context;
    return 0;
}

static inline void cavcodec_close(AVCodecContext *context) { avcodec_free_context(&context); }

// A writable frame of `nb_samples` planar-float samples in the context's layout, or NULL.
static inline AVFrame *cavcodec_frame_new(const AVCodecContext *context, int nb_samples) {
    AVFrame *frame = av_frame_alloc();
    if (!frame) return 0;
    frame->format = AV_SAMPLE_FMT_FLTP;
    frame->sample_rate = context->sample_rate;
    frame->nb_samples = nb_samples;
    if (av_channel_layout_copy(&frame->ch_layout, &context->ch_layout) < 0 || av_frame_get_buffer(frame, 0) < 0) {
        av_frame_free(&frame);
        return 0;
    }
    return frame;
}

static inline void cavcodec_frame_free(AVFrame *frame) { av_frame_free(&frame); }
static inline float *cavcodec_frame_plane(AVFrame *frame, int channel) { return (float *)frame->extended_data[channel]; }

static inline void cavcodec_packet_free(AVPacket *packet) { av_packet_free(&packet); }

// libavcodec logs to stderr by default; the session reports failures itself.
static inline void cavcodec_quiet(void) { av_log_set_level(AV_LOG_ERROR); }

#include "log.h"
#include "video.h"
#include "options.h"

#endif
