#ifndef CAMCAST_CAVCODEC_LOG_H
#define CAMCAST_CAVCODEC_LOG_H
// libav*'s log (libavcodec, libavutil, and libavformat's muxers, which share libavutil's one
// process-wide callback), routed to a sink Swift gives (Encoder's LibavLog) and nowhere else:
// libavutil's default printer writes raw lines to stderr, which under systemd would put each line
// in the journal a second time beside Camcast's own.
//
// av_log calls come from any thread (an encoder's frame threads too) and in pieces: a line ends
// only with a '\n'. Each thread assembles its own line (thread-local, no lock), and a whole line is
// handed to the sink once, with the most severe level of its pieces and the name of the object
// that logged it (its AVClass item_name, without the object's address). Levels above
// AV_LOG_VERBOSE (debug, trace: per-macroblock detail) are dropped before any formatting.
//
// A thread opening an encoder can capture its warnings and errors instead (libavcodec's reason for
// a failed open is only in its log; the return code says "Invalid argument"): they are kept for the
// opener, who puts them in its error or logs them itself, so each line still appears once.
//
// All state is in function-local statics of the functions below, and a static inline function is
// one copy per object file: Swift must call them from one source file (LibavLog.swift).

typedef void (*cavcodec_log_sink)(int level, const char *component, const char *line);

struct cavcodec_log_line {
    char text[1024];
    size_t used;
    int level;
    char component[64];
};

// What a capturing thread's open logged: lines of "<level letter><text>\n", E or W.
struct cavcodec_log_capture {
    int active;
    char text[1024];
    size_t used;
};

static inline struct cavcodec_log_line *cavcodec_log_pending(void) {
    static _Thread_local struct cavcodec_log_line pending;
    return &pending;
}

static inline struct cavcodec_log_capture *cavcodec_log_captured(void) {
    static _Thread_local struct cavcodec_log_capture captured;
    return &captured;
}

static inline cavcodec_log_sink *cavcodec_log_sink_slot(void) {
    static cavcodec_log_sink sink;
    return &sink;
}

static inline void cavcodec_log_append(char *buffer, size_t capacity, size_t *used, const char *text, size_t length) {
    if (*used + 1 >= capacity) return;
    size_t room = capacity - 1 - *used;
    if (length > room) length = room;
    memcpy(buffer + *used, text, length);
    *used += length;
    buffer[*used] = 0;
}

static inline void cavcodec_log_emit(struct cavcodec_log_line *line) {
    while (line->used > 0 && (line->text[line->used - 1] == '\n' || line->text[line->used - 1] == '\r'
                              || line->text[line->used - 1] == ' ')) {
        line->text[--line->used] = 0;
    }
    if (line->used == 0) return;
    struct cavcodec_log_capture *captured = cavcodec_log_captured();
    if (captured->active && line->level <= AV_LOG_WARNING) {
        const char *mark = line->level <= AV_LOG_ERROR ? "E" : "W";
        cavcodec_log_append(captured->text, sizeof captured->text, &captured->used, mark, 1);
        cavcodec_log_append(captured->text, sizeof captured->text, &captured->used, line->text, line->used);
        cavcodec_log_append(captured->text, sizeof captured->text, &captured->used, "\n", 1);
        return;
    }
    cavcodec_log_sink sink = __atomic_load_n(cavcodec_log_sink_slot(), __ATOMIC_ACQUIRE);
    if (sink) sink(line->level, line->component, line->text);
}

static inline void cavcodec_log_callback(void *object, int level, const char *format, va_list arguments) {
    level &= 0xff;  // the bits above are a colour hint
    if (level > AV_LOG_VERBOSE) return;
    struct cavcodec_log_line *line = cavcodec_log_pending();
    if (line->used == 0) {
        const AVClass *avclass = object ? *(const AVClass **)object : 0;
        const char *name = avclass && avclass->item_name ? avclass->item_name(object) : "libav";
        snprintf(line->component, sizeof line->component, "%s", name ? name : "libav");
        line->level = level;
    } else if (level < line->level) {
        line->level = level;
    }
    // No "[name @ 0x…] " prefix (the component is named above); the state that comes back says
    // whether this piece ended the line.
    int endsLine = 0;
    char piece[512];
    va_list copy;
    va_copy(copy, arguments);
    int length = av_log_format_line2(object, level, format, copy, piece, sizeof piece, &endsLine);
    va_end(copy);
    if (length < 0) return;
    size_t written = strlen(piece);
    cavcodec_log_append(line->text, sizeof line->text, &line->used, piece, written);
    // A piece longer than `piece` was cut before its newline: end the line anyway.
    if (endsLine || (size_t)length >= sizeof piece) {
        cavcodec_log_emit(line);
        line->used = 0;
        line->text[0] = 0;
    }
}

// Routes libav*'s log to `sink` from now on (NULL: dropped).
static inline void cavcodec_log_install(cavcodec_log_sink sink) {
    __atomic_store_n(cavcodec_log_sink_slot(), sink, __ATOMIC_RELEASE);
    av_log_set_callback(cavcodec_log_callback);
}

// Starts or ends this thread's capture; the text is valid until the next capture starts.
static inline void cavcodec_log_capture_begin(void) {
    struct cavcodec_log_capture *captured = cavcodec_log_captured();
    captured->active = 1;
    captured->used = 0;
    captured->text[0] = 0;
}

static inline const char *cavcodec_log_capture_end(void) {
    struct cavcodec_log_capture *captured = cavcodec_log_captured();
    captured->active = 0;
    return captured->text;
}

#endif
