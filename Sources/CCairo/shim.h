#ifndef LAYOUTSNAP_CCAIRO_SHIM_H
#define LAYOUTSNAP_CCAIRO_SHIM_H
#include <cairo.h>
#include <pixman.h>

/* CAIRO_VERSION_STRING is a macro chain Swift cannot import; the run-time version is what renders. */
static inline const char *layoutsnap_cairo_version(void) { return cairo_version_string(); }
static inline const char *layoutsnap_pixman_version(void) { return pixman_version_string(); }
#endif
