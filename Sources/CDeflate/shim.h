#ifndef LAYOUTSNAP_CDEFLATE_SHIM_H
#define LAYOUTSNAP_CDEFLATE_SHIM_H
/* libdeflate: whole-buffer DEFLATE, several times faster than zlib at the same ratio. Used for
   writing PNGs; reading keeps zlib's streaming inflate, which any PNG needs. */
#include <libdeflate.h>
#endif
