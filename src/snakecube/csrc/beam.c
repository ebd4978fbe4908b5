/* A beam search (see beam.h). Depth-first searches and restarts commit to one early choice at
 * a time and can spend their whole budget under a wrong one. A beam places the snake one
 * segment a level for a whole population of partial folds at once: every fold of the beam is
 * extended by each of its (up to four) turns, each child is checked exactly, and the
 * ``width`` best children by a score (below) make the next level's beam. It reaches the last
 * segment, or runs out of children. It is a heuristic (the width cuts folds that may lead to
 * solutions) except when no level ever had more children than ``width``: then it was a
 * breadth-first search of the whole tree, and dying proves that the snake does not fold
 * (``complete``).
 *
 * Every child is checked, exactly (a child is dropped only if it leads to no solution):
 *
 * 1. Dead ends: a free cell with no way in (no free neighbour, not next to the head), unless
 *    it is the last cell; a second free cell with only one way in (one is the end).
 * 2. Colours: the free cells are the rest of the path, which alternates colours from the
 *    cell after the head: their colour counts are fixed.
 * 3. Connected: every free cell is reached from the head through free cells. This check costs
 *    the most, so it is made last, in ``select_beam``, and only for the children the beam
 *    reaches in its order (the same beam as checking every child first).
 *
 * The score (lower is better) is twice the number of faces between a placed and a free cell
 * (the fold keeps to few, large walls); score kind 1 adds the number of free faces on the
 * target's walls. Ties are broken by a hash of the fold and the seed, so each seed gives its
 * own beam. Folds reached twice (the same cells, head and last axis) are kept once.
 */
#include "beam.h"

#define SCORE_OFFSET ((int64_t)1 << 20) /* keeps the key's score bits non-negative */
#define MAX_SCORE 4096                  /* above any score: 128 cells, 6 faces, 3 points a face */
#define HASH_BITS 40                    /* a key's hash bits, below its score */
#define INDEX_BITS (64 - HASH_BITS)     /* a child's index beside its hash bits, in a word */
#define RADIX_BITS 10                   /* the radix sort's digit, in bits */
#define RADIX (1 << RADIX_BITS)
#define INDEX_MASK (((uint64_t)1 << INDEX_BITS) - 1)

SC_INLINE int pc(sc_u128 m) {
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}

static inline uint64_t mix(uint64_t h) {
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 32;
    return h;
}

static inline int64_t cap_of(int32_t n, int32_t width) {
    int64_t a = 4 * (int64_t)width, b = 6 * (int64_t)n;
    return a > b ? a : b;
}

int32_t sc_beam_check(int32_t n, const int32_t *nb, const int32_t *colour,
                      const int32_t *lengths, int32_t n_seg, const int32_t *starts,
                      int32_t n_starts, const int32_t *offsets, const uint64_t *has) {
    if (!sc_ints_within(nb, 6 * (size_t)n, -1, n))
        return 1;
    if (!sc_ints_within(colour, (size_t)n, 0, 2))
        return 2;
    if (!sc_ints_within(lengths, (size_t)n_seg, 2, (int64_t)n + 1))
        return 3;
    if (!sc_ints_within(starts, (size_t)n_starts, 0, n))
        return 4;
    if (!sc_ints_within(offsets, 6, -(int64_t)n + 1, n))
        return 5;
    if (!sc_masks_within(has, 6, 2, n))
        return 6;
    return 0;
}

size_t sc_beam_bytes(int32_t n, int32_t n_seg, int32_t n_starts, int32_t width) {
    uint64_t cap = (uint64_t)cap_of(n, width), w = (uint64_t)width;
    uint64_t bytes = SC_ALIGN64(sizeof(sc_beam));
    bytes += SC_ALIGN64(6 * (uint64_t)n * sizeof(int32_t)) + SC_ALIGN64((uint64_t)n_seg * sizeof(int32_t));
    bytes += SC_ALIGN64((uint64_t)(n_starts > 0 ? n_starts : 1) * sizeof(int32_t));
    bytes += 2 * SC_ALIGN64(w * sizeof(sc_beam_state)) + SC_ALIGN64(cap * sizeof(sc_beam_child));
    bytes += 3 * SC_ALIGN64(cap * sizeof(uint64_t)) + SC_ALIGN64((MAX_SCORE + 1) * sizeof(int64_t));
    return sc_size(bytes);
}

