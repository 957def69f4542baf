#ifndef LAYOUTSNAP_CZLIB_SHIM_H
#define LAYOUTSNAP_CZLIB_SHIM_H
#include <zlib.h>
#endif
