#ifndef LAYOUTSNAP_RENDER_LOADER_H
#define LAYOUTSNAP_RENDER_LOADER_H
/* Between the generated stubs and the loader; not part of the module's public header. */

#define LAYOUTSNAP_RENDER_SYMBOL_COUNT 187

/* Hidden, whatever the link exports: an exported `g_free` would be bound by the libraries
 * themselves once loaded, in place of their own. */
#define LAYOUTSNAP_STUB __attribute__((visibility("hidden")))

extern const char *const layoutsnap_render_symbol_names[LAYOUTSNAP_RENDER_SYMBOL_COUNT];

/* The address of symbol `index` of layoutsnap_render_symbol_names, loading the libraries first
 * if no one has yet. Ends the process with a message if they cannot be loaded. */
LAYOUTSNAP_STUB void *layoutsnap_render_symbol(int index);

/* The same, by name (for the few functions a header declares visible by attribute, which a
 * hidden stub may not redefine). Ends the process if the name is not in the list. */
LAYOUTSNAP_STUB void *layoutsnap_render_symbol_named(const char *name);
#endif
