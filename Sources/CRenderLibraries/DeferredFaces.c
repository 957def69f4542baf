/* Faces opened when cairo first makes a font of them (see FontSystem.addFiles). */
#define _GNU_SOURCE
#include "CRenderLibraries.h"
#include "Loader.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *file;
    int index;
    FT_Face face;
    int failed;
} deferred_face;

static pthread_mutex_t deferred_lock = PTHREAD_MUTEX_INITIALIZER;
static deferred_face *deferred;
static int deferred_count, deferred_capacity;
/* The faces opened here share one library: FreeType asks only that faces be opened one at a
 * time in it (the lock), and cairo uses each face under its own lock. */
static FT_Library deferred_library;
static atomic_long deferred_opened;

typedef cairo_font_face_t *(*create_for_pattern)(FcPattern *);

static create_for_pattern cairos_own(void) {
    return (create_for_pattern)layoutsnap_render_symbol_named("cairo_ft_font_face_create_for_pattern");
}

/* The entry of `file` and `index`, or NULL; under the lock. */
static deferred_face *find(const char *file, int index) {
    for (int i = 0; i < deferred_count; i++) {
        if (deferred[i].index == index && strcmp(deferred[i].file, file) == 0) return &deferred[i];
    }
    return NULL;
}

int layoutsnap_defer_face(const char *file, int index) {
    pthread_mutex_lock(&deferred_lock);
    int result = 0;
    if (find(file, index) == NULL) {
        if (deferred_count == deferred_capacity) {
            int capacity = deferred_capacity == 0 ? 32 : deferred_capacity * 2;
            deferred_face *grown = realloc(deferred, sizeof(deferred_face) * (size_t)capacity);
            if (grown == NULL) {
                result = 1;
                goto done;
            }
            deferred = grown;
            deferred_capacity = capacity;
        }
        char *copy = strdup(file);
        if (copy == NULL) {
            result = 1;
            goto done;
        }
        deferred[deferred_count++] = (deferred_face){copy, index, NULL, 0};
    }
done:
    pthread_mutex_unlock(&deferred_lock);
    return result;
}

/* The file and index of `pattern` when its face is one of those deferred and it carries none. */
static int deferred_of(FcPattern *pattern, FcChar8 **file, int *index) {
    FT_Face given;
    if (FcPatternGetFTFace(pattern, FC_FT_FACE, 0, &given) == FcResultMatch) return 0;
    if (FcPatternGetString(pattern, FC_FILE, 0, file) != FcResultMatch) return 0;
    if (FcPatternGetInteger(pattern, FC_INDEX, 0, index) != FcResultMatch) *index = 0;
    pthread_mutex_lock(&deferred_lock);
    int found = find((const char *)*file, *index) != NULL;
    pthread_mutex_unlock(&deferred_lock);
    return found;
}

int layoutsnap_face_is_deferred(FcPattern *pattern) {
    FcChar8 *file;
    int index;
    return deferred_of(pattern, &file, &index);
}

long layoutsnap_deferred_faces_opened(void) { return atomic_load(&deferred_opened); }

/* Exported (with g_thread_new, Package.swift), so that Pango's calls bind here. A pattern of a
 * deferred face gets the face, opened here the first time and kept for the life of the process,
 * as FontSystem's own faces are: cairo then makes its font from that face and never opens the
 * file itself. The first font face of each is held for good (layoutsnap_hold_cairo_ft_face's
 * reason), made under the lock, so no worker sees the face before it is held. */
cairo_font_face_t *cairo_ft_font_face_create_for_pattern(FcPattern *pattern) {
    FcChar8 *file;
    int index;
    if (!deferred_of(pattern, &file, &index)) return cairos_own()(pattern);
    FT_Face face = NULL;
    pthread_mutex_lock(&deferred_lock);
    deferred_face *entry = find((const char *)file, index);
    if (entry->face == NULL && !entry->failed) {
        int faces, variable;
        FT_Face opened = NULL;
        FcPattern *held = NULL;
        if ((deferred_library != NULL || layoutsnap_freetype_new_library(&deferred_library) == 0) &&
            layoutsnap_freetype_open_face(deferred_library, entry->file, index, &opened, &faces, &variable) == 0 &&
            (held = FcPatternDuplicate(pattern)) != NULL && FcPatternAddFTFace(held, FC_FT_FACE, opened)) {
            cairo_font_face_t *font_face = cairos_own()(held);
            if (cairo_font_face_status(font_face) == CAIRO_STATUS_SUCCESS) {
                entry->face = opened;
                atomic_fetch_add(&deferred_opened, 1);
            } else {
                cairo_font_face_destroy(font_face);
            }
        }
        if (held != NULL) FcPatternDestroy(held);
        if (entry->face == NULL) {
            /* Cairo opens the file itself, as it would without layoutsnap. */
            entry->failed = 1;
            if (opened != NULL) layoutsnap_freetype_close_face(opened);
        }
    }
    face = entry->face;
    pthread_mutex_unlock(&deferred_lock);
    if (face == NULL) return cairos_own()(pattern);
    FcPattern *with = FcPatternDuplicate(pattern);
    if (with == NULL || !FcPatternAddFTFace(with, FC_FT_FACE, face)) {
        if (with != NULL) FcPatternDestroy(with);
        return cairos_own()(pattern);
    }
    cairo_font_face_t *font_face = cairos_own()(with);
    FcPatternDestroy(with);
    return font_face;
}
