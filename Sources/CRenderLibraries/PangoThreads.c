/* Pango's font pattern threads, run on the thread that asks (see CRenderLibraries.h). */
#define _GNU_SOURCE
#include "CRenderLibraries.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

static GThread *(*glib_thread_new)(const gchar *name, GThreadFunc func, gpointer data);
static pthread_once_t glib_found = PTHREAD_ONCE_INIT;
static atomic_long run_inline;

static void find_glib(void) {
    /* GLib's own, by its handle: the libraries are loaded before Pango can call here. */
    void *glib = dlopen("libglib-2.0.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (glib != NULL) glib_thread_new = (__typeof__(glib_thread_new))dlsym(glib, "g_thread_new");
}

/* Exported by name (Package.swift), so the dynamic loader binds Pango's calls here before
 * GLib's. */
GThread *g_thread_new(const gchar *name, GThreadFunc func, gpointer data) {
    /* Only the Pango whose source was read for it (1.50): a later one might join them. */
    if (name != NULL && strncmp(name, "[pango] FcFontSet", 17) == 0 && pango_version() / 100 == 150) {
        atomic_fetch_add_explicit(&run_inline, 1, memory_order_relaxed);
        func(data);
        /* The caller unrefs the thread it is given: a reference to this one balances it. */
        return g_thread_ref(g_thread_self());
    }
    pthread_once(&glib_found, find_glib);
    if (glib_thread_new == NULL) {
        /* Only a library that uses GLib calls here, and GLib is loaded before it. */
        fprintf(stderr, "layoutsnap: g_thread_new called before GLib was loaded\n");
        abort();
    }
    return glib_thread_new(name, func, data);
}

long layoutsnap_pango_threads_run_inline(void) { return atomic_load_explicit(&run_inline, memory_order_relaxed); }
