#define _GNU_SOURCE
#include "CRenderLibraries.h"
#include "Loader.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* By soname, dependencies first: the libraries' ABI versions, the names the linker recorded when
 * it linked them (pkg-config gives the build only their include paths). */
static const char *const libraries[] = {
    "libglib-2.0.so.0", "libgobject-2.0.so.0", "libfreetype.so.6", "libfontconfig.so.1",
    "libharfbuzz.so.0", "libpixman-1.so.0", "libcairo.so.2", "libpango-1.0.so.0",
    "libpangoft2-1.0.so.0", "libpangocairo-1.0.so.0",
};
#define LIBRARY_COUNT (sizeof libraries / sizeof libraries[0])

static pthread_once_t once = PTHREAD_ONCE_INIT;
/* Written only inside `once`; read only after it (pthread_once orders the two). */
static void *symbols[LAYOUTSNAP_RENDER_SYMBOL_COUNT];
static char failure[512];
static void *handles[LIBRARY_COUNT];

static void load(void) {
    for (size_t i = 0; i < LIBRARY_COUNT; i++) {
        /* Global, as linking would have made them: later loads (fontconfig's, Pango's) see them. */
        handles[i] = dlopen(libraries[i], RTLD_NOW | RTLD_GLOBAL);
        if (handles[i] == NULL) {
            const char *why = dlerror();
            snprintf(failure, sizeof failure, "cannot load %s: %s (install the packages bash .ci/install names)",
                     libraries[i], why ? why : "unknown error");
            return;
        }
    }
    for (int s = 0; s < LAYOUTSNAP_RENDER_SYMBOL_COUNT; s++) {
        void *address = NULL;
        for (size_t i = LIBRARY_COUNT; i-- > 0 && address == NULL;) {
            address = dlsym(handles[i], layoutsnap_render_symbol_names[s]);
        }
        if (address == NULL) {
            snprintf(failure, sizeof failure, "%s is not in the loaded libraries (%s and its dependencies)",
                     layoutsnap_render_symbol_names[s], libraries[LIBRARY_COUNT - 1]);
            return;
        }
        symbols[s] = address;
    }
}

int layoutsnap_render_library_count(void) { return (int)LIBRARY_COUNT; }

const char *layoutsnap_render_library_file(int index) {
    if (index < 0 || (size_t)index >= LIBRARY_COUNT) return NULL;
    pthread_once(&once, load);
    struct link_map *map = NULL;
    if (failure[0] != 0 || handles[index] == NULL || dlinfo(handles[index], RTLD_DI_LINKMAP, &map) != 0 || map == NULL) {
        return NULL;
    }
    return map->l_name;
}

long layoutsnap_render_search_path(char *buffer, size_t capacity) {
    void *self = dlopen(NULL, RTLD_LAZY);
    if (self == NULL) return -1;
    Dl_serinfo size;
    if (dlinfo(self, RTLD_DI_SERINFOSIZE, &size) != 0) return -1;
    Dl_serinfo *info = malloc(size.dls_size);
    if (info == NULL) return -1;
    if (dlinfo(self, RTLD_DI_SERINFOSIZE, info) != 0 || dlinfo(self, RTLD_DI_SERINFO, info) != 0) {
        free(info);
        return -1;
    }
    size_t needed = 0;
    for (unsigned int i = 0; i < info->dls_cnt; i++) {
        size_t length = strlen(info->dls_serpath[i].dls_name) + 1;
        if (needed + length <= capacity) memcpy(buffer + needed, info->dls_serpath[i].dls_name, length);
        needed += length;
    }
    free(info);
    return (long)needed;
}

int layoutsnap_render_libraries_load(char *message, size_t capacity) {
    pthread_once(&once, load);
    if (failure[0] == 0) return 0;
    if (message != NULL && capacity > 0) snprintf(message, capacity, "%s", failure);
    return 1;
}

void *layoutsnap_render_symbol(int index) {
    pthread_once(&once, load);
    if (failure[0] != 0) {
        /* Only reachable when a drawing call comes before layoutsnap_render_libraries_load, which
         * reports the failure as an error: a programming error, not bad input. */
        fprintf(stderr, "layoutsnap: %s\n", failure);
        abort();
    }
    return symbols[index];
}

void *layoutsnap_render_symbol_named(const char *name) {
    for (int s = 0; s < LAYOUTSNAP_RENDER_SYMBOL_COUNT; s++) {
        if (strcmp(layoutsnap_render_symbol_names[s], name) == 0) return layoutsnap_render_symbol(s);
    }
    fprintf(stderr, "layoutsnap: %s is not in Sources/CRenderLibraries/symbols.txt\n", name);
    abort();
}

void layoutsnap_freetype_version(int *major, int *minor, int *patch) {
    FT_Library library;
    *major = *minor = *patch = 0;
    if (((__typeof__(&FT_Init_FreeType))layoutsnap_render_symbol_named("FT_Init_FreeType"))(&library) == 0) {
        ((__typeof__(&FT_Library_Version))layoutsnap_render_symbol_named("FT_Library_Version"))(library, major, minor, patch);
        ((__typeof__(&FT_Done_FreeType))layoutsnap_render_symbol_named("FT_Done_FreeType"))(library);
    }
}

int layoutsnap_freetype_new_library(FT_Library *library) {
    return ((__typeof__(&FT_Init_FreeType))layoutsnap_render_symbol_named("FT_Init_FreeType"))(library);
}

int layoutsnap_freetype_open_face(FT_Library library, const char *file, int index, FT_Face *face, int *faces,
                                  int *variable) {
    FT_Error error = ((__typeof__(&FT_New_Face))layoutsnap_render_symbol_named("FT_New_Face"))(library, file, index, face);
    if (error != 0) return (int)error;
    *faces = (int)(*face)->num_faces;
    *variable = FT_HAS_MULTIPLE_MASTERS(*face) || ((*face)->style_flags >> 16) != 0;
    return 0;
}

void layoutsnap_freetype_close_face(FT_Face face) {
    ((__typeof__(&FT_Done_Face))layoutsnap_render_symbol_named("FT_Done_Face"))(face);
}
