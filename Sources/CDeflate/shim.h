#ifndef LAYOUTSNAP_CDEFLATE_SHIM_H
#define LAYOUTSNAP_CDEFLATE_SHIM_H
/* libdeflate: whole-buffer DEFLATE, several times faster than zlib at the same ratio. Used for
   writing PNGs, and for reading them when the IDAT stream is whole and well formed; zlib's
   streaming inflate reads the rest and names what is wrong. */
#include <libdeflate.h>
#endif
