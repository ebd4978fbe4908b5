/* What the WebAssembly module needs beside the loops, with no C library: a memory allocator
 * for the blocks Python asks for (``sc_alloc``, ``sc_free``), the two functions clang may call
 * (memset, memcpy) and the hash of the sources the module was built from. Only
 * ``web/site.py`` compiles this file. The loops shift 128-bit masks through sc.h's helpers,
 * so that no call to a 128-bit shift (``__ashlti3``) is made: one would fail to link here. */
#include "sc.h"

/* -- memory ---------------------------------------------------------------------------------
 * First fit over a list of free chunks, in address order, merged with their neighbours when
 * freed; the memory grows by whole 64 KiB pages when no chunk fits. A chunk is a 16-byte
 * header (its size, header included, and the next free chunk) and then the caller's bytes. */
typedef struct chunk {
    uint32_t size;
    struct chunk *next;
} chunk;

#define HEADER 16u
#define PAGE 65536u

extern unsigned char __heap_base;
static chunk *free_list = 0;
static uintptr_t top = 0; /* the end of the memory handed out so far */

static chunk *grow(uint32_t size) {
    uintptr_t end, have;
    chunk *c;
    if (!top)
        top = SC_ALIGN((uintptr_t)&__heap_base);
    end = top + size;
    have = (uintptr_t)__builtin_wasm_memory_size(0) * PAGE;
    if (end > have && __builtin_wasm_memory_grow(0, (end - have + PAGE - 1) / PAGE) == (size_t)-1)
        return 0;
    c = (chunk *)top;
    c->size = size;
    top = end;
    return c;
}

SC_API void *sc_alloc(uint32_t bytes) {
    uint32_t size;
    chunk **link, *c, *rest;
    if (bytes > 0xFFFFFFFFu - 2 * HEADER)
        return 0;
    size = (uint32_t)SC_ALIGN(bytes) + HEADER;
    for (link = &free_list; (c = *link) != 0; link = &c->next) {
        if (c->size < size)
            continue;
        if (c->size - size >= 2 * HEADER) { /* split: the rest stays free */
            rest = (chunk *)((char *)c + size);
            rest->size = c->size - size;
            rest->next = c->next;
            c->size = size;
            *link = rest;
        } else {
            *link = c->next;
        }
        return (char *)c + HEADER;
    }
    c = grow(size);
    return c ? (char *)c + HEADER : 0;
}

SC_API void sc_free(void *p) {
    chunk *c, **link, *after;
    if (!p)
        return;
    c = (chunk *)((char *)p - HEADER);
    for (link = &free_list; *link && *link < c; link = &(*link)->next)
        ;
    after = *link;
    c->next = after;
    *link = c;
    if (after && (char *)c + c->size == (char *)after) { /* merge with the chunk after */
        c->size += after->size;
        c->next = after->next;
    }
    if (link != &free_list) { /* and with the one before */
        chunk *before = (chunk *)((char *)link - offsetof(chunk, next));
        if ((char *)before + before->size == (char *)c) {
            before->size += c->size;
            before->next = c->next;
        }
    }
}

/* -- what the compiler may call -------------------------------------------------------------- */
void *memset(void *p, int value, size_t n) {
    volatile unsigned char *b = (volatile unsigned char *)p; /* volatile: not a memset call */
    while (n--)
        *b++ = (unsigned char)value;
    return p;
}

void *memcpy(void *to, const void *from, size_t n) {
    volatile unsigned char *t = (volatile unsigned char *)to;
    const unsigned char *f = (const unsigned char *)from;
    while (n--)
        *t++ = *f++;
    return to;
}

/* -- the sources ------------------------------------------------------------------------------
 * SC_SOURCE_HASH is the SHA-256 of the C sources (web/site.py passes it when it compiles), so
 * a module can say which sources it was built from. */
#ifndef SC_SOURCE_HASH
#define SC_SOURCE_HASH "unknown"
#endif
static const char source_hash[] = SC_SOURCE_HASH;

SC_API const char *sc_source_hash(void) { return source_hash; }
