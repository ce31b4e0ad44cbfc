#ifndef CAMCAST_CSWRESAMPLE_SHIM_H
#define CAMCAST_CSWRESAMPLE_SHIM_H
// libswresample, for a WAV file whose sample format, rate or channel count differs from the configured format
// (AudioCapture's WAV source only).
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>

// Opens a converter from interleaved `in_format` samples (an AVSampleFormat, packed) at
// (in_rate, in_channels) to interleaved S16 at (out_rate, out_channels), with the default channel
// layouts for those counts. Returns 0 or a negative AVERROR, with *out set on success.
static inline int cswr_open(SwrContext **out, int in_format, int in_rate, int in_channels, int out_rate, int out_channels) {
    AVChannelLayout in_layout, out_layout;
    av_channel_layout_default(&in_layout, in_channels);
    av_channel_layout_default(&out_layout, out_channels);
    SwrContext *swr = 0;
    int err = swr_alloc_set_opts2(&swr, &out_layout, AV_SAMPLE_FMT_S16, out_rate, &in_layout,
                                  (enum AVSampleFormat)in_format, in_rate, 0, 0);
    av_channel_layout_uninit(&in_layout);
    av_channel_layout_uninit(&out_layout);
    if (err < 0) return err;
    err = swr_init(swr);
    if (err < 0) {
        swr_free(&swr);
        return err;
    }
    *out = swr;
    return 0;
}

// Converts `in_count` interleaved frames; writes at most `out_capacity` frames, returns how many
// (or a negative AVERROR). Interleaved samples are one plane, which spares Swift the pointer arrays.
static inline int cswr_convert(SwrContext *swr, int16_t *out, int out_capacity, const void *in, int in_count) {
    uint8_t *out_planes[1] = {(uint8_t *)out};
    const uint8_t *in_planes[1] = {(const uint8_t *)in};
    return swr_convert(swr, out_planes, out_capacity, in_count > 0 ? in_planes : 0, in_count);
}

static inline void cswr_close(SwrContext *swr) { swr_free(&swr); }

// av_err2str is a macro over a compound literal; this fills a caller's buffer instead.
static inline void cswr_error_text(int code, char *buffer, size_t size) { av_strerror(code, buffer, size); }

#endif
