/* The counting kernel (see segment.h): two loops with the same steps, order and state. One
 * keeps the occupancy in registers (``segment_mask.h``, written once for a 64-bit word and for
 * a 128-bit pair), the other in an array of words, for any size. */
#include "segment.h"

/* The connectivity check's flood fill, the one every loop uses outside a box (in a box the
 * register loops grow a ring by six shifts instead): how many free cells are joined to cell
 * ``e`` through free cells. ``nbmask`` and ``occ`` hold W words a row; ``reach`` and
 * ``frontier`` are W scratch words. */
static inline int64_t words_flood(const uint64_t *nbmask, int64_t W, const uint64_t *occ,
                                  int64_t e, uint64_t *reach, uint64_t *frontier) {
    const uint64_t one = 1;
    int64_t count = 0, w, w2, x, growing = 1;
    uint64_t bits, new_;
    for (w = 0; w < W; w++) {
        reach[w] = frontier[w] = nbmask[e * W + w] & ~occ[w];
        count += __builtin_popcountll(reach[w]);
    }
    while (growing) { /* Step: the free neighbours of the frontier not reached yet */
        growing = 0;
        for (w = 0; w < W; w++) {
            bits = frontier[w];
            frontier[w] = 0;
            while (bits) {
                x = (w << 6) + __builtin_ctzll(bits);
                bits &= bits - one;
                for (w2 = 0; w2 < W; w2++) {
                    new_ = nbmask[x * W + w2] & ~occ[w2] & ~reach[w2];
                    if (new_) {
                        reach[w2] |= new_;
                        frontier[w2] |= new_;
                        count += __builtin_popcountll(new_);
                        growing = 1;
                    }
                }
            }
        }
    }
    return count;
}

#define M uint64_t
#define MASK(name) mask64_##name
#include "segment_mask.h"
#undef M
#undef MASK

#define M sc_u128
#define MASK(name) mask128_##name
#include "segment_mask.h"
#undef M
#undef MASK

static inline int is_set(const uint64_t *words, int64_t c) {
    return (int)((words[c >> 6] >> (c & 63)) & 1);
}

int32_t sc_segment_check(const int64_t *lidx, const uint64_t *rmask, const int64_t *rend,
                         const uint64_t *rhalo, const uint64_t *nbmask, const uint64_t *colours,
                         int32_t n_seg, int32_t n_cells, int32_t words, int32_t n_lengths,
                         const int64_t *dirs, int32_t base, const uint64_t *occ) {
    size_t rays = (size_t)n_lengths * (size_t)n_cells * 6;
    if (!sc_longs_within(lidx, (size_t)n_seg, 0, n_lengths))
        return 1;
    if (!sc_masks_within(rmask, rays, words, n_cells))
        return 2;
    if (!sc_longs_within(rend, rays, -1, n_cells))
        return 3;
    if (!sc_masks_within(rhalo, rays, words, n_cells))
        return 4;
    if (!sc_masks_within(nbmask, (size_t)n_cells, words, n_cells))
        return 5;
    if (!sc_masks_within(colours, 1, words, n_cells))
        return 6;
    if (!sc_longs_within(dirs, (size_t)base, 0, 6))
        return 7;
    if (!sc_masks_within(occ, 1, words, n_cells))
        return 8;
    return 0;
}

int32_t sc_segment_check_shifts(const int32_t *shifts, const uint64_t *has, int32_t n_cells,
                                int32_t words) {
    if (!sc_ints_within(shifts, 6, -(int64_t)n_cells + 1, n_cells))
        return 1;
    if (!sc_masks_within(has, 6, words, n_cells))
        return 2;
    return 0;
}

size_t sc_segment_bytes(int32_t n_seg, int32_t words, int32_t max_out) {
    uint64_t n = (uint64_t)n_seg + 1, w = (uint64_t)words;
    uint64_t bytes = SC_ALIGN64(sizeof(sc_segment));
    bytes += 4 * SC_ALIGN64(n * sizeof(int64_t));                      /* dirs .. endc */
    bytes += SC_ALIGN64((uint64_t)max_out * (uint64_t)n_seg * sizeof(int64_t)); /* out */
    bytes += 3 * SC_ALIGN64(w * sizeof(uint64_t));                     /* occ, reach, frontier */
    bytes += SC_ALIGN64((SC_TAIL_SEGMENTS + 1) * w * sizeof(uint64_t)); /* taken */
    bytes += SC_ALIGN64(n * w * sizeof(uint64_t));                     /* witness */
    bytes += SC_ALIGN64(6 * w * sizeof(uint64_t));                     /* has */
    return sc_size(bytes);
}

