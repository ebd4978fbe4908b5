/* The first-solution search behind the restarts (``search.first.restarts``): one search for
 * a placement of a snake (segment lengths) in a region (its cells' neighbours, 6 a cell, -1
 * outside, and colours), depth first in a random order of directions per level, with exact
 * checks (see first.c). Two kinds share one state: from an end (``sc_first_init``) and
 * middle out, from a pivot segment (``sc_arms_init``).
 *
 * A search lives in one block of ``sc_first_bytes`` bytes, which holds copies of its inputs:
 * the caller may free them once the search is made. ``sc_first_run`` searches on until a
 * placement, ``max_nodes`` more nodes, or the end of the tree; after a placement, the next
 * run searches on for the next one.
 */
#ifndef SC_FIRST_H
#define SC_FIRST_H

#include "sc.h"

typedef struct sc_first {
    int32_t n, n_seg;
    int32_t *nb;              /* n x 6 neighbours, -1 outside */
    int32_t *colour;          /* 0 / 1 */
    int32_t *lengths;         /* per segment */
    int32_t *straights_after; /* straight cubes in segments k.. (inner cubes) */
    int32_t *corners_after;   /* corner cubes from segment k's start on */
    uint8_t *free;
    int32_t *deg;             /* free neighbours of each cell */
    int32_t *heads, *dirs, *nextd, *endc;
    int32_t *order;           /* per level: 6 directions in the order to try */
    int32_t level, end_colour, deepest;
    int64_t nodes;
    int32_t found, finished;
    uint64_t seed;
    int32_t checks;
    /* scratch for the global checks */
    int32_t *disc, *low, *parent, *stack, *it, *size, *ones, *fcount, *uf;
    /* straight runs: the lines of the target (cells in order, -1 between lines) and, per
     * level k and length L, the segments from k on with at least L cubes */
    int32_t *lines, *need;
    int32_t n_lines, max_len;
    /* the window (SC_FIRST_SWEEP): each cell's layer, free cells and cells per layer */
    int32_t *layer, *lfree, *lsize;
    int32_t n_layers, window;
    /* cells next to a head: near[c] == stamp (and near_b for a second head) */
    int32_t *near, *near_b;
    int32_t stamp;
    /* middle out (sc_arms_init): the pivot, the ends' colours, and per level the arm that
     * moves (0: A, forwards; 1: B, backwards), its segment and both arms' state */
    int32_t arms, pivot, colour_a, colour_b;
    int32_t *arm, *seg, *head_a, *head_b, *axis_a, *axis_b, *done_a, *done_b, *endc2;
} sc_first;

/* The values in a search's arrays: 0 when every neighbour is -1 or a cell, every colour 0 or
 * 1 and every length from 2 to the cells' count; else which is wrong (1 nb, 2 colour,
 * 3 lengths). Their lengths are the caller's to check (6n, n and n_seg). */
SC_API int32_t sc_first_check(const int32_t *nb, const int32_t *colour, const int32_t *lengths,
                              int32_t n, int32_t n_seg);

/* The bytes of a search's block: ``n`` cells, ``n_seg`` segments, none longer than
 * ``max_len`` cubes (at least 2). */
SC_API size_t sc_first_bytes(int32_t n, int32_t n_seg, int32_t max_len);

/* A search from the snake's first end, cube 1 on ``start``; the last cube must have colour
 * ``end_colour`` (and be on cell ``end`` if it is >= 0). ``seed`` (two 32-bit halves) fixes
 * the random order; ``checks`` are the SC_FIRST_* flags. */
SC_API sc_first *sc_first_init(void *block, const int32_t *nb, const int32_t *colour,
                               const int32_t *lengths, int32_t n, int32_t n_seg, int32_t start,
                               int32_t end_colour, uint32_t seed_lo, uint32_t seed_hi,
                               int32_t checks, int32_t end);

/* A middle-out search: segment ``pivot`` is placed first with its first cube on ``start``,
 * cube 1 having colour ``first_colour``; ``checks`` only SC_FIRST_FEWEST_WAYS, SC_FIRST_TAIL
 * and SC_FIRST_SWEEP (the caller checks its arguments). */
SC_API sc_first *sc_arms_init(void *block, const int32_t *nb, const int32_t *colour,
                              const int32_t *lengths, int32_t n, int32_t n_seg, int32_t pivot,
                              int32_t start, int32_t first_colour, uint32_t seed_lo,
                              uint32_t seed_hi, int32_t checks);

/* Search only paths that fill the target as a sweep through ``layers`` (each cell's layer,
 * 0 .. n-1, checked by the caller): the farthest layer holding a placed cube is at most
 * ``width`` layers past the nearest layer with a free cell. A restriction, not a pruning. */
SC_API void sc_first_set_layers(sc_first *s, const int32_t *layers, int32_t width);

/* ``sc_first_set_layers`` with the planes across ``direction`` (0..5), numbered from the face
 * the direction points away from. */
SC_API void sc_first_set_window(sc_first *s, int32_t direction, int32_t width);

/* Place the next segment in direction d (a given prefix; from an end) with no check but that
 * it lies on free cells of the target: 1, or 0 (nothing placed) when it does not, when every
 * segment is placed, when d is not a direction or the search is middle out. */
SC_API int32_t sc_first_push(sc_first *s, int32_t d);

/* Search on for at most ``max_nodes`` nodes (see the header's comment). */
SC_API void sc_first_run(sc_first *s, int32_t max_nodes);

SC_API int32_t sc_first_found(const sc_first *s);
SC_API int32_t sc_first_finished(const sc_first *s);
SC_API double sc_first_nodes(const sc_first *s);   /* every node so far (exact below 2^53) */
SC_API int32_t sc_first_deepest(const sc_first *s);
/* The placement found, one direction per segment in snake order (``out``: n_seg entries),
 * and the cell of cube 1. */
SC_API void sc_first_directions(const sc_first *s, int32_t *out);
SC_API int32_t sc_first_first_cell(const sc_first *s);

#endif
