/* Faces opened when cairo first makes a font of them (see FontSystem.addFiles). */
#define _GNU_SOURCE
#include "CRenderLibraries.h"
#include "Loader.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    char *file;
    int index;
    /* The file as it was registered: a face is opened only from that file. */
    struct stat registered;
    FT_Face face;
    int failed;
} deferred_face;

static pthread_mutex_t deferred_lock = PTHREAD_MUTEX_INITIALIZER;
static deferred_face *deferred;
static int deferred_count, deferred_capacity;
/* The faces opened here share one library: FreeType asks only that faces be opened one at a
 * time in it (the lock), and cairo uses each face under its own lock. */
static FT_Library deferred_library;
static atomic_long deferred_opened, deferred_failed;

typedef cairo_font_face_t *(*create_for_pattern)(FcPattern *);

/* Cairo's own function (the loader finds it in libcairo by its handle, never this one). */
static create_for_pattern cairos_own(void) {
    static _Atomic(create_for_pattern) found;
    create_for_pattern own = atomic_load(&found);
    if (own == NULL) {
        own = (create_for_pattern)layoutsnap_render_symbol_named("cairo_ft_font_face_create_for_pattern");
        atomic_store(&found, own);
    }
    return own;
}

/* The entry of `file` and `index`, or NULL; under the lock. */
static deferred_face *find(const char *file, int index) {
    for (int i = 0; i < deferred_count; i++) {
        if (deferred[i].index == index && strcmp(deferred[i].file, file) == 0) return &deferred[i];
    }
    return NULL;
}

static int same_file(const struct stat *a, const struct stat *b) {
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* Adds an entry; under the lock. Returns 0, or 1 when it could not. */
static int add(const char *file, int index) {
    struct stat registered;
    if (stat(file, &registered) != 0) return 1;
    if (deferred_count == deferred_capacity) {
        int capacity = deferred_capacity == 0 ? 32 : deferred_capacity * 2;
        deferred_face *grown = realloc(deferred, sizeof(deferred_face) * (size_t)capacity);
        if (grown == NULL) return 1;
        deferred = grown;
        deferred_capacity = capacity;
    }
    char *copy = strdup(file);
    if (copy == NULL) return 1;
    deferred[deferred_count++] = (deferred_face){copy, index, registered, NULL, 0};
    return 0;
}

int layoutsnap_defer_face(const char *file, int index) {
    pthread_mutex_lock(&deferred_lock);
    int result = find(file, index) == NULL ? add(file, index) : 0;
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

long layoutsnap_deferred_faces_failed(void) { return atomic_load(&deferred_failed); }

const char *layoutsnap_deferred_face_failed(FcPattern *pattern) {
    FcChar8 *file;
    int index;
    if (FcPatternGetString(pattern, FC_FILE, 0, &file) != FcResultMatch) return NULL;
    if (FcPatternGetInteger(pattern, FC_INDEX, 0, &index) != FcResultMatch) index = 0;
    pthread_mutex_lock(&deferred_lock);
    deferred_face *entry = find((const char *)file, index);
    const char *failed = entry != NULL && entry->failed ? entry->file : NULL;
    pthread_mutex_unlock(&deferred_lock);
    return failed;
}

/* Opens `entry`'s face and holds cairo's first font face of it; under the lock. Returns 0, or 1
 * when the file is not the one registered or cannot be opened. */
static int open_entry(deferred_face *entry, FcPattern *pattern) {
    struct stat now;
    if (stat(entry->file, &now) != 0 || !same_file(&now, &entry->registered)) return 1;
    if (deferred_library == NULL && layoutsnap_freetype_new_library(&deferred_library) != 0) return 1;
    int faces, variable;
    FT_Face face = NULL;
    if (layoutsnap_freetype_open_face(deferred_library, entry->file, entry->index, &face, &faces, &variable) != 0) {
        return 1;
    }
    FcPattern *held = FcPatternDuplicate(pattern);
    if (held == NULL || !FcPatternAddFTFace(held, FC_FT_FACE, face)) {
        if (held != NULL) FcPatternDestroy(held);
        layoutsnap_freetype_close_face(face);
        return 1;
    }
    /* Never destroyed: cairo's font of the face is then never released and made again. */
    cairo_font_face_t *font_face = cairos_own()(held);
    FcPatternDestroy(held);
    if (cairo_font_face_status(font_face) != CAIRO_STATUS_SUCCESS) {
        cairo_font_face_destroy(font_face);
        layoutsnap_freetype_close_face(face);
        return 1;
    }
    entry->face = face;
    atomic_fetch_add(&deferred_opened, 1);
    return 0;
}

/* Exported (with g_thread_new, Package.swift), so that Pango's calls bind here. A pattern of a
 * deferred face gets the face, opened here the first time and kept for the life of the process,
 * as FontSystem's own faces are: cairo then makes its font from that face and never opens the
 * file itself. The first font face of each is held for good (layoutsnap_hold_cairo_ft_face's
 * reason), made under the lock, so no worker sees the face before it is held. The lock is held
 * while a face is opened, which keeps a second worker from opening it again meanwhile. */
cairo_font_face_t *cairo_ft_font_face_create_for_pattern(FcPattern *pattern) {
    FcChar8 *file;
    int index;
    if (!deferred_of(pattern, &file, &index)) return cairos_own()(pattern);
    pthread_mutex_lock(&deferred_lock);
    deferred_face *entry = find((const char *)file, index);
    if (entry->face == NULL && !entry->failed && open_entry(entry, pattern) != 0) {
        /* A file changed or gone since the set-up: a layout that uses the face is an error
         * (TextEngine), as a set-up that cannot open a face is. Cairo draws from the file
         * meanwhile, its face pinned (FontSystem.pinFaces' reason), so no worker races on it. */
        entry->failed = 1;
        atomic_fetch_add(&deferred_failed, 1);
        FT_Face pinned;
        layoutsnap_pin_cairo_font_face(cairos_own()(pattern), &pinned);
    }
    FT_Face face = entry->face;
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