sc_segment *sc_segment_init(
    void *block, const int64_t *lidx, const uint64_t *rmask, const int64_t *rend,
    const uint64_t *rhalo, const uint64_t *nbmask, const int64_t *placed_after,
    const uint64_t *colours, int32_t n_seg, int32_t n_cells, int32_t words,
    const int64_t *dirs, int32_t head, const uint64_t *occ, int32_t base, int32_t flags,
    int32_t min_free, int32_t end_colour, int32_t max_out, int32_t multiword) {
    char *at = (char *)block;
    sc_segment *s = (sc_segment *)block;
    size_t n = (size_t)n_seg + 1, w = (size_t)words, i;
    at += SC_ALIGN(sizeof(sc_segment));
    SC_TAKE(at, s->dirs, int64_t, n);
    SC_TAKE(at, s->nextd, int64_t, n);
    SC_TAKE(at, s->heads, int64_t, n);
    SC_TAKE(at, s->endc, int64_t, n);
    SC_TAKE(at, s->out, int64_t, (size_t)max_out * (size_t)n_seg);
    SC_TAKE(at, s->occ, uint64_t, w);
    SC_TAKE(at, s->reach, uint64_t, w);
    SC_TAKE(at, s->frontier, uint64_t, w);
    SC_TAKE(at, s->taken, uint64_t, (SC_TAIL_SEGMENTS + 1) * w);
    SC_TAKE(at, s->witness, uint64_t, n * w);
    SC_TAKE(at, s->has, uint64_t, 6 * w);
    s->lidx = lidx;
    s->rmask = rmask;
    s->rend = rend;
    s->rhalo = rhalo;
    s->nbmask = nbmask;
    s->placed_after = placed_after;
    s->colours = colours;
    s->n_seg = n_seg;
    s->n_cells = n_cells;
    s->words = words;
    for (i = 0; i < n; i++) {
        s->dirs[i] = i < (size_t)n_seg ? dirs[i] : 0;
        s->nextd[i] = 0;
        s->heads[i] = 0;
        s->endc[i] = -1;
    }
    s->heads[base] = head;
    for (i = 0; i < w; i++) {
        s->occ[i] = occ[i];
        s->reach[i] = s->frontier[i] = 0;
    }
    for (i = 0; i < (SC_TAIL_SEGMENTS + 1) * w; i++)
        s->taken[i] = 0;
    for (i = 0; i < n * w; i++)
        s->witness[i] = 0;
    for (i = 0; i < 6 * w; i++)
        s->has[i] = 0;
    for (i = 0; i < 6; i++)
        s->shifts[i] = 0;
    s->level = s->base = base;
    s->flags = flags;
    s->min_free = min_free;
    s->end_colour = end_colour;
    s->max_out = max_out;
    s->nodes = 0;
    s->multiword = multiword || words > 2;
    s->finished = 0;
    s->shifted = 0;
    return s;
}

void sc_segment_set_shifts(sc_segment *s, const int32_t *shifts, const uint64_t *has) {
    int64_t d;
    for (d = 0; d < 6; d++)
        s->shifts[d] = shifts[d];
    for (d = 0; d < 6 * s->words; d++)
        s->has[d] = has[d];
    s->shifted = 1;
}

/* Can segments j, j-1, ... lie backwards from cell c (``mask64_tail_fits``) with W words a
 * mask: the cells taken at depth t are ``taken[t * W:]`` (SC_TAIL_SEGMENTS + 1 rows). */
static int words_tail_fits(const sc_segment *s, int64_t t, int64_t c, int64_t j, int64_t axis,
                           int64_t stop) {
    const int64_t W = s->words;
    uint64_t *taken = s->taken;
    int64_t d, r, row, w;
    uint64_t clash;
    if (j < stop || s->n_seg - 1 - j >= SC_TAIL_SEGMENTS)
        return 1;
    row = (s->lidx[j] * s->n_cells + c) * 6;
    for (d = 0; d < 6; d++) {
        r = row + d;
        if ((d >> 1) == axis || s->rend[r] < 0)
            continue;
        clash = 0;
        for (w = 0; w < W; w++)
            clash |= taken[t * W + w] & s->rmask[r * W + w];
        if (clash)
            continue;
        for (w = 0; w < W; w++)
            taken[(t + 1) * W + w] = taken[t * W + w] | s->rmask[r * W + w];
        if (words_tail_fits(s, t + 1, s->rend[r], j - 1, d >> 1, stop))
            return 1;
    }
    return 0;
}

/* The same loop with W words a mask: ``rmask``, ``rhalo`` and ``nbmask`` hold W words a row;
 * ``reach`` and ``frontier`` are W scratch words. */
