#ifndef CAMCAST_CALSA_SHIM_H
#define CAMCAST_CALSA_SHIM_H
// ALSA capture for AudioCapture's ALSAAudioSource (and nothing else imports this module).
#include <alsa/asoundlib.h>

// snd_pcm_hw_params_alloca and friends are macros over alloca, which Swift cannot call; these
// heap versions are what the Swift side uses (freed with the matching *_free).
static inline snd_pcm_hw_params_t *calsa_hw_params_new(void) {
    snd_pcm_hw_params_t *p = 0;
    return snd_pcm_hw_params_malloc(&p) == 0 ? p : 0;
}
static inline snd_pcm_sw_params_t *calsa_sw_params_new(void) {
    snd_pcm_sw_params_t *p = 0;
    return snd_pcm_sw_params_malloc(&p) == 0 ? p : 0;
}
static inline snd_pcm_status_t *calsa_status_new(void) {
    snd_pcm_status_t *p = 0;
    return snd_pcm_status_malloc(&p) == 0 ? p : 0;
}

// Signed 16-bit in the machine's byte order (SND_PCM_FORMAT_S16 is a macro choosing _LE or _BE).
static inline snd_pcm_format_t calsa_format_s16(void) { return SND_PCM_FORMAT_S16; }

// Silences ALSA's default error handler, which prints to stderr (the daemon logs errors itself).
static void calsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void calsa_silence_error_output(void) { snd_lib_error_set_handler(calsa_quiet_handler); }

#endif
