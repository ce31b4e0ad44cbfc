#ifndef CAMCAST_CRTMP_LOG_PROBE_H
#define CAMCAST_CRTMP_LOG_PROBE_H

/* One line through librtmp's own RTMP_Log (its level check, then the installed callback), with one
 * string argument: lets RTMPTests exercise Camcast's log trampoline as librtmp's code reaches it.
 * Test-only, so the product carries no such entry point; Swift cannot call the variadic RTMP_Log. */
void crtmp_probe_log_string(int level, const char *format, const char *argument);

#endif
