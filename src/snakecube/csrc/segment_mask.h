/* The register loop of ``segment.c``, written once for two mask types: included twice, with
 * ``M`` the mask (uint64_t: regions of at most 64 cells; sc_u128: at most 128) and ``MASK(x)``
 * naming each function for it. Tables then have one word (M = uint64_t) or two a row. */

static inline M MASK(load)(const uint64_t *table, int64_t row) {
    if (sizeof(M) == 8)
        return (M)table[row];
    return ((M)table[2 * row + 1] << 32 << 32) | (M)table[2 * row];
}

static inline void MASK(store)(uint64_t *table, int64_t row, M m) {
    if (sizeof(M) == 8) {
        table[row] = (uint64_t)m;
    } else {
        table[2 * row] = (uint64_t)m;
        table[2 * row + 1] = (uint64_t)(m >> 32 >> 32);
    }
}

/* The index of the lowest set bit of a non-zero mask. */
static inline int64_t MASK(low_bit)(M m) {
    if (sizeof(M) == 8 || (uint64_t)m)
        return __builtin_ctzll((uint64_t)m);
    return 64 + __builtin_ctzll((uint64_t)(m >> 32 >> 32));
}

/* ``m`` shifted right or left by ``s`` (0 .. bits - 1), and the mask of bit ``i``: for 128
 * bits through sc.h's helpers (inline in WebAssembly too). */
static inline M MASK(shr)(M m, int64_t s) {
    return sizeof(M) == 8 ? m >> s : (M)sc_shr((sc_u128)m, (int)s);
}

static inline M MASK(shl)(M m, int64_t s) {
    return sizeof(M) == 8 ? m << s : (M)sc_shl((sc_u128)m, (int)s);
}

static inline M MASK(bit)(int64_t i) {
    return sizeof(M) == 8 ? (M)1 << i : (M)sc_bit((int)i);
}

/* Bit c of the result is bit c + s of ``m`` (zero where that is out of the mask). */
static inline M MASK(shift)(M m, int64_t s) {
    return s >= 0 ? MASK(shr)(m, s) : MASK(shl)(m, -s);
}

/* Can segments j, j-1, ... (down to ``stop``, at most SC_TAIL_SEGMENTS of them) lie backwards
 * from cell c on cells not in ``taken`` (c is), the first off ``axis``? When they can,
 * ``*fit`` is ``taken`` with the cells of the placement found. */
static int MASK(tail_fits)(const sc_segment *s, M taken, int64_t c, int64_t j, int64_t axis,
                           int64_t stop, M *fit) {
    int64_t d, r, row;
    M ray;
    if (j < stop || s->n_seg - 1 - j >= SC_TAIL_SEGMENTS) {
        *fit = taken;
        return 1;
    }
    row = (s->lidx[j] * s->n_cells + c) * 6;
    for (d = 0; d < 6; d++) {
        /* Step 1: each direction off the axis whose ray stays in the region on free cells. */
        r = row + d;
        if ((d >> 1) == axis || s->rend[r] < 0)
            continue;
        ray = MASK(load)(s->rmask, r);
        if (taken & ray)
            continue;
        /* Step 2: the segment before it, from the ray's far end. */
        if (MASK(tail_fits)(s, taken | ray, s->rend[r], j - 1, d >> 1, stop, fit))
            return 1;
    }
    return 0;
}

