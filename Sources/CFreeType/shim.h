#ifndef CAMCAST_CFREETYPE_SHIM_H
#define CAMCAST_CFREETYPE_SHIM_H
// FreeType 2 (Debian: libfreetype-dev), used by the Overlay stage to rasterise the glyphs of the
// clock and text burned into the picture. FreeType's API reaches its headers through macros
// (FT_FREETYPE_H); the shim names them so Swift sees the declarations.
#include <ft2build.h>
#include FT_FREETYPE_H

// FT_LOAD_RENDER and FT_LOAD_DEFAULT are macros with casts Swift cannot import.
static inline FT_Int32 cft_load_render(void) { return FT_LOAD_RENDER; }
#endif
