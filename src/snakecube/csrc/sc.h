/* What the compiled loops share: integer types, the flags, the 128-bit mask and how a
 * function is exported.
 *
 * The loops are plain C with no C library: the same files are compiled by the machine's C
 * compiler into the Cython extensions of the native package (which wrap them with
 * ``cdef extern from``), and by clang into the WebAssembly module of the static site
 * (``web/site.py``), where ``wasm.c`` adds the few functions the compiler may call. Memory
 * is never allocated here: each search lives in one block its caller allocates, of the size
 * its ``*_bytes`` function gives (docs/design.md, "The compiled kernel").
 */
#ifndef SC_H
#define SC_H

#include <stddef.h>
#include <stdint.h>

/* Exported from the WebAssembly module (``-Wl,--export-dynamic`` exports exactly these). */
#define SC_API __attribute__((visibility("default")))

/* The counting search's pruning flags: the values of ``search.options`` (tests check). */
#define SC_DEAD_END 1
#define SC_CONNECTED 2
#define SC_PARITY 4
#define SC_TAIL 8
#define SC_TAIL_SEGMENTS 4 /* options.TAIL_SEGMENTS, for both searches */

/* The first-solution search's checks: ``search.options.FIRST_*``. */
#define SC_FIRST_BLOCKS 1
#define SC_FIRST_FORCED 2
#define SC_FIRST_FEWEST_WAYS 4
#define SC_FIRST_RUNS 8
#define SC_FIRST_TAIL 16
#define SC_FIRST_SWEEP 32

/* GCC's and clang's 128-bit integer: regions of up to 128 cells keep their occupancy in a
 * pair of registers. */
typedef unsigned __int128 sc_u128;

/* A block's parts are laid out at multiples of 16 bytes (the 128-bit masks' alignment). */
#define SC_ALIGN(n) (((size_t)(n) + 15) & ~(size_t)15)

/* The current part of a block, then the next one: ``SC_TAKE(at, ptr, type, count)``. */
#define SC_TAKE(at, ptr, type, count)        \
    do {                                     \
        (ptr) = (type *)(at);                \
        (at) += SC_ALIGN(sizeof(type) * (size_t)(count)); \
    } while (0)

#endif
