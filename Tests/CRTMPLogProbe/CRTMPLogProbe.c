#include "CRTMPLogProbe.h"
#include <librtmp/log.h>

void crtmp_probe_log_string(int level, const char *format, const char *argument) {
    RTMP_Log((RTMP_LogLevel)level, format, argument);
}
