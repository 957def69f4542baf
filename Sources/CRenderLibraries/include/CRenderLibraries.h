#ifndef LAYOUTSNAP_CRENDERLIBRARIES_H
#define LAYOUTSNAP_CRENDERLIBRARIES_H
/* Cairo, Pango and the libraries beneath them, for LayoutSnapRender alone.
 *
 * They are not linked: the functions layoutsnap calls are forwarding stubs (Stubs.c) that load
 * the shared libraries on first use (Loader.c), so commands that never draw (diff, schema,
 * --version) do not pay for loading about forty shared objects at start. The declarations are
 * the system headers' own. */
#include <stddef.h>
/* Package.swift finds these headers with pkg-config; without them it still loads, and the build
 * stops here saying what to install. */
#if !__has_include(<cairo.h>) || !__has_include(<pango/pangocairo.h>)
#error "the Cairo and Pango development headers were not found: install pkg-config libcairo2-dev libpango1.0-dev (bash .ci/install does)"
#endif
#include <cairo.h>
#include <pixman.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <cairo-ft.h>
#include <fontconfig/fontconfig.h>
#include <fontconfig/fcfreetype.h>
#include <hb.h>
#include <ft2build.h>
#include FT_FREETYPE_H

/* Loads the libraries (once per process; later calls return the first result). 0 on success;
 * otherwise non-zero, with the loader's message (which library, why) in `message`. Call it
 * before the first drawing call: a stub called after a failed load ends the process. */
int layoutsnap_render_libraries_load(char *message, size_t capacity);

/* The file the dynamic loader took for library `index` (0 to layoutsnap_render_library_count()
 * - 1), as it names it, loading them first if no one has; NULL when they cannot be loaded. */
int layoutsnap_render_library_count(void);
const char *layoutsnap_render_library_file(int index);

/* The folders the dynamic loader searches for a library this executable opens, in order, as it
 * expands them (LD_LIBRARY_PATH, the run path with $ORIGIN, the system's), each ended by a NUL,
 * into `buffer`; the number of bytes needed, or -1 when the loader cannot say. Loads nothing. */
long layoutsnap_render_search_path(char *buffer, size_t capacity);

/* CAIRO_VERSION_STRING is a macro chain Swift cannot import; the run-time version is what renders. */
static inline const char *layoutsnap_cairo_version(void) { return cairo_version_string(); }
static inline const char *layoutsnap_pixman_version(void) { return pixman_version_string(); }

/* GObject cast macros and PANGO_PIXELS are macros Swift does not import: small typed helpers. */

static inline void layoutsnap_g_object_unref(void *object) { g_object_unref(object); }

static inline PangoFcFontMap *layoutsnap_as_fc_font_map(PangoFontMap *map) {
    return PANGO_FC_FONT_MAP(map);
}

static inline PangoCairoFontMap *layoutsnap_as_cairo_font_map(PangoFontMap *map) {
    return PANGO_CAIRO_FONT_MAP(map);
}

static inline double layoutsnap_pango_units_to_double(int units) {
    return (double)units / (double)PANGO_SCALE;
}

static inline int layoutsnap_pango_units_from_double(double value) {
    return pango_units_from_double(value);
}

/* FreeType has no version string without a library handle; opens one briefly (Loader.c). */
void layoutsnap_freetype_version(int *major, int *minor, int *patch);

static inline int layoutsnap_fontconfig_version(void) { return FcGetVersion(); }

/* Opens the FreeType face of `font_face` through cairo and keeps it locked for the life of the
 * process (see FontSystem.pinFaces): the scaled font and lock are deliberately never released.
 * Returns 0 with the face in `face` (cairo's: read it, never close it), or the step that failed.
 * The scaled font's size is stretched (12.25 by 12.75), a scale no text asks for: cairo sets a
 * face's size again only for a scale other than the last it set, so the first text sets it, as
 * it would without the pin. */
static inline int layoutsnap_pin_cairo_font_face(cairo_font_face_t *font_face, FT_Face *face) {
    if (cairo_font_face_status(font_face) != CAIRO_STATUS_SUCCESS) { cairo_font_face_destroy(font_face); return 1; }
    cairo_matrix_t size, identity;
    cairo_matrix_init_scale(&size, 12.25, 12.75);
    cairo_matrix_init_identity(&identity);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_scaled_font_t *scaled = cairo_scaled_font_create(font_face, &size, &identity, options);
    cairo_font_options_destroy(options);
    if (cairo_scaled_font_status(scaled) != CAIRO_STATUS_SUCCESS) return 2;
    FT_Face locked = cairo_ft_scaled_font_lock_face(scaled);
    if (locked == NULL) return 3;
    *face = locked;
    return 0;
}
/* Pins the face of the font file and index in `pattern`. */
static inline int layoutsnap_pin_cairo_ft_face(FcPattern *pattern) {
    FT_Face face;
    return layoutsnap_pin_cairo_font_face(cairo_ft_font_face_create_for_pattern(pattern), &face);
}
/* Makes cairo's font face for `pattern`, which carries a face of layoutsnap's (FC_FT_FACE), and
 * keeps it for the life of the process (see FontSystem.addFiles): cairo's font of that face is
 * then never released and made again while workers use it. Returns 0, or 1 on failure. */