/* ``sc_segment_run`` with the occupancy in registers. */
static int32_t MASK(run)(sc_segment *s, int64_t max_nodes) {
    const int64_t *lidx = s->lidx, *rend = s->rend, *placed_after = s->placed_after;
    const uint64_t *rmask = s->rmask, *rhalo = s->rhalo, *nbmask = s->nbmask;
    uint64_t *witness = s->witness;
    int64_t *dirs = s->dirs, *nextd = s->nextd, *heads = s->heads, *endc = s->endc;
    int64_t *out = s->out;
    const int64_t n_seg = s->n_seg, n_cells = s->n_cells, flags = s->flags;
    const int64_t min_free = s->min_free, end_colour = s->end_colour, max_out = s->max_out;
    const M one = 1;
    const M colour = MASK(load)(s->colours, 0);
    const int parity = (flags & SC_PARITY) != 0;
    const M cells_mask = n_cells < (int64_t)(8 * sizeof(M)) ? MASK(bit)(n_cells) - one : ~(M)0;
    const int shifted = s->shifted;
    M occ = MASK(load)(s->occ, 0);
    uint64_t occ_words[2]; /* occ as words, for words_flood */
    int64_t level = s->level, base = s->base;
    int finished = 0;
    int64_t n_out = 0, nodes = 0;
    int64_t k, row, r, axis, d, e, last, x, i, j;
    M ray, cand, m, free_, reach, frontier, grow, fit, a1, a2, t;
    int ok, moved, more;
    M has[6]; /* in a box: the cells with a neighbour in direction j, and the */
    int64_t shift[6]; /* distance to it (sc_segment_set_shifts) */
    for (j = 0; j < 6; j++) {
        has[j] = shifted ? MASK(load)(s->has, j) : 0;
        shift[j] = s->shifts[j];
    }
    while (nodes < max_nodes) {
        if (level == n_seg) { /* a complete placement: report it, then step back */
            for (i = 0; i < n_seg; i++)
                out[n_out * n_seg + i] = dirs[i];
            n_out++;
            level--;
            occ ^= MASK(load)(rmask, (lidx[level] * n_cells + heads[level]) * 6 + dirs[level]);
            if (n_out == max_out)
                break;
            continue;
        }
        /* Step 1: try the next direction at this level. */
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
            ray = MASK(load)(rmask, r);
            if (occ & ray) {
                d++;
                continue;
            }
            /* Step 2: place the segment. */
            occ |= ray;
            nodes++;
            ok = 1;
            last = endc[k];
            /* Step 3: dead ends. Only free cells in the ray's halo can have lost a free
             * neighbour. One way in (counting the new head) means: the last cube. */
            if ((flags & SC_DEAD_END) && more && shifted) {
                /* Step 3 in a box: every cell's free neighbours counted up to two at once
                 * (a1: at least one, a2: at least two), six shifts of the free mask. */
                free_ = ~occ | MASK(bit)(e);
                cand = MASK(load)(rhalo, r) & ~occ;
                a1 = a2 = 0;
                for (j = 0; j < 6; j++) {
                    t = has[j] & MASK(shift)(free_, shift[j]);
                    a2 |= a1 & t;
                    a1 |= t;
                }
                m = cand & ~a2; /* no way in, or one */
                if (m) {
                    if ((m & ~a1) || (m & (m - one))) {
                        ok = 0; /* a cell with no way in, or two with one each */
                    } else {
                        x = MASK(low_bit)(m);
                        if (last >= 0 && last != x && !(occ & MASK(bit)(last)))
                            ok = 0;
                        else if (parity && (int64_t)((colour & MASK(bit)(x)) != 0) != end_colour)
                            ok = 0; /* the last cube's colour is fixed by parity */
                        else
                            last = x;
                    }
                }
            } else if ((flags & SC_DEAD_END) && more) {
                free_ = ~occ | MASK(bit)(e);
                cand = MASK(load)(rhalo, r) & ~occ;
                while (cand) {
                    x = MASK(low_bit)(cand);
                    cand &= cand - one;
                    m = MASK(load)(nbmask, x) & free_;
                    if (m == 0) {
                        ok = 0;
                        break;
                    }
                    if ((m & (m - one)) == 0) {
                        if (last >= 0 && last != x && !(occ & MASK(bit)(last))) {
                            ok = 0;
                            break;
                        }
                        if (parity && (int64_t)((colour & MASK(bit)(x)) != 0) != end_colour) {
                            ok = 0; /* the last cube's colour is fixed by parity */
                            break;
                        }
                        last = x;
                    }
                }
            }
            /* Step 3b: the last segments fit backwards from the last cube, if known. The cells
             * of the fit found at the node above (its witness) are reused while the last cube
             * stays and the new segment misses them: the same answer, cheaper. */
            fit = 0;
            if (ok && (flags & SC_TAIL) && last >= 0 && k + 2 < n_seg && !(occ & MASK(bit)(last))) {
                fit = MASK(load)(witness, k);
                if (!fit || last != endc[k] || (fit & ray)) {
                    fit = 0;
                    ok = MASK(tail_fits)(s, (occ | MASK(bit)(last)), last, n_seg - 1, -1, k + 2, &fit);
                    fit &= ~((occ | MASK(bit)(last)));
                }
            }
            /* Step 4: the free cells stay connected to the head (flood fill), while at least
             * min_free cells are free. */
            if (ok && (flags & SC_CONNECTED) && more && n_cells - placed_after[k] >= min_free) {
                free_ = ~occ & cells_mask;
                if (shifted) { /* Step 4a in a box: one ring further out, six shifts of it */
                    reach = frontier = MASK(load)(nbmask, e) & free_;
                    while (frontier) {
                        grow = 0;
                        for (j = 0; j < 6; j++)
                            grow |= has[j] & MASK(shift)(frontier, shift[j]);
                        frontier = grow & free_ & ~reach;
                        reach |= frontier;
                    }
                    ok = reach == free_;
                } else { /* Step 4a elsewhere: segment.c's flood fill, on the mask's words */
                    MASK(store)(occ_words, 0, occ);
                    ok = words_flood(nbmask, (int64_t)(sizeof(M) / 8), occ_words, e, s->reach,
                                     s->frontier) == n_cells - placed_after[k];
                }
            }
            if (!ok) {
                occ ^= ray;
                d++;
                continue;
            }
            dirs[k] = d;
            nextd[k] = d + 1;
            heads[k + 1] = e;
            endc[k + 1] = last;
            MASK(store)(witness, k + 1, fit);
            nextd[k + 1] = 0;
            level = k + 1;
            moved = 1;
            break;
        }
        if (!moved) { /* Step 5: no direction left here: step back. */
            nextd[k] = 6;
            if (level == base) {
                finished = 1;
                break;
            }
            level--;
            occ ^= MASK(load)(rmask, (lidx[level] * n_cells + heads[level]) * 6 + dirs[level]);
        }
    }
    s->level = level;
    MASK(store)(s->occ, 0, occ);
    s->finished = finished;
    s->nodes = nodes;
    return (int32_t)n_out;
}
