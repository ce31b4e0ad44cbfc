#ifndef CAMCAST_CAVCODEC_OPTIONS_H
#define CAMCAST_CAVCODEC_OPTIONS_H
// `encoder.options`: the option names an encoder has, asked of its classes without opening it
// (AV_OPT_SEARCH_FAKE_OBJ: no context, no device), and whether it takes a value (on a context that
// is made and freed, never opened). What avcodec_open2 sets from its dictionary: AVCodecContext's
// own options, then the encoder's private ones (priv_class), as ffmpeg's `-preset p4` reaches them.

// The options a video encoder reads: AVCodecContext's that are for encoding video (not "ar" or
// a decoder's "skip_frame"), and all of the encoder's own.
static inline int cavcodec_option_is_for_video_encoding(const AVOption *option, int own) {
    int wanted = own ? AV_OPT_FLAG_ENCODING_PARAM : AV_OPT_FLAG_ENCODING_PARAM | AV_OPT_FLAG_VIDEO_PARAM;
    return option->type != AV_OPT_TYPE_CONST && (option->flags & wanted) == wanted;
}

// Whether encoder `name` has option `key` (a named constant of another option is not one).
static inline int cavcodec_encoder_has_option(const char *name, const char *key) {
    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    if (!codec) return 0;
    const AVClass *context_class = avcodec_get_class();
    const AVOption *found = av_opt_find((void *)&context_class, key, 0, 0, AV_OPT_SEARCH_FAKE_OBJ);
    if (found && cavcodec_option_is_for_video_encoding(found, 0)) return 1;
    if (!codec->priv_class) return 0;
    found = av_opt_find((void *)&codec->priv_class, key, 0, 0, AV_OPT_SEARCH_FAKE_OBJ);
    return found && cavcodec_option_is_for_video_encoding(found, 1);
}

// The next option name encoder `name` has, AVCodecContext's first, then its own; NULL at the end.
// *previous and *own start 0.
static inline const char *cavcodec_next_encoder_option(const char *name, const AVOption **previous, int *own) {
    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    if (!codec) return 0;
    const AVClass *context_class = avcodec_get_class();
    for (;;) {
        if (*own && !codec->priv_class) return 0;
        const void *object = *own ? (const void *)&codec->priv_class : (const void *)&context_class;
        const AVOption *next = av_opt_next(object, *previous);
        *previous = next;
        if (!next) {
            if (*own) return 0;
            *own = 1;
            continue;
        }
        if (cavcodec_option_is_for_video_encoding(next, *own)) return next->name;
    }
}

// 0 if encoder `name` takes `value` for `key`, else a negative AVERROR.
static inline int cavcodec_encoder_option_check(const char *name, const char *key, const char *value) {
    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    AVCodecContext *context = avcodec_alloc_context3(codec);
    if (!context) return AVERROR(ENOMEM);
    int err = av_opt_set(context, key, value, AV_OPT_SEARCH_CHILDREN);
    avcodec_free_context(&context);
    return err;
}

// The dictionary avcodec_open2 takes; entries it did not use are left in it.
static inline int cavcodec_dictionary_set(AVDictionary **dictionary, const char *key, const char *value) {
    return av_dict_set(dictionary, key, value, 0);
}

// The next entry's key after `previous` (NULL: the first), or NULL.
static inline const char *cavcodec_dictionary_next_key(const AVDictionary *dictionary, const AVDictionaryEntry **previous) {
    const AVDictionaryEntry *entry = av_dict_get(dictionary, "", *previous, AV_DICT_IGNORE_SUFFIX);
    *previous = entry;
    return entry ? entry->key : 0;
}

static inline void cavcodec_dictionary_free(AVDictionary **dictionary) { av_dict_free(dictionary); }

#endif
