/* What the compiled loops share: integer types, the flags, the 128-bit mask and how a
 * function is exported.
 *
 * The loops are plain C with no C library: the same files are compiled by the machine's C
 * compiler into the Cython extensions of the native package (which wrap them with
 * ``cdef extern from``), and by clang into the WebAssembly module of the static site
 * (``web/site.py``), where ``wasm.c`` adds the few functions the compiler may call. Memory
 * is never allocated here: each search lives in one block its caller allocates, of the size
 * its ``*_bytes`` function gives (docs/design-kernel.md, "The compiled kernel").
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

/* The loops that count bits are compiled twice on x86-64 Linux, with and without the
 * processor's popcnt instruction, and the loader picks one when the module loads (GCC's and
 * clang's ``target_clones``, through glibc's ifunc): the portable build counts as fast as
 * one made for this processor, and still runs on one without the instruction. Functions
 * that count bits inside them are inlined (``SC_INLINE``) so that each copy has its own. */
#if defined(__x86_64__) && defined(__GLIBC__) && !defined(__wasm__)
#define SC_COUNTS_BITS __attribute__((target_clones("popcnt", "default")))
#else
#define SC_COUNTS_BITS
#endif
#define SC_INLINE static inline __attribute__((always_inline))

/* GCC's and clang's 128-bit integer: regions of up to 128 cells keep their occupancy in a
 * pair of registers. */
typedef unsigned __int128 sc_u128;

/* Shifts of a 128-bit mask by a variable number of bits (0..127), and the mask of one bit.
 * GCC and clang inline them on 64-bit machines; clang for wasm32 calls a library function for
 * each (``__ashlti3``, ``__lshrti3``; the beam ran 3-4 times slower than native with them),
 * so there they are written on the two 64-bit halves. */
#if defined(__wasm__)
static inline sc_u128 sc_join(uint64_t high, uint64_t low) {
    return ((sc_u128)high << 64) | low;
}

static inline sc_u128 sc_shr(sc_u128 m, int s) {
    uint64_t low = (uint64_t)m, high = (uint64_t)(m >> 64);
    if (s >= 64)
        return sc_join(0, high >> (s - 64));
    if (s == 0)
        return m;
    return sc_join(high >> s, (low >> s) | (high << (64 - s)));
}

static inline sc_u128 sc_shl(sc_u128 m, int s) {
    uint64_t low = (uint64_t)m, high = (uint64_t)(m >> 64);
    if (s >= 64)
        return sc_join(low << (s - 64), 0);
    if (s == 0)
        return m;
    return sc_join((high << s) | (low >> (64 - s)), low << s);
}

static inline sc_u128 sc_bit(int i) {
    return i >= 64 ? sc_join((uint64_t)1 << (i - 64), 0) : sc_join(0, (uint64_t)1 << i);
}
#else
static inline sc_u128 sc_shr(sc_u128 m, int s) { return m >> s; }

static inline sc_u128 sc_shl(sc_u128 m, int s) { return m << s; }

static inline sc_u128 sc_bit(int i) { return (sc_u128)1 << i; }
#endif

/* The checks of a loop's arguments (``sc_*_check``), shared by every loop: whole arrays of
 * indexes and masks, read once when a search is made, so that nothing a caller passes can
 * make a loop read or write outside its arrays. The caller (``search.loops``) has already
 * checked every length and number; these check the values inside. */

/* Are the ``count`` values of ``a`` all in [lo, hi)? One body, written once for arrays of
 * 32-bit ints (``sc_ints_within``) and of 64-bit ones (``sc_longs_within``). */
#define SC_WITHIN(name, type)                                                                  \
    static inline int name(const type *a, size_t count, int64_t lo, int64_t hi) {              \
        size_t i;                                                                              \
        for (i = 0; i < count; i++)                                                            \
            if (a[i] < lo || a[i] >= hi)                                                       \
                return 0;                                                                      \
        return 1;                                                                              \
    }
SC_WITHIN(sc_ints_within, int32_t)
SC_WITHIN(sc_longs_within, int64_t)
#undef SC_WITHIN

/* Do the ``count`` masks of ``words`` words each in ``m`` hold only cells below ``n``? */
static inline int sc_masks_within(const uint64_t *m, size_t count, int64_t words, int64_t n) {
    size_t i;
    int64_t w, cells;
    uint64_t allowed;
    for (w = 0; w < words; w++) {
        cells = n - 64 * w; /* the cells among word w's 64 bits */
        if (cells >= 64)
            continue;
        allowed = cells <= 0 ? 0 : ((uint64_t)1 << cells) - 1;
        for (i = 0; i < count; i++)
            if (m[i * (size_t)words + (size_t)w] & ~allowed)
                return 0;
    }
    return 1;
}

/* A block's size as ``*_bytes`` return it: 0 when it does not fit a ``size_t`` (only the
 * 32-bit WebAssembly module can meet this), which the caller reports as no memory. */
static inline size_t sc_size(uint64_t bytes) {
    return bytes > (uint64_t)SIZE_MAX ? 0 : (size_t)bytes;
}

/* A block's parts are laid out at multiples of 16 bytes (the 128-bit masks' alignment). */
#define SC_ALIGN(n) (((size_t)(n) + 15) & ~(size_t)15)

/* The same in 64 bits, for the ``*_bytes`` functions: a size past 4 GB is seen, not wrapped,
 * where ``size_t`` has 32 bits. */
#define SC_ALIGN64(n) (((uint64_t)(n) + 15) & ~(uint64_t)15)

/* The current part of a block, then the next one: ``SC_TAKE(at, ptr, type, count)``. */
#define SC_TAKE(at, ptr, type, count)        \
    do {                                     \
        (ptr) = (type *)(at);                \
        (at) += SC_ALIGN(sizeof(type) * (size_t)(count)); \
    } while (0)

#endif
