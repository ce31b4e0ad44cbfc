#ifndef CAMCAST_CYUV_SHIM_H
#define CAMCAST_CYUV_SHIM_H
#include <libyuv.h>
#endif