SC_COUNTS_BITS static int32_t words_run(sc_segment *s, int64_t max_nodes) {
    const int64_t *lidx = s->lidx, *rend = s->rend, *placed_after = s->placed_after;
    const uint64_t *rmask = s->rmask, *rhalo = s->rhalo, *nbmask = s->nbmask;
    const uint64_t *colours = s->colours;
    int64_t *dirs = s->dirs, *nextd = s->nextd, *heads = s->heads, *endc = s->endc;
    int64_t *out = s->out;
    uint64_t *occ = s->occ, *reach = s->reach, *frontier = s->frontier, *taken = s->taken;
    const int64_t n_seg = s->n_seg, W = s->words, n_cells = s->n_cells;
    const int64_t flags = s->flags, min_free = s->min_free, end_colour = s->end_colour;
    const int64_t max_out = s->max_out;
    const uint64_t one = 1;
    int64_t level = s->level, base = s->base;
    int finished = 0;
    int64_t n_out = 0, nodes = 0;
    int64_t k, row, r, axis, d, e, last, x, i, w, w2, ways;
    uint64_t cand, m, clash;
    int ok, moved, more;
    const int parity = (flags & SC_PARITY) != 0;
    while (nodes < max_nodes) {
        if (level == n_seg) {
            for (i = 0; i < n_seg; i++)
                out[n_out * n_seg + i] = dirs[i];
            n_out++;
            level--;
            r = (lidx[level] * n_cells + heads[level]) * 6 + dirs[level];
            for (w = 0; w < W; w++)
                occ[w] ^= rmask[r * W + w];
            if (n_out == max_out)
                break;
            continue;
        }
        k = level;
        row = (lidx[k] * n_cells + heads[k]) * 6;
        axis = k > 0 ? dirs[k - 1] >> 1 : -1;
        more = k + 1 < n_seg;
        moved = 0;
        d = nextd[k];
        while (d < 6) {
            r = row + d;
            e = rend[r];
            if ((d >> 1) == axis || e < 0) {
                d++;
                continue;
            }
            clash = 0;
            for (w = 0; w < W; w++)
                clash |= occ[w] & rmask[r * W + w];
            if (clash) {
                d++;
                continue;
            }
            for (w = 0; w < W; w++)
                occ[w] |= rmask[r * W + w];
            nodes++;
            ok = 1;
            last = endc[k];
            if ((flags & SC_DEAD_END) && more) {
                for (w = 0; w < W && ok; w++) {
                    cand = rhalo[r * W + w] & ~occ[w];
                    while (cand && ok) {
                        x = (w << 6) + __builtin_ctzll(cand);
                        cand &= cand - one;
                        ways = (nbmask[x * W + (e >> 6)] >> (e & 63)) & 1;
                        for (w2 = 0; w2 < W; w2++) {
                            m = nbmask[x * W + w2] & ~occ[w2];
                            if (m)
                                ways += (m & (m - one)) == 0 ? 1 : 2;
                        }
                        if (ways == 0) {
                            ok = 0;
                        } else if (ways == 1) {
                            if (last >= 0 && last != x && !is_set(occ, last))
                                ok = 0;
                            if (parity && (int64_t)is_set(colours, x) != end_colour)
                                ok = 0;
                            last = x;
                        }
                    }
                }
            }
            if (ok && (flags & SC_TAIL) && last >= 0 && k + 2 < n_seg && !is_set(occ, last)) {
                for (w = 0; w < W; w++)
                    taken[w] = occ[w];
                taken[last >> 6] |= one << (last & 63);
                ok = words_tail_fits(s, 0, last, n_seg - 1, -1, k + 2);
            }
            if (ok && (flags & SC_CONNECTED) && more && n_cells - placed_after[k] >= min_free)
                ok = words_flood(nbmask, W, occ, e, reach, frontier) == n_cells - placed_after[k];
            if (!ok) {
                for (w = 0; w < W; w++)
                    occ[w] ^= rmask[r * W + w];
                d++;
                continue;
            }
            dirs[k] = d;
            nextd[k] = d + 1;
            heads[k + 1] = e;
            endc[k + 1] = last;
            nextd[k + 1] = 0;
            level = k + 1;
            moved = 1;
            break;
        }
        if (!moved) {
            nextd[k] = 6;
            if (level == base) {
                finished = 1;
                break;
            }
            level--;
            r = (lidx[level] * n_cells + heads[level]) * 6 + dirs[level];
            for (w = 0; w < W; w++)
                occ[w] ^= rmask[r * W + w];
        }
    }
    s->level = level;
    s->finished = finished;
    s->nodes = nodes;
    return (int32_t)n_out;
}

int32_t sc_segment_run(sc_segment *s, int32_t max_nodes) {
    s->nodes = 0;
    if (s->finished)
        return 0;
    if (s->multiword)
        return words_run(s, max_nodes);
    if (s->words == 1)
        return mask64_run(s, max_nodes);
    return mask128_run(s, max_nodes);
}

int32_t sc_segment_nodes(const sc_segment *s) { return (int32_t)s->nodes; }

int32_t sc_segment_finished(const sc_segment *s) { return s->finished; }

const int64_t *sc_segment_out(const sc_segment *s) { return s->out; }
