/* One font's metrics worked out at a time, in the whole process (see CRenderLibraries.h). */
#include "CRenderLibraries.h"
#include <pthread.h>

/* Recursive: working out a font's metrics lays out a sample text, which asks for the metrics of
 * the fonts it falls back to, on the same thread. */
static pthread_mutex_t metrics_mutex;
static pthread_once_t metrics_mutex_once = PTHREAD_ONCE_INIT;
static PangoFontMetrics *(*pango_get_metrics)(PangoFont *font, PangoLanguage *language);

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
    pthread_mutex_unlock(&metrics_mutex);
    return metrics;
}

int layoutsnap_serialize_font_metrics(PangoFont *font) {
    if (font == NULL) return 0;
    pthread_once(&metrics_mutex_once, make_metrics_mutex);
    PangoFontClass *class = PANGO_FONT_GET_CLASS(font);
    int covered = 1;
    pthread_mutex_lock(&metrics_mutex);
    if (class->get_metrics != serialized_get_metrics) {
        /* One original only: every font layoutsnap meets is pangocairo's fontconfig font. */
        if (pango_get_metrics == NULL) {
            pango_get_metrics = class->get_metrics;
            class->get_metrics = serialized_get_metrics;
        } else {
            covered = 0;
        }
    }
    pthread_mutex_unlock(&metrics_mutex);
    return covered;
}