sc_beam *sc_beam_init(void *block, int32_t n, const int32_t *nb, const int32_t *colour,
                      const int32_t *lengths, int32_t n_seg, const int32_t *starts,
                      int32_t n_starts, const int32_t *offsets, const uint64_t *has,
                      int32_t width, int32_t score_kind, uint32_t seed_lo, uint32_t seed_hi) {
    char *at = (char *)block;
    sc_beam *s = (sc_beam *)block;
    int64_t cap = cap_of(n, width);
    int32_t c, d, i;
    uint64_t seed = ((uint64_t)seed_hi << 32) | seed_lo;
    at += SC_ALIGN(sizeof(sc_beam));
    SC_TAKE(at, s->nb, int32_t, 6 * (size_t)n);
    SC_TAKE(at, s->lengths, int32_t, n_seg);
    SC_TAKE(at, s->starts, int32_t, n_starts > 0 ? n_starts : 1);
    SC_TAKE(at, s->cur, sc_beam_state, width);
    SC_TAKE(at, s->nxt, sc_beam_state, width);
    SC_TAKE(at, s->kids, sc_beam_child, cap);
    SC_TAKE(at, s->order, uint64_t, cap);
    SC_TAKE(at, s->spare, uint64_t, cap);
    SC_TAKE(at, s->keys, uint64_t, cap);
    SC_TAKE(at, s->counts, int64_t, MAX_SCORE + 1);
    for (i = 0; i < 6 * n; i++)
        s->nb[i] = nb[i];
    for (i = 0; i < n_seg; i++)
        s->lengths[i] = lengths[i];
    for (i = 0; i < n_starts; i++)
        s->starts[i] = starts[i];
    s->n = n;
    s->n_seg = n_seg;
    s->n_starts = n_starts;
    s->width = width;
    s->score_kind = score_kind;
    s->cap_kids = cap;
    s->seed = mix(seed + 0x9E3779B97F4A7C15ULL);
    s->all_cells = 0;
    s->even = 0;
    for (c = 0; c < n; c++) {
        s->all_cells |= sc_bit(c);
        if (colour[c] == 0)
            s->even |= sc_bit(c);
    }
    for (d = 0; d < 6; d++) {
        s->off[d] = offsets[d];
        s->has[d] = ((sc_u128)has[2 * d + 1] << 64) | (sc_u128)has[2 * d];
    }
    s->ncur = 0;
    s->level = -1;
    s->nodes = 0;
    s->done = s->found = 0;
    s->complete = 1;
    return s;
}

/* The cells whose neighbour in direction d is in m. */
SC_INLINE sc_u128 near(const sc_beam *s, sc_u128 m, int d) {
    int64_t o = s->off[d];
    if (o > 0)
        return sc_shr(m, (int)o) & s->has[d];
    return sc_shl(m, (int)-o) & s->has[d];
}

/* ``reach`` grown a ring at a time through the cells ``within``, until it holds ``goal`` or
 * grows no more. */
static sc_u128 grow(const sc_beam *s, sc_u128 reach, sc_u128 within, sc_u128 goal) {
    sc_u128 prev = 0, grown;
    int d;
    while (reach != prev && (goal & ~reach)) {
        /* Step: one ring more, the neighbours of what is reached, inside ``within``. */
        prev = reach;
        grown = reach;
        for (d = 0; d < 6; d++)
            grown |= near(s, reach, d);
        reach = grown & within;
    }
    return reach;
}

/* Check 3: every free cell is reached from the head through free cells. */
static int connected(const sc_beam *s, sc_u128 occ, int32_t head) {
    sc_u128 fr = s->all_cells & ~occ, reach = 0;
    int d, hd;
    for (d = 0; d < 6; d++) {
        hd = s->nb[head * 6 + d];
        if (hd >= 0)
            reach |= sc_bit(hd);
    }
    return (grow(s, reach & fr, fr, fr) & fr) == fr;
}

/* Check 3 for a child of a fold of the beam. The parent's free cells and its head were
 * joined; the child's free cells and head lose the parent's head and the new segment's cells
 * before the child's head. They stay joined if the cells next to those are joined by cells
 * near them (any path through them goes round). If that local test fails, the whole free
 * part is grown (``connected``). */
