#ifndef CAMCAST_CTURBOJPEG_SHIM_H
#define CAMCAST_CTURBOJPEG_SHIM_H
// libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev), used to decode MJPEG camera frames.
// Its functions have fixed signatures, so Swift calls them directly; only the header is needed.
#include <turbojpeg.h>
#endif
