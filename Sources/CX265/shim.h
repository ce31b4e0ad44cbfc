#ifndef CAMCAST_CX265_SHIM_H
#define CAMCAST_CX265_SHIM_H
// x265.h needs the fixed-width integer types declared before it.
#include <stdint.h>
#include <x265.h>

// x265_encoder_open is a macro that pastes X265_BUILD into the symbol name
// (x265_encoder_open_199), so Swift cannot call it; this wrapper can.
static inline x265_encoder *cx265_encoder_open(x265_param *param) {
    return x265_encoder_open(param);
}

static inline int cx265_build(void) { return X265_BUILD; }

// x265_preset_names is a static array in the header (imported as a tuple); index it here.
// Returns NULL past the last name.
static inline const char *cx265_preset_name(int index) {
    if (index < 0) return 0;
    for (int i = 0; i <= index; i++) {
        if (x265_preset_names[i] == 0) return 0;
    }
    return x265_preset_names[index];
}

#endif
