#ifndef CAMCAST_CX264_SHIM_H
#define CAMCAST_CX264_SHIM_H
// x264.h needs the fixed-width integer types declared before it, and pf_log takes a va_list.
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <x264.h>

// x264_encoder_open is a macro that pastes X264_BUILD into the symbol name
// (x264_encoder_open_164), so Swift cannot call it; this wrapper can.
static inline x264_t *cx264_encoder_open(x264_param_t *param) {
    return x264_encoder_open(param);
}

static inline int cx264_build(void) { return X264_BUILD; }

// x264_preset_names is a static array in the header (imported as a tuple); index it here.
// Returns NULL past the last name.
static inline const char *cx264_preset_name(int index) {
    if (index < 0) return 0;
    for (int i = 0; i <= index; i++) {
        if (x264_preset_names[i] == 0) return 0;
    }
    return x264_preset_names[index];
}

// x264_levels has no declared length (it ends with level_idc 0): Swift cannot index it.
// Returns 0 past the last level.
static inline int cx264_level_idc(int index) {
    if (index < 0) return 0;
    for (int i = 0; i <= index; i++) {
        if (x264_levels[i].level_idc == 0) return 0;
    }
    return x264_levels[index].level_idc;
}

// x264's log hook takes a va_list, which Swift cannot build or consume. The trampoline below
// formats the message in C and hands a plain string to `callback`, with the caller's context.
typedef void (*cx264_log_callback)(void *context, int level, const char *message);

typedef struct cx264_log_sink {
    cx264_log_callback callback;
    void *context;
} cx264_log_sink;

static void cx264_log_trampoline(void *private_data, int level, const char *format, va_list args) {
    const cx264_log_sink *sink = (const cx264_log_sink *)private_data;
    if (sink == 0 || sink->callback == 0) return;
    char message[1024];
    vsnprintf(message, sizeof message, format, args);
    sink->callback(sink->context, level, message);
}

// Routes the encoder's log through `sink`, which must outlive the encoder opened with `param`.
static inline void cx264_param_set_log_sink(x264_param_t *param, cx264_log_sink *sink, int level) {
    param->pf_log = cx264_log_trampoline;
    param->p_log_private = sink;
    param->i_log_level = level;
}

#endif
