/* The beam search behind the first-solution portfolio's beam member (``search.first.beam``):
 * a whole population of partial folds placed one segment a level, the ``width`` best kept
 * (see beam.c). The target has at most 128 cells and a fixed offset per direction between
 * neighbouring cells (a box numbered along x, then y, then z).
 *
 * A beam lives in one block of ``sc_beam_bytes`` bytes (it holds copies of its inputs).
 * ``sc_beam_run`` goes on level by level until about ``budget`` more children are checked,
 * the last segment is placed (found) or no fold is left; it returns whether the search is
 * over.
 */
#ifndef SC_BEAM_H
#define SC_BEAM_H

#include "sc.h"

typedef struct sc_beam_state {
    sc_u128 occ;
    uint64_t path[4]; /* 2 bits per segment from the second: which of the four turns */
    int32_t head;     /* the last cell placed */
    int32_t dir;      /* the last segment's direction */
    int32_t start;
    int32_t first;    /* the first segment's direction */
} sc_beam_state;

typedef struct sc_beam_child { /* its key (score in the high bits, then a hash) is in keys */
    sc_u128 occ;
    int32_t parent; /* index into the beam (or the start cell, at the first level) */
    int32_t head;
    int32_t dir;
} sc_beam_child;

typedef struct sc_beam {
    int32_t n, n_seg, n_starts, score_kind;
    int64_t width;
    int32_t *nb, *lengths, *starts;
    int64_t off[6];
    sc_u128 has[6];
    sc_u128 all_cells, even;
    uint64_t seed;
    sc_beam_state *cur, *nxt;
    sc_beam_child *kids;
    uint64_t *order; /* children grouped by score, each a word: (hash << INDEX_BITS) | index */
    uint64_t *spare; /* the radix sort's second buffer */
    uint64_t *keys;  /* the children's keys */
    int64_t *counts; /* children per score (scores are below MAX_SCORE) */
    int64_t cap_kids;
    int64_t ncur;    /* folds in the beam now */
    int32_t level;   /* segments 0..level are placed in every fold of the beam */
    int64_t nodes;   /* children made and checked */
    int32_t done, found, complete;
} sc_beam;

/* The widest beam: a child's index must fit beside its hash bits (checked by the caller). */
#define SC_BEAM_MAX_WIDTH (1 << 22)

/* The values in a beam's arrays: 0 when every neighbour is -1 or a cell, colours 0 or 1,
 * lengths 2 to n, start cells cells, offsets between -n and n and each row of ``has`` (2
 * words) cells only; else which is wrong (1 nb .. 6 has). Their lengths are the caller's. */
SC_API int32_t sc_beam_check(int32_t n, const int32_t *nb, const int32_t *colour,
                             const int32_t *lengths, int32_t n_seg, const int32_t *starts,
                             int32_t n_starts, const int32_t *offsets, const uint64_t *has);

/* The bytes of the block of a beam (``n`` cells, ``n_seg`` segments, ``n_starts`` start
 * cells, ``width`` folds). */
SC_API size_t sc_beam_bytes(int32_t n, int32_t n_seg, int32_t n_starts, int32_t width);

/* A beam from the first end: the snake (``lengths``) starts on one of ``starts``; ``offsets``
 * (6) and ``has`` (6 x 2 words) are the box's neighbour offsets and the cells that have a
 * neighbour each way; ``score_kind`` 0 (compact) or 1 (also the walls); ``seed`` in two
 * halves breaks ties. */
SC_API sc_beam *sc_beam_init(void *block, int32_t n, const int32_t *nb, const int32_t *colour,
                             const int32_t *lengths, int32_t n_seg, const int32_t *starts,
                             int32_t n_starts, const int32_t *offsets, const uint64_t *has,
                             int32_t width, int32_t score_kind, uint32_t seed_lo,
                             uint32_t seed_hi);

SC_API int32_t sc_beam_run(sc_beam *s, int32_t budget);

SC_API int32_t sc_beam_done(const sc_beam *s);
SC_API int32_t sc_beam_found(const sc_beam *s);
SC_API int32_t sc_beam_complete(const sc_beam *s); /* no level ever dropped a fold */
SC_API double sc_beam_nodes(const sc_beam *s);
SC_API int32_t sc_beam_level(const sc_beam *s);
SC_API int32_t sc_beam_folds(const sc_beam *s); /* folds in the beam now */
/* The first fold of the beam once found: its directions (n_seg) and its start cell. */
SC_API int32_t sc_beam_solution(const sc_beam *s, int32_t *dirs);

#endif
