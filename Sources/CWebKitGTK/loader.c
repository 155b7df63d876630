/* CWebKitGTK: What the dynamic loader spends its time on as a WebKit process starts. */
#define _GNU_SOURCE
#include "CWebKitGTK.h"

#include <elf.h>
#include <glib.h>
#include <link.h>

typedef struct {
    size_t minimum_searches;
    size_t loaded_before; /* objects dl_iterate_phdr has visited: the program, the vDSO, the libraries */
    GString *paths;
} Search;

/* The relocations of an object (RELA, as on x86_64 and aarch64) whose symbol the object defines itself. */
static size_t relocations_to_own_symbols(const struct dl_phdr_info *info) {
    const ElfW(Dyn) *dynamic = NULL;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++)
        if (info->dlpi_phdr[index].p_type == PT_DYNAMIC)
            dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[index].p_vaddr);
    if (!dynamic)
        return 0;
    ElfW(Addr) relocations = 0, symbols = 0;
    size_t size = 0, entry = sizeof(ElfW(Rela));
    for (const ElfW(Dyn) *tag = dynamic; tag->d_tag != DT_NULL; tag++) {
        switch (tag->d_tag) {
        case DT_RELA: relocations = tag->d_un.d_ptr; break;
        case DT_RELASZ: size = tag->d_un.d_val; break;
        case DT_RELAENT: entry = tag->d_un.d_val; break;
        case DT_SYMTAB: symbols = tag->d_un.d_ptr; break;
        }
    }
    if (!relocations || !symbols || entry < sizeof(ElfW(Rela)))
        return 0;
    /* glibc has made these addresses absolute on most machines; on the others they are still offsets. */
    if (relocations < info->dlpi_addr)
        relocations += info->dlpi_addr;
    if (symbols < info->dlpi_addr)
        symbols += info->dlpi_addr;
    const ElfW(Sym) *symbol_table = (const ElfW(Sym) *)symbols;
    size_t own = 0;
    for (size_t offset = 0; offset + entry <= size; offset += entry) {
        const ElfW(Rela) *relocation = (const ElfW(Rela) *)(relocations + offset);
        size_t symbol = ELF64_R_SYM(relocation->r_info);
        if (symbol && symbol_table[symbol].st_shndx != SHN_UNDEF)
            own++;
    }
    return own;
}

static int visit(struct dl_phdr_info *info, size_t info_size, void *data) {
    (void)info_size;
    Search *search = data;
    size_t before = search->loaded_before++;
    if (!info->dlpi_name || info->dlpi_name[0] != '/')
        return 0;
    if (relocations_to_own_symbols(info) * before >= search->minimum_searches) {
        if (search->paths->len)
            g_string_append_c(search->paths, ' ');
        g_string_append(search->paths, info->dlpi_name);
    }
    return 0;
}

char *wk_libraries_searched_in_vain(size_t minimum_searches) {
    Search search = {minimum_searches, 0, g_string_new(NULL)};
    dl_iterate_phdr(visit, &search);
    return g_string_free(search.paths, search.paths->len == 0);
}
