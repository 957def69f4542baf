#ifndef LAYOUTSNAP_CXXHASH_SHIM_H
#define LAYOUTSNAP_CXXHASH_SHIM_H
// Only the stable, exported API (XXH3_64bits and friends) is used; we link
// against the shared libxxhash so that the reference hash is the distribution's
// (xxhash 0.8.1 on Debian 12). CXXH3 inlines the same header with AVX2 for
// speed where the CPU has it; the values are the same.
#include <xxhash.h>
#endif
