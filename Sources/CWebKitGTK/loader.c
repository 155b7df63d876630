/* CWebKitGTK: What the dynamic loader spends its time on as a WebKit process starts. */
#define _GNU_SOURCE
#include "CWebKitGTK.h"

#include <dlfcn.h>
#include <elf.h>
#include <glib.h>
#include <link.h>
#include <string.h>
#include <webkit2/webkit2.h>

#if __ELF_NATIVE_CLASS == 64
#define RELOCATION_SYMBOL ELF64_R_SYM
#define SYMBOL_BINDING ELF64_ST_BIND
#define SYMBOL_VISIBILITY ELF64_ST_VISIBILITY
#else
#define RELOCATION_SYMBOL ELF32_R_SYM
#define SYMBOL_BINDING ELF32_ST_BIND
#define SYMBOL_VISIBILITY ELF32_ST_VISIBILITY
#endif

/* A loaded object: where it is, what it is called, what it needs, and its place in the load order. */
typedef struct {
    const char *path;
    ElfW(Addr) base;
    const ElfW(Dyn) *dynamic;
    const char *strings;
    const char *soname;
    size_t position;
    bool needed_by_webkit;
} LoadedObject;

/* An address from the dynamic section: glibc has made them absolute on most machines, not on all. */
static ElfW(Addr) absolute(const LoadedObject *object, ElfW(Addr) address) {
    return address < object->base ? address + object->base : address;
}

static ElfW(Addr) dynamic_value(const LoadedObject *object, ElfW(Sxword) tag) {
    for (const ElfW(Dyn) *entry = object->dynamic; entry->d_tag != DT_NULL; entry++)
        if (entry->d_tag == tag)
            return entry->d_un.d_val;
    return 0;
}

static int collect(struct dl_phdr_info *info, size_t info_size, void *data) {
    (void)info_size;
    GArray *objects = data;
    LoadedObject object = {.path = info->dlpi_name, .base = info->dlpi_addr, .position = objects->len};
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++)
        if (info->dlpi_phdr[index].p_type == PT_DYNAMIC)
            object.dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[index].p_vaddr);
    if (object.dynamic) {
        ElfW(Addr) strings = dynamic_value(&object, DT_STRTAB);
        object.strings = strings ? (const char *)absolute(&object, strings) : NULL;
        ElfW(Addr) soname = dynamic_value(&object, DT_SONAME);
        object.soname = object.strings && soname ? object.strings + soname : NULL;
    }
    g_array_append_val(objects, object);
    return 0;
}

/* The loaded object a library named as needed (by its soname, or the file name it was loaded from). */
static LoadedObject *named(GArray *objects, const char *name) {
    for (guint index = 0; index < objects->len; index++) {
        LoadedObject *object = &g_array_index(objects, LoadedObject, index);
        const char *slash = object->path ? strrchr(object->path, '/') : NULL;
        if ((object->soname && strcmp(object->soname, name) == 0) || (slash && strcmp(slash + 1, name) == 0))
            return object;
    }
    return NULL;
}

/* Marks libwebkit2gtk and every library it needs, directly or not: what WebKit's processes load too. */
static void mark_needed_by_webkit(GArray *objects) {
    Dl_info webkit;
    if (!dladdr((void *)webkit_web_view_new, &webkit) || !webkit.dli_fname)
        return;
    GPtrArray *pending = g_ptr_array_new();
    for (guint index = 0; index < objects->len; index++) {
        LoadedObject *object = &g_array_index(objects, LoadedObject, index);
        if (object->path && strcmp(object->path, webkit.dli_fname) == 0) {
            object->needed_by_webkit = true;
            g_ptr_array_add(pending, object);
        }
    }
    while (pending->len) {
        LoadedObject *object = g_ptr_array_steal_index_fast(pending, pending->len - 1);
        if (!object->dynamic || !object->strings)
            continue;
        for (const ElfW(Dyn) *entry = object->dynamic; entry->d_tag != DT_NULL; entry++) {
            LoadedObject *needed = entry->d_tag == DT_NEEDED ? named(objects, object->strings + entry->d_un.d_val) : NULL;
            if (needed && !needed->needed_by_webkit) {
                needed->needed_by_webkit = true;
                g_ptr_array_add(pending, needed);
            }
        }
    }
    g_ptr_array_free(pending, TRUE);
}

/* The relocations of one table (DT_RELA or DT_REL: both begin with r_offset and r_info) against symbols of the
 * object's own that the loader looks up by name: defined here, global or weak, of default visibility. The loader
 * binds the others without a search, and the relative relocations at the table's start name no symbol. */
static size_t searched_relocations(const LoadedObject *object, ElfW(Sxword) table_tag, ElfW(Sxword) size_tag,
                                   ElfW(Sxword) entry_tag, ElfW(Sxword) relative_count_tag) {
    ElfW(Addr) table = dynamic_value(object, table_tag);
    ElfW(Addr) symbols = dynamic_value(object, DT_SYMTAB);
    size_t entry = dynamic_value(object, entry_tag);
    if (!table || !symbols || entry < sizeof(ElfW(Rel)))
        return 0;
    const char *relocations = (const char *)absolute(object, table);
    const ElfW(Sym) *symbol_table = (const ElfW(Sym) *)absolute(object, symbols);
    size_t count = dynamic_value(object, size_tag) / entry, own = 0;
    for (size_t index = dynamic_value(object, relative_count_tag); index < count; index++) {
        const ElfW(Rel) *relocation = (const ElfW(Rel) *)(relocations + index * entry);
        const ElfW(Sym) *symbol = &symbol_table[RELOCATION_SYMBOL(relocation->r_info)];
        if (RELOCATION_SYMBOL(relocation->r_info) && symbol->st_shndx != SHN_UNDEF &&
            SYMBOL_BINDING(symbol->st_info) != STB_LOCAL && SYMBOL_VISIBILITY(symbol->st_other) == STV_DEFAULT)
            own++;
    }
    return own;
}

char *wk_libraries_searched_in_vain(size_t minimum_searches) {
    GArray *objects = g_array_new(FALSE, TRUE, sizeof(LoadedObject));
    dl_iterate_phdr(collect, objects);
    mark_needed_by_webkit(objects);
    GString *paths = g_string_new(NULL);
    for (guint index = 0; index < objects->len; index++) {
        const LoadedObject *object = &g_array_index(objects, LoadedObject, index);
        /* LD_PRELOAD separates its entries with spaces and colons. */
        if (!object->needed_by_webkit || !object->dynamic || !object->path || object->path[0] != '/' ||
            strpbrk(object->path, " :"))
            continue;
        size_t own = searched_relocations(object, DT_RELA, DT_RELASZ, DT_RELAENT, DT_RELACOUNT) +
                     searched_relocations(object, DT_REL, DT_RELSZ, DT_RELENT, DT_RELCOUNT);
        if (own * object->position >= minimum_searches) {
            if (paths->len)
                g_string_append_c(paths, ' ');
            g_string_append(paths, object->path);
        }
    }
    g_array_free(objects, TRUE);
    return g_string_free(paths, paths->len == 0);
}