static inline int layoutsnap_hold_cairo_ft_face(FcPattern *pattern) {
    cairo_font_face_t *font_face = cairo_ft_font_face_create_for_pattern(pattern);
    if (cairo_font_face_status(font_face) != CAIRO_STATUS_SUCCESS) {
        cairo_font_face_destroy(font_face);
        return 1;
    }
    return 0;
}
/* FreeType for the faces layoutsnap opens itself (FontSystem.addFiles), in Loader.c: FreeType's
 * functions are called by name there. A library opens one face at a time. */
int layoutsnap_freetype_new_library(FT_Library *library);
/* Opens face `index` of `file` in `library`, with the file's face count and whether the face is
 * variable. Returns FreeType's error, 0 on success. */
int layoutsnap_freetype_open_face(FT_Library library, const char *file, int index, FT_Face *face, int *faces,
                                  int *variable);
void layoutsnap_freetype_close_face(FT_Face face);
/* Faces opened only when cairo first makes a font of them (DeferredFaces.c): `file`'s face
 * `index` is registered, and a pattern of it without a face (FC_FT_FACE) gets one there, opened
 * from the file as it was when registered. Returns 0, or 1 when it could not be registered. */
int layoutsnap_defer_face(const char *file, int index);
/* Whether `pattern` is of a deferred face and carries no face. */
int layoutsnap_face_is_deferred(FcPattern *pattern);
/* How many deferred faces have been opened in this process. */
long layoutsnap_deferred_faces_opened(void);
/* How many deferred faces could not be opened (their file changed or gone since registered). */
long layoutsnap_deferred_faces_failed(void);
/* The file of `pattern`'s face when it is a deferred face that could not be opened, or NULL. */
const char *layoutsnap_deferred_face_failed(FcPattern *pattern);
/* The cairo scaled font behind the Pango font of a layout run, or NULL (see TextEngine's
 * pinScaledFonts). The run's font belongs to one worker's font map and is only touched by it. */
static inline cairo_scaled_font_t *layoutsnap_run_scaled_font(PangoLayoutRun *run) {
    if (run == NULL || run->item == NULL || run->item->analysis.font == NULL) return NULL;
    PangoFont *font = run->item->analysis.font;
    if (!PANGO_IS_CAIRO_FONT(font)) return NULL;
    return pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font));
}
/* The cairo scaled font `cr` draws `font` with under its current transform, with a reference for
 * the caller: what cairo_show_glyphs looks up once Pango installs `font` (cairo makes one for each
 * font and transform when the transform is not the font's own), found the same way, through the
 * context's state, saved and restored around it (see TextEngine's pinDrawnFonts). */
static inline cairo_scaled_font_t *layoutsnap_drawn_scaled_font(cairo_t *cr, cairo_scaled_font_t *font) {
    cairo_save(cr);
    cairo_set_scaled_font(cr, font);
    cairo_scaled_font_t *drawn = cairo_scaled_font_reference(cairo_get_scaled_font(cr));
    cairo_restore(cr);
    return drawn;
}
/* The fontconfig pattern of the font Pango chose for a layout run (its file, index and family),
 * or NULL: which file a family resolved to. Owned by the font. */
static inline FcPattern *layoutsnap_run_font_pattern(PangoLayoutRun *run) {
    if (run == NULL || run->item == NULL || run->item->analysis.font == NULL) return NULL;
    PangoFont *font = run->item->analysis.font;
    if (!PANGO_IS_FC_FONT(font)) return NULL;
    return pango_fc_font_get_pattern(PANGO_FC_FONT(font));
}
/* Makes `font`'s class (pangocairo's fontconfig font) work out one font's metrics at a time in
 * the whole process (FontMetrics.c), so that layouts need no lock of their own. Pango 1.50 works
 * out a font's approximate character width (line breaking's safety margin) under a process-wide,
 * unsynchronised "already computing" flag and skips it when the flag is set: with two threads
 * at it, a font kept a width of 0 for good and its lines broke differently. Pango asks every font
 * for its metrics through the class (pango_font_get_metrics), so every caller is covered, inside
 * Pango or out. Each font asked about also has its cairo scaled font passed to `pin`, under the
 * same mutex. Once per process: returns 1 when `font`'s class is covered, 0 when it is not (not
 * a pangocairo font, or a second class). */
int layoutsnap_serialize_font_metrics(PangoFont *font, void (*pin)(cairo_scaled_font_t *font));
/* Pango 1.50 matches and sorts every new font pattern of a font map on two threads it starts for
 * the purpose ("[pango] FcFontSetMatch", "[pango] FcFontSetSort"), about 250 a run, and the
 * asking worker waits for the match. With every core already a worker, those threads only add
 * thread starts, switches and waits. PangoThreads.c defines g_thread_new in the executable, which
 * the loader binds Pango's calls to before GLib's: those two run on the calling thread (the same
 * fontconfig calls, so the same fonts), any other name goes to GLib's. How many ran inline. */
long layoutsnap_pango_threads_run_inline(void);
static inline const char *layoutsnap_harfbuzz_version(void) { return hb_version_string(); }
static inline const char *layoutsnap_pango_version(void) { return pango_version_string(); }
#endif