static int connected_child(const sc_beam *s, const sc_beam_child *k) {
    sc_u128 head = sc_bit(k->head), gone, avail, near1, local, front;
    const sc_beam_state *p;
    int d;
    if (s->level < 0)
        return connected(s, k->occ, k->head);
    p = &s->cur[k->parent];
    gone = ((k->occ & ~p->occ) | sc_bit(p->head)) & ~head;
    avail = (s->all_cells & ~k->occ) | head;
    /* Step: the cells next to those gone, and the cells at most two steps from them. */
    near1 = gone;
    for (d = 0; d < 6; d++)
        near1 |= near(s, gone, d);
    local = near1;
    for (d = 0; d < 6; d++)
        local |= near(s, near1, d);
    front = near1 & avail;
    /* Step: grow from the child's head through the cells near by. */
    if ((front & ~grow(s, head, local & avail, front)) == 0)
        return 1;
    return connected(s, k->occ, k->head);
}

/* -1 if checks 1 and 2 show that no solution goes on from this fold, else its score. Check 3
 * (``connected``) is left to ``select_beam``, for the children the beam reaches. */
SC_INLINE int64_t score(const sc_beam *s, sc_u128 occ, int32_t head) {
    sc_u128 fr = s->all_cells & ~occ, m, a = 0, b = 0, near_head = 0;
    int64_t left = pc(fr), even_free, want, faces = 0;
    int d, hd;
    if (left == 0)
        return 0;
    /* Step 2: colours. The cell after the head has the other colour; the rest alternate. */
    even_free = pc(fr & s->even);
    want = (s->even & sc_bit(head)) ? left / 2 : (left + 1) / 2;
    if (even_free != want)
        return -1;
    /* Step 1: dead ends, counting free neighbours on shifted masks (a: >= 1, b: >= 2). */
    for (d = 0; d < 6; d++) {
        hd = s->nb[head * 6 + d];
        if (hd >= 0)
            near_head |= sc_bit(hd);
        m = near(s, fr, d);
        b |= a & m;
        a |= m;
    }
    if ((fr & ~a & ~near_head) && left > 1)
        return -1;
    m = (fr & a & ~b & ~near_head) | (fr & ~a & near_head); /* one way in: the end */
    if (m & (m - 1))
        return -1;
    if ((fr & near_head) == 0)
        return -1;
    /* The score: faces between placed and free cells, twice, and (kind 1) free wall faces. */
    for (d = 0; d < 6; d++) {
        faces += 2 * pc(near(s, occ, d) & fr);
        if (s->score_kind == 1)
            faces += pc(fr & ~s->has[d]);
    }
    return faces;
}

/* Check a child and keep it with its key. */
SC_INLINE void add(sc_beam *s, int64_t *nk, sc_u128 occ, int32_t head, int32_t d,
                       int32_t parent) {
    int64_t sc;
    uint64_t h;
    sc_beam_child *k;
    s->nodes += 1;
    sc = score(s, occ, head);
    if (sc < 0)
        return;
    h = mix((uint64_t)occ ^ s->seed);
    h = mix(h ^ (uint64_t)(occ >> 64) ^ ((uint64_t)(head * 3 + d / 2) << 48));
    k = &s->kids[*nk];
    s->keys[*nk] = ((uint64_t)(sc + SCORE_OFFSET) << HASH_BITS) | (h >> (64 - HASH_BITS));
    k->occ = occ;
    k->parent = parent;
    k->head = head;
    k->dir = d;
    *nk += 1;
}

/* Children of the first segment: from every start cell, in every direction. */
SC_COUNTS_BITS static int64_t first_level(sc_beam *s) {
    int64_t nk = 0;
    int32_t i, c, d, j, h;
    sc_u128 occ;
    for (i = 0; i < s->n_starts; i++) {
        c = s->starts[i];
        for (d = 0; d < 6; d++) {
            /* Step: the first segment from start cell c, going d, if it stays inside. */
            h = c;
            occ = sc_bit(c);
            for (j = 1; j < s->lengths[0]; j++) {
                h = s->nb[h * 6 + d];
                if (h < 0)
                    break;
                occ |= sc_bit(h);
            }
            if (h < 0)
                continue;
            add(s, &nk, occ, h, d, c);
        }
    }
    return nk;
}

