#ifndef LAYOUTSNAP_CXXHASH_SHIM_H
#define LAYOUTSNAP_CXXHASH_SHIM_H
// Only the stable, exported API (XXH3_64bits and friends) is used; we link
// against the shared libxxhash rather than XXH_INLINE_ALL so that the hash
// implementation is the distribution's (xxhash 0.8.1 on Debian 12).
#include <xxhash.h>
#endif
