/* The counting kernel: the segment-placing depth-first search of one work unit, with the
 * reference's contract (``search.reference``, ``search.kernel``): the same placements in the
 * same order and, with the same pruning, the same nodes.
 *
 * Tables are flat and shared by every search of a problem (``kernel.Tables``): row
 * ``r = (lidx[k] * cells + head) * 6 + d`` is segment k's ray from ``head`` in direction d:
 * ``rend[r]`` its end cell (-1 when it leaves the region), ``rmask`` the cells it adds,
 * ``rhalo`` the neighbours of its start cell and of the cells it adds, each ``words`` words;
 * ``nbmask`` each cell's neighbours, ``colours`` the odd cells, ``placed_after[k]`` the cubes
 * placed once segment k is.
 *
 * A search lives in one block of ``sc_segment_bytes`` bytes: its state, its scratch and the
 * placements it found since the last run. ``sc_segment_run`` searches on for at most
 * ``max_nodes`` nodes and returns how many placements it wrote (one direction per segment,
 * ``sc_segment_out``), so the caller can check time, progress and Ctrl-C between runs.
 */
#ifndef SC_SEGMENT_H
#define SC_SEGMENT_H

#include "sc.h"

typedef struct sc_segment {
    const int64_t *lidx, *rend, *placed_after;
    const uint64_t *rmask, *rhalo, *nbmask, *colours;
    int64_t *dirs, *nextd, *heads, *endc, *out;
    uint64_t *occ, *reach, *frontier, *taken, *witness, *has;
    int64_t shifts[6];
    int64_t n_seg, n_cells, words, level, base, flags, min_free, end_colour, max_out;
    int64_t nodes;   /* nodes of the last run */
    int32_t finished, multiword, shifted;
} sc_segment;

/* The values in a search's tables (``kernel.Tables``): 0 when every length index is below
 * ``n_lengths``, every ray's end -1 or a cell, the prefix's directions 0..5 and every mask
 * (rays' cells and halos, neighbours, colours, occupied cells) holds cells only; else which
 * argument is wrong (1 lidx .. 8 occ, in the order written). Their lengths are the caller's
 * to check: ``n_lengths * n_cells * 6`` rays, ``words`` words a mask. */
SC_API int32_t sc_segment_check(const int64_t *lidx, const uint64_t *rmask, const int64_t *rend,
                                const uint64_t *rhalo, const uint64_t *nbmask,
                                const uint64_t *colours, int32_t n_seg, int32_t n_cells,
                                int32_t words, int32_t n_lengths, const int64_t *dirs,
                                int32_t base, const uint64_t *occ);

/* The same for ``sc_segment_set_shifts``: 1 a shift is not between -n_cells and n_cells,
 * 2 a row of ``has`` holds a cell that is not one, else 0. */
SC_API int32_t sc_segment_check_shifts(const int32_t *shifts, const uint64_t *has,
                                       int32_t n_cells, int32_t words);

/* The bytes of the block of a search of ``n_seg`` segments, masks of ``words`` words,
 * keeping up to ``max_out`` placements a run. */
SC_API size_t sc_segment_bytes(int32_t n_seg, int32_t words, int32_t max_out);

/* Make the search in ``block``: the unit's prefix is ``dirs[:base]`` (``n_seg`` entries),
 * its head cell ``head`` and its occupied cells ``occ`` (``words`` words); the tables are
 * not copied and must outlive the search. ``multiword``: the array loop even for up to 128
 * cells. Returns the search (at the block's start). */
SC_API sc_segment *sc_segment_init(
    void *block, const int64_t *lidx, const uint64_t *rmask, const int64_t *rend,
    const uint64_t *rhalo, const uint64_t *nbmask, const int64_t *placed_after,
    const uint64_t *colours, int32_t n_seg, int32_t n_cells, int32_t words,
    const int64_t *dirs, int32_t head, const uint64_t *occ, int32_t base, int32_t flags,
    int32_t min_free, int32_t end_colour, int32_t max_out, int32_t multiword);

/* Cell c's neighbour in direction d is c + shifts[d] wherever it has one (row d of ``has``,
 * ``words`` words): true of a box. The register loop then counts the free neighbours of
 * every cell at once by shifting masks (the same answer as one cell at a time). */
SC_API void sc_segment_set_shifts(sc_segment *s, const int32_t *shifts, const uint64_t *has);

/* Search on for at most ``max_nodes`` nodes: the placements written to ``sc_segment_out``. */
SC_API int32_t sc_segment_run(sc_segment *s, int32_t max_nodes);

SC_API int32_t sc_segment_nodes(const sc_segment *s);      /* nodes of the last run */
SC_API int32_t sc_segment_finished(const sc_segment *s);   /* the unit is exhausted */
SC_API const int64_t *sc_segment_out(const sc_segment *s); /* placements, n_seg each */

#endif
