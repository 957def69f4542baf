/* One font's metrics worked out at a time, in the whole process (see CRenderLibraries.h). */
#include "CRenderLibraries.h"
#include <pthread.h>
#include <stdint.h>

/* Recursive: working out a font's metrics lays out a sample text, which asks for the metrics of
 * the fonts it falls back to, on the same thread. */
static pthread_mutex_t metrics_mutex;
static pthread_once_t metrics_mutex_once = PTHREAD_ONCE_INIT;
static PangoFontMetrics *(*pango_get_metrics)(PangoFont *font, PangoLanguage *language);
static void (*pin_scaled_font)(cairo_scaled_font_t *font);

/* The scaled fonts already handed to `pin_scaled_font`, so that the calls Pango makes for every
 * run of every layout cost a probe here rather than a call out and a lock. Read and written under
 * `metrics_mutex`. Twice TextEngine's limit, so it never fills before that does. */
#define SEEN_CAPACITY 8192
static cairo_scaled_font_t *seen[SEEN_CAPACITY];
static int seen_count;

static int first_sight(cairo_scaled_font_t *font) {
    if (seen_count >= SEEN_CAPACITY / 2) return 0;
    size_t slot = (size_t)(((uintptr_t)font >> 4) * 0x9E3779B97F4A7C15ull >> 40) & (SEEN_CAPACITY - 1);
    while (seen[slot] != NULL) {
        if (seen[slot] == font) return 0;
        slot = (slot + 1) & (SEEN_CAPACITY - 1);
    }
    seen[slot] = font;
    seen_count++;
    return 1;
}

static void make_metrics_mutex(void) {
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&metrics_mutex, &attributes);
    pthread_mutexattr_destroy(&attributes);
}

static PangoFontMetrics *serialized_get_metrics(PangoFont *font, PangoLanguage *language) {
    pthread_mutex_lock(&metrics_mutex);
    PangoFontMetrics *metrics = pango_get_metrics(font, language);
    /* Every font a layout measures with or asks about (its runs, an empty line's font, the
     * fallbacks of a metrics sample) passes here: its cairo scaled font is kept for good, so
     * that cairo 1.16 never destroys it while another worker looks it up (TextEngine). */
    cairo_scaled_font_t *scaled = pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font));
    if (scaled != NULL && first_sight(scaled)) pin_scaled_font(scaled);
    pthread_mutex_unlock(&metrics_mutex);
    return metrics;
}

int layoutsnap_serialize_font_metrics(PangoFont *font, void (*pin)(cairo_scaled_font_t *font)) {
    if (font == NULL || pin == NULL || !PANGO_IS_CAIRO_FONT(font)) return 0;
    pthread_once(&metrics_mutex_once, make_metrics_mutex);
    PangoFontClass *class = PANGO_FONT_GET_CLASS(font);
    int covered = 1;
    pthread_mutex_lock(&metrics_mutex);
    if (class->get_metrics != serialized_get_metrics) {
        /* One class only: every font of a pangocairo font map on Linux is its fontconfig font. */
        if (pango_get_metrics == NULL) {
            pin_scaled_font = pin;
            pango_get_metrics = class->get_metrics;
            class->get_metrics = serialized_get_metrics;
        } else {
            covered = 0;
        }
    }
    pthread_mutex_unlock(&metrics_mutex);
    return covered;
}
