#ifndef CAMCAST_CAVCODEC_VIDEO_H
#define CAMCAST_CAVCODEC_VIDEO_H
// The video half of the CAVCodec shim: what Encoder's AVCodecEncoder needs to look up, open and
// feed a named libavcodec H.264/H.265 encoder with software frames (I420 or NV12).

// The codec an encoder name encodes, as Camcast knows them.
enum { CAVCODEC_OTHER = 0, CAVCODEC_H264 = 1, CAVCODEC_HEVC = 2 };

static inline int cavcodec_codec_kind(enum AVCodecID id) {
    return id == AV_CODEC_ID_H264 ? CAVCODEC_H264 : id == AV_CODEC_ID_HEVC ? CAVCODEC_HEVC : CAVCODEC_OTHER;
}

// What libavcodec says of an encoder name: whether it exists as an encoder, the codec it makes,
// and whether it takes planar I420 (yuv420p) and NV12 software frames. An encoder that lists no
// formats (v4l2m2m: the device decides) is taken to accept both.
struct cavcodec_encoder_info {
    int found;
    int codec;
    int takes_i420;
    int takes_nv12;
};

static inline struct cavcodec_encoder_info cavcodec_encoder_lookup(const char *name) {
    struct cavcodec_encoder_info info = {0, CAVCODEC_OTHER, 0, 0};
    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    if (!codec) return info;
    info.found = 1;
    info.codec = codec->type == AVMEDIA_TYPE_VIDEO ? cavcodec_codec_kind(codec->id) : CAVCODEC_OTHER;
    if (!codec->pix_fmts) {
        info.takes_i420 = info.takes_nv12 = 1;
        return info;
    }
    for (const enum AVPixelFormat *format = codec->pix_fmts; *format != AV_PIX_FMT_NONE; format++) {
        if (*format == AV_PIX_FMT_YUV420P) info.takes_i420 = 1;
        if (*format == AV_PIX_FMT_NV12) info.takes_nv12 = 1;
    }
    return info;
}

// The next H.264 or H.265 encoder libavcodec has (its name, and its kind in *codec), or NULL at the
// end; *iterator starts NULL.
static inline const char *cavcodec_next_video_encoder(void **iterator, int *codec) {
    const AVCodec *next;
    while ((next = av_codec_iterate(iterator))) {
        int kind = cavcodec_codec_kind(next->id);
        if (av_codec_is_encoder(next) && kind != CAVCODEC_OTHER) {
            *codec = kind;
            return next->name;
        }
    }
    return 0;
}

// Everything an open takes from EncoderSettings; strings may be NULL (not set).
struct cavcodec_video_settings {
    int width, height, fps_num, fps_den, nv12;
    int64_t bit_rate, max_rate, buffer_size;
    int gop_size, keyint_min, max_b_frames, thread_count, profile, level, scene_cut, lookahead;
    const char *preset, *tune, *profile_name, *coder;
};

// A private option of the encoder (libx264's preset, tune, profile, forced-idr...), if it has it:
// options that an encoder does not have, or whose value it does not know, are left unset.
static inline void cavcodec_try_option(AVCodecContext *context, const char *key, const char *value) {
    if (value && context->priv_data) av_opt_set(context->priv_data, key, value, 0);
}

static inline void cavcodec_try_int_option(AVCodecContext *context, const char *key, int64_t value) {
    if (context->priv_data) av_opt_set_int(context->priv_data, key, value, 0);
}

// A context of encoder `name` set up for software frames with timestamps in milliseconds and the
// stream headers in extradata (AV_CODEC_FLAG_GLOBAL_HEADER), not open yet; NULL if there is no such
// encoder or no memory. Options it does not have are skipped, values it does not know may be logged.
static inline AVCodecContext *cavcodec_video_context_new(const char *name, const struct cavcodec_video_settings *s) {
    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    if (!codec) return 0;
    AVCodecContext *context = avcodec_alloc_context3(codec);
    if (!context) return 0;
    context->width = s->width;
    context->height = s->height;
    context->pix_fmt = s->nv12 ? AV_PIX_FMT_NV12 : AV_PIX_FMT_YUV420P;
    context->time_base = (AVRational){1, 1000};
    context->framerate = (AVRational){s->fps_num, s->fps_den};
    context->bit_rate = s->bit_rate;
    context->rc_max_rate = s->max_rate;
    context->rc_buffer_size = (int)s->buffer_size;
    context->gop_size = s->gop_size;
    context->keyint_min = s->keyint_min;
    context->max_b_frames = s->max_b_frames;
    context->thread_count = s->thread_count;
    if (s->profile > 0) context->profile = s->profile;
    if (s->level > 0) context->level = s->level;
    context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    cavcodec_try_option(context, "preset", s->preset);
    cavcodec_try_option(context, "tune", s->tune);
    cavcodec_try_option(context, "profile", s->profile_name);
    cavcodec_try_option(context, "coder", s->coder);
    if (s->lookahead >= 0) cavcodec_try_int_option(context, "rc-lookahead", s->lookahead);
    // An I picture asked for through pict_type becomes an IDR, not a recovery-point I frame;
    // libx265 also needs a closed GOP for that (with its default open GOP a forced IDR comes out
    // as a CRA), as the x265 backend runs it.
    cavcodec_try_int_option(context, "forced-idr", 1);
    cavcodec_try_option(context, "x265-params", "open-gop=0");
    if (!s->scene_cut) av_opt_set_int(context, "sc_threshold", 0, AV_OPT_SEARCH_CHILDREN);
    return context;
}

// Opens a context from cavcodec_video_context_new with `options` (encoder.options; what it did not
// use is left in it): 0, or a negative AVERROR after freeing the context.
static inline int cavcodec_open_video(AVCodecContext **context, AVDictionary **options) {
    int err = avcodec_open2(*context, (*context)->codec, options);
    if (err < 0) avcodec_free_context(context);
    return err;
}

// A writable picture in the context's format and size, or NULL.
static inline AVFrame *cavcodec_video_frame_new(const AVCodecContext *context) {
    AVFrame *frame = av_frame_alloc();
    if (!frame) return 0;
    frame->format = context->pix_fmt;
    frame->width = context->width;
    frame->height = context->height;
    if (av_frame_get_buffer(frame, 0) < 0) av_frame_free(&frame);
    return frame;
}

static inline uint8_t *cavcodec_frame_data(AVFrame *frame, int plane) { return frame->data[plane]; }
static inline int cavcodec_frame_linesize(const AVFrame *frame, int plane) { return frame->linesize[plane]; }

// Marks the frame as one to encode as an IDR (with forced-idr) or lets the encoder choose.
static inline void cavcodec_frame_set_picture(AVFrame *frame, int64_t pts, int force_key) {
    frame->pts = pts;
    frame->pict_type = force_key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
}

static inline int cavcodec_packet_is_key(const AVPacket *packet) { return (packet->flags & AV_PKT_FLAG_KEY) != 0; }

// Changes the average rate (and the VBV peak and buffer) an open context reports; an encoder that
// reads them per frame (libx264) applies them from the next picture on.
static inline void cavcodec_set_rate(AVCodecContext *context, int64_t bit_rate, int64_t max_rate, int64_t buffer_size) {
    context->bit_rate = bit_rate;
    context->rc_max_rate = max_rate;
    context->rc_buffer_size = (int)buffer_size;
}

#endif