/* Children of the beam's folds: the next segment, each of four turns. */
SC_COUNTS_BITS static int64_t expand(sc_beam *s) {
    int64_t nk = 0, i;
    int32_t length = s->lengths[s->level + 1], d, j, h;
    sc_u128 occ, one;
    const sc_beam_state *st;
    for (i = 0; i < s->ncur; i++) {
        st = &s->cur[i];
        for (d = 0; d < 6; d++) {
            /* Step: a turn (never along the last segment's axis) onto free cells only. */
            if (d / 2 == st->dir / 2)
                continue;
            h = st->head;
            occ = st->occ;
            for (j = 1; j < length; j++) {
                h = s->nb[h * 6 + d];
                if (h < 0)
                    break;
                one = sc_bit(h);
                if (occ & one) {
                    h = -1;
                    break;
                }
                occ |= one;
            }
            if (h < 0)
                continue;
            add(s, &nk, occ, h, d, (int32_t)i);
        }
    }
    return nk;
}

/* The words ``order[start:end]`` (one score's children, in the order made) in rising order: by
 * hash, then by index, that is by key, then by the order made. A stable radix sort on the
 * hash bits, or insertion for a small group. */
static void sort_group(sc_beam *s, int64_t start, int64_t end) {
    int64_t i, j, n = end - start;
    int64_t pos[RADIX + 1];
    uint64_t *a = &s->order[start], *b = s->spare, *swap, x;
    int shift, digit;
    if (n < 64) {
        for (i = 1; i < n; i++) {
            /* Step: insert word a[i] after every smaller word. */
            x = a[i];
            j = i - 1;
            while (j >= 0 && a[j] > x) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
        return;
    }
    for (shift = INDEX_BITS; shift < 64; shift += RADIX_BITS) {
        /* Step: one stable counting pass on the next RADIX_BITS bits of the hash. */
        for (digit = 0; digit < RADIX + 1; digit++)
            pos[digit] = 0;
        for (i = 0; i < n; i++)
            pos[((a[i] >> shift) & (RADIX - 1)) + 1] += 1;
        for (digit = 0; digit < RADIX; digit++)
            pos[digit + 1] += pos[digit];
        for (i = 0; i < n; i++) {
            digit = (int)((a[i] >> shift) & (RADIX - 1));
            b[pos[digit]] = a[i];
            pos[digit] += 1;
        }
        swap = a;
        a = b;
        b = swap;
    }
    if (a != &s->order[start]) /* an odd number of passes left the result in the spare */
        for (i = 0; i < n; i++)
            s->order[start + i] = a[i];
}

/* The ``width`` best children, each fold once, become the beam: in the order of (key, order
 * made), leaving out those whose free cells are split (check 3, made here and only for the
 * children the beam reaches). Children are grouped by score first (a counting sort), and
 * only the groups the beam reaches are sorted. */
static void select_beam(sc_beam *s, int64_t nk) {
    int64_t i, g, m = 0, at, start, end, sc, top = 0;
    int32_t rel, axis, bit;
    const sc_beam_child *k, *last = 0;
    uint64_t last_hash = 0, hash_bits;
    sc_beam_state *t, *swap;
    const sc_beam_state *p;
    int full = 0;
    /* Step: count the children per score, and where each score's group starts. */
    for (sc = 0; sc < MAX_SCORE + 1; sc++)
        s->counts[sc] = 0;
    for (i = 0; i < nk; i++) {
        sc = (int64_t)(s->keys[i] >> HASH_BITS) - SCORE_OFFSET;
        s->counts[sc] += 1;
        if (sc > top)
            top = sc;
    }
    at = 0;
    for (sc = 0; sc < top + 1; sc++) {
        g = s->counts[sc];
        s->counts[sc] = at;
        at += g;
    }
    for (i = 0; i < nk; i++) {
        /* Step: child i's word (its hash bits over its index) into its score's group. */
        sc = (int64_t)(s->keys[i] >> HASH_BITS) - SCORE_OFFSET;
        s->order[s->counts[sc]] = (s->keys[i] << INDEX_BITS) | (uint64_t)i;
        s->counts[sc] += 1;
    }
    /* Step: the groups best first, each sorted by key; a fold seen just before is skipped,
     * and so is a fold whose free cells are split. */
    start = 0;
    for (sc = 0; sc < top + 1; sc++) {
        end = s->counts[sc];
        if (end == start)
            continue;
        if (full) {
            /* Step: a beam that is full is complete only if no connected fold is left out. */
            for (i = start; i < nk; i++) {
                k = &s->kids[s->order[i] & INDEX_MASK];
                if (connected_child(s, k)) {
                    s->complete = 0;
                    break;
                }
            }
            break;
        }
        sort_group(s, start, end);
        last = 0;
        for (i = start; i < end; i++) {
            /* Step: fetch ahead the children (and their parents) the beam reads next. */
            if (i + 16 < end)
                __builtin_prefetch(&s->kids[s->order[i + 16] & INDEX_MASK]);
            if (i + 8 < end && s->level >= 0)
                __builtin_prefetch(&s->cur[s->kids[s->order[i + 8] & INDEX_MASK].parent]);
            k = &s->kids[s->order[i] & INDEX_MASK];
            hash_bits = s->order[i] >> INDEX_BITS; /* the score is the group's */
            if (last != 0 && hash_bits == last_hash && k->occ == last->occ
                && k->head == last->head)
                continue;
            last = k;
            last_hash = hash_bits;
            if (!connected_child(s, k))
                continue;
            if (m == s->width) {
                s->complete = 0;
                full = 1;
                break;
            }
            t = &s->nxt[m];
            t->occ = k->occ;
            t->head = k->head;
            t->dir = k->dir;
            if (s->level < 0) {
                t->start = k->parent;
                t->first = k->dir;
                t->path[0] = t->path[1] = t->path[2] = t->path[3] = 0;
            } else {
                p = &s->cur[k->parent];
                t->start = p->start;
                t->first = p->first;
                t->path[0] = p->path[0];
                t->path[1] = p->path[1];
                t->path[2] = p->path[2];
                t->path[3] = p->path[3];
                axis = p->dir / 2;
                rel = k->dir - 2 * (k->dir / 2 > axis);
                bit = 2 * s->level; /* segment level + 1 is stored at bits 2 * level */
                t->path[bit / 64] |= (uint64_t)rel << (bit % 64);
            }
            m += 1;
        }
        if (full)
            break;
        if (m == s->width)
            full = 1;
        start = end;
    }
    swap = s->cur;
    s->cur = s->nxt;
    s->nxt = swap;
    s->ncur = m;
    s->level += 1;
}

int32_t sc_beam_run(sc_beam *s, int32_t budget) {
    int64_t nk, until = s->nodes + budget;
    if (s->done)
        return 1;
    while (s->nodes < until) {
        /* Step: one level: make and check the children, keep the best. */
        nk = s->level < 0 ? first_level(s) : expand(s);
        select_beam(s, nk);
        if (s->ncur == 0) {
            s->done = 1;
            break;
        }
        if (s->level == s->n_seg - 1) {
            s->done = s->found = 1;
            break;
        }
    }
    return s->done;
}

int32_t sc_beam_done(const sc_beam *s) { return s->done; }

int32_t sc_beam_found(const sc_beam *s) { return s->found; }

int32_t sc_beam_complete(const sc_beam *s) { return s->complete; }

double sc_beam_nodes(const sc_beam *s) { return (double)s->nodes; }

int32_t sc_beam_level(const sc_beam *s) { return s->level; }

int32_t sc_beam_folds(const sc_beam *s) { return (int32_t)s->ncur; }

int32_t sc_beam_solution(const sc_beam *s, int32_t *dirs) {
    const sc_beam_state *st = &s->cur[0];
    int32_t k, rel, d = st->first, bit;
    dirs[0] = d;
    for (k = 1; k < s->n_seg; k++) {
        /* Step: segment k's turn, two bits, read against the segment before's axis. */
        bit = 2 * (k - 1);
        rel = (int32_t)((st->path[bit / 64] >> (bit % 64)) & 3);
        d = rel + 2 * (rel / 2 >= d / 2);
        dirs[k] = d;
    }
    return st->start;
}
