/* The first-solution search (see first.h). It places whole segments depth first, like the
 * counting kernel, but it is built for snakes that turn at almost every cube (floppy snakes)
 * in big targets, where a deep subtree can fail only at its bottom. Every node checks,
 * exactly (a subtree is cut only if it holds no solution), with the free cells F and the
 * head h as a graph:
 *
 * 1. Dead ends (always): a free cell with no way in; a second free cell with only one (the
 *    end); the end's colour (parity).
 * 2. Blocks (SC_FIRST_BLOCKS, Tarjan's algorithm from h): F must be connected to h; h must not
 *    separate F (the path leaves h once); a free cell v that separates F can only be passed
 *    once, so it splits F into the part walked before v and the part walked after, where the
 *    end lies; the part before must be walkable from h to v: its colours must alternate.
 * 3. Forced passages (SC_FIRST_FORCED): a free cell with exactly two ways on (not the end)
 *    must be passed through both. A cell with three forced edges, a head with two, or forced
 *    edges closing a cycle, cannot be. A passage straight through a cell needs a straight
 *    cube and one that turns a corner; there must be enough of each left in the snake.
 * 4. Straight runs (SC_FIRST_RUNS): for each length L >= 3, the segments of at least L cubes
 *    still to come (after the next one) must not outnumber the disjoint runs of L free cells
 *    along the lines of the target (summed over the three axes: an upper bound).
 * 5. The tail (SC_FIRST_TAIL): once the end cell is known (a free cell with one way in), the
 *    last segments of the snake must fit backwards from it, up to SC_TAIL_SEGMENTS of them.
 * 6. The sweep (SC_FIRST_SWEEP, sc_first_set_layers): not a pruning but a restriction: the
 *    placed cubes may reach at most ``width`` layers past the first layer that still has a
 *    free cell. It can cut every solution, so a finished sweep proves nothing.
 *
 * The middle-out search (``sc_arms_init``) places a pivot segment first and grows two arms
 * to the snake's two ends, with the dead ends (1) counted for both heads, the fewest-ways
 * order and the sweep; the other checks assume one head.
 *
 * Decided: two walks (``run_from_end``, ``run_middle_out``) sharing their steps back and their
 * walk over the cells beside a new segment (``ends_beside``), each with its own step between.
 * Rejected: one loop for both orders, with one dead-end test for one end or two arms. It was
 * built and measured against these, interleaved in one run, CPU time inside the search: from
 * an end with all checks 1.11x with gcc and 1.00x with clang, middle out 1.02-1.06x with gcc
 * and 1.20-1.26x with clang (the compiler of the WebAssembly module), about 1.03-1.05x
 * through the built extension; the cost was in code generation (one function branching on
 * the number of arms at run time), not per node. An always-inlined body taking the arms as
 * a constant brought middle out back to 1.00 but left 1.04x from an end.
 */
#include "first.h"

static inline int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }

int32_t sc_first_check(const int32_t *nb, const int32_t *colour, const int32_t *lengths,
                       int32_t n, int32_t n_seg) {
    if (!sc_ints_within(nb, 6 * (size_t)n, -1, n))
        return 1;
    if (!sc_ints_within(colour, (size_t)n, 0, 2))
        return 2;
    if (!sc_ints_within(lengths, (size_t)n_seg, 2, (int64_t)max32(n, 2) + 1))
        return 3;
    return 0;
}

size_t sc_first_bytes(int32_t n, int32_t n_seg, int32_t max_len) {
    uint64_t c = (uint64_t)max32(n, 1), m = (uint64_t)n_seg + 1, i4 = sizeof(int32_t);
    uint64_t bytes = SC_ALIGN64(sizeof(sc_first));
    bytes += SC_ALIGN64(6 * c * i4) + 2 * SC_ALIGN64(c * i4) + SC_ALIGN64(c);  /* nb colour deg free */
    bytes += 3 * SC_ALIGN64(m * i4);                 /* lengths, straights_after, corners_after */
    bytes += 4 * SC_ALIGN64(m * i4) + SC_ALIGN64(6 * m * i4);  /* heads dirs nextd endc, order */
    bytes += 9 * SC_ALIGN64((c + 1) * i4);           /* disc .. uf */
    bytes += SC_ALIGN64((6 * c + 1) * i4);           /* lines */
    bytes += SC_ALIGN64(((uint64_t)n_seg + 2) * ((uint64_t)max_len + 1) * i4); /* need */
    bytes += SC_ALIGN64(c * i4) + 2 * SC_ALIGN64((c + 1) * i4);  /* layer, lfree, lsize */
    bytes += 2 * SC_ALIGN64(c * i4);                 /* near, near_b */
    bytes += 9 * SC_ALIGN64(m * i4);                 /* arm .. endc2 */
    return sc_size(bytes);
}

static void fill(int32_t *a, size_t count, int32_t value) {
    size_t i;
    for (i = 0; i < count; i++)
        a[i] = value;
}

/* -- the state ------------------------------------------------------------------------------ */
static inline void take(sc_first *s, int32_t x) {
    int32_t k, y;
    s->free[x] = 0;
    s->lfree[s->layer[x]] -= 1;
    for (k = 0; k < 6; k++) {
        y = s->nb[x * 6 + k];
        if (y >= 0)
            s->deg[y] -= 1;
    }
}

static inline void give(sc_first *s, int32_t x) {
    int32_t k, y;
    s->free[x] = 1;
    s->lfree[s->layer[x]] += 1;
    for (k = 0; k < 6; k++) {
        y = s->nb[x * 6 + k];
        if (y >= 0)
            s->deg[y] += 1;
    }
}

static inline uint64_t rand64(sc_first *s) { /* xorshift64* */
    s->seed ^= s->seed >> 12;
    s->seed ^= s->seed << 25;
    s->seed ^= s->seed >> 27;
    return s->seed * (uint64_t)0x2545F4914F6CDD1DULL;
}

/* The far end of a segment of ``length`` cubes from x in direction d, if every cell after x
 * is free; else -1. */
static inline int32_t reach(const sc_first *s, int32_t x, int32_t d, int32_t length) {
    int32_t i;
    for (i = 0; i < length - 1; i++) {
        x = s->nb[x * 6 + d];
        if (x < 0 || !s->free[x])
            return -1;
    }
    return x;
}

/* The order of directions to try at level k, for a segment of ``length`` cubes from
 * ``head``: a random permutation, then (with SC_FIRST_FEWEST_WAYS) a stable sort by the ways
 * on from the segment's end, fewest first. Directions along ``axis`` (the segment before; -1
 * for none) are never tried, so they are not scored. */
static void order_level(sc_first *s, int32_t k, int32_t head, int32_t length, int32_t axis) {
    int32_t i, j, t, x, d;
    int32_t score[6];
    int32_t *order = s->order + k * 6;
    for (i = 0; i < 6; i++)
        order[i] = i;
    for (i = 5; i > 0; i--) {
        j = (int32_t)(rand64(s) % (uint64_t)(i + 1));
        t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    if (!(s->checks & SC_FIRST_FEWEST_WAYS) || k >= s->n_seg)
        return;
    for (d = 0; d < 6; d++) {
        x = (d >> 1) == axis ? -1 : reach(s, head, d, length);
        /* the end's free neighbours, less the segment's own cell before it */
        score[d] = x < 0 ? 99 : s->deg[x] - 1;
    }
    for (i = 1; i < 6; i++) { /* insertion sort, stable */
        t = order[i];
        j = i - 1;
        while (j >= 0 && score[order[j]] > score[t]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = t;
    }
}

/* The order of directions to try at level k (see ``order_level``), from an end. */
static void shuffle(sc_first *s, int32_t k) {
    if (k > s->deepest)
        s->deepest = k;
    order_level(s, k, s->heads[k], k < s->n_seg ? s->lengths[k] : 2,
                k > 0 ? s->dirs[k - 1] >> 1 : -1);
}

/* Lines along each axis (for check 4) and the long segments still to come. */
static void make_lines(sc_first *s) {
    int32_t a, i, x, k, L, at = 0, m = s->n_seg, width;
    for (a = 0; a < 3; a++) { /* a line starts at each cell with no neighbour before it */
        for (i = 0; i < s->n; i++) {
            if (s->nb[i * 6 + 2 * a + 1] < 0) {
                x = i;
                while (x >= 0) {
                    s->lines[at++] = x;
                    x = s->nb[x * 6 + 2 * a];
                }
                s->lines[at++] = -1;
            }
        }
    }
    s->n_lines = at;
    s->max_len = 2;
    for (k = 0; k < m; k++)
        if (s->lengths[k] > s->max_len)
            s->max_len = s->lengths[k];
    width = s->max_len + 1;
    fill(s->need, ((size_t)m + 2) * (size_t)width, 0);
    for (k = m - 1; k >= 0; k--)
        for (L = 0; L < width; L++)
            s->need[k * width + L] = s->need[(k + 1) * width + L] + (s->lengths[k] >= L);
}

sc_first *sc_first_init(void *block, const int32_t *nb, const int32_t *colour,
                        const int32_t *lengths, int32_t n, int32_t n_seg, int32_t start,
                        int32_t end_colour, uint32_t seed_lo, uint32_t seed_hi, int32_t checks,
                        int32_t end) {
    char *at = (char *)block;
    sc_first *s = (sc_first *)block;
    size_t c = (size_t)max32(n, 1), m = (size_t)n_seg + 1, i;
    int32_t k, st, co, max_len = 2;
    uint64_t seed = ((uint64_t)seed_hi << 32) | seed_lo;
    for (k = 0; k < n_seg; k++)
        max_len = max32(max_len, lengths[k]);
    at += SC_ALIGN(sizeof(sc_first));
    SC_TAKE(at, s->nb, int32_t, 6 * c);
    SC_TAKE(at, s->colour, int32_t, c);
    SC_TAKE(at, s->deg, int32_t, c);
    SC_TAKE(at, s->free, uint8_t, c);
    SC_TAKE(at, s->lengths, int32_t, m);
    SC_TAKE(at, s->straights_after, int32_t, m);
    SC_TAKE(at, s->corners_after, int32_t, m);
    SC_TAKE(at, s->heads, int32_t, m);
    SC_TAKE(at, s->dirs, int32_t, m);
    SC_TAKE(at, s->nextd, int32_t, m);
    SC_TAKE(at, s->endc, int32_t, m);
    SC_TAKE(at, s->order, int32_t, 6 * m);
    SC_TAKE(at, s->disc, int32_t, c + 1);
    SC_TAKE(at, s->low, int32_t, c + 1);
    SC_TAKE(at, s->parent, int32_t, c + 1);
    SC_TAKE(at, s->stack, int32_t, c + 1);
    SC_TAKE(at, s->it, int32_t, c + 1);
    SC_TAKE(at, s->size, int32_t, c + 1);
    SC_TAKE(at, s->ones, int32_t, c + 1);
    SC_TAKE(at, s->fcount, int32_t, c + 1);
    SC_TAKE(at, s->uf, int32_t, c + 1);
    SC_TAKE(at, s->lines, int32_t, 6 * c + 1);
    SC_TAKE(at, s->need, int32_t, ((size_t)n_seg + 2) * ((size_t)max_len + 1));
    SC_TAKE(at, s->layer, int32_t, c);
    SC_TAKE(at, s->lfree, int32_t, c + 1);
    SC_TAKE(at, s->lsize, int32_t, c + 1);
    SC_TAKE(at, s->near, int32_t, c);
    SC_TAKE(at, s->near_b, int32_t, c);
    SC_TAKE(at, s->arm, int32_t, m);
    SC_TAKE(at, s->seg, int32_t, m);
    SC_TAKE(at, s->head_a, int32_t, m);
    SC_TAKE(at, s->head_b, int32_t, m);
    SC_TAKE(at, s->axis_a, int32_t, m);
    SC_TAKE(at, s->axis_b, int32_t, m);
    SC_TAKE(at, s->done_a, int32_t, m);
    SC_TAKE(at, s->done_b, int32_t, m);
    SC_TAKE(at, s->endc2, int32_t, m);
    s->n = n;
    s->n_seg = n_seg;
    s->end_colour = end_colour;
    s->seed = seed ? seed : (uint64_t)0x9E3779B97F4A7C15ULL;
    s->checks = checks;
    s->arms = 0;
    for (i = 0; i < 6 * (size_t)n; i++)
        s->nb[i] = nb[i];
    for (i = 0; i < (size_t)n; i++) {
        s->colour[i] = colour[i];
        s->free[i] = 1;
        s->deg[i] = 0;
        for (k = 0; k < 6; k++)
            if (s->nb[i * 6 + k] >= 0)
                s->deg[i] += 1;
    }
    for (i = 0; i < (size_t)n_seg; i++)
        s->lengths[i] = lengths[i];
    fill(s->heads, m, 0);
    fill(s->dirs, m, -1);
    fill(s->nextd, m, 0);
    fill(s->endc, m, -1);
    s->endc[0] = end;
    fill(s->order, 6 * m, 0);
    fill(s->straights_after, m, 0);
    fill(s->corners_after, m, 0);
    st = co = 0;
    for (k = n_seg - 1; k >= 0; k--) {
        st += s->lengths[k] - 2;
        s->straights_after[k] = st;
        s->corners_after[k] = co;
        co += 1;
    }
    fill(s->disc, c + 1, 0);
    fill(s->low, c + 1, 0);
    fill(s->parent, c + 1, 0);
    fill(s->stack, c + 1, 0);
    fill(s->it, c + 1, 0);
    fill(s->size, c + 1, 0);
    fill(s->ones, c + 1, 0);
    fill(s->fcount, c + 1, 0);
    fill(s->uf, c + 1, 0);
    make_lines(s);
    s->n_layers = 0;
    s->window = 0;
    fill(s->layer, c, 0);
    fill(s->lfree, c + 1, 0);
    fill(s->lsize, c + 1, 0);
    fill(s->near, c, 0);
    fill(s->near_b, c, 0);
    s->stamp = 0;
    s->level = 0;
    s->deepest = 0;
    s->heads[0] = start;
    take(s, start);
    s->nodes = 0;
    s->found = 0;
    s->finished = 0;
    shuffle(s, 0);
    return s;
}

sc_first *sc_arms_init(void *block, const int32_t *nb, const int32_t *colour,
                       const int32_t *lengths, int32_t n, int32_t n_seg, int32_t pivot,
                       int32_t start, int32_t first_colour, uint32_t seed_lo, uint32_t seed_hi,
                       int32_t checks) {
    sc_first *s = sc_first_init(block, nb, colour, lengths, n, n_seg, start, first_colour,
                                seed_lo, seed_hi, checks, -1);
    size_t m = (size_t)n_seg + 1;
    int32_t cubes = 1, j;
    for (j = 0; j < n_seg; j++)
        cubes += lengths[j] - 1;
    s->arms = 1;
    s->pivot = pivot;
    s->colour_b = first_colour;                       /* cube 1, arm B's end */
    s->colour_a = first_colour ^ ((cubes - 1) & 1);   /* the last cube, arm A's end */
    fill(s->arm, m, 0);
    fill(s->seg, m, 0);
    fill(s->head_a, m, start);
    fill(s->head_b, m, start);
    fill(s->axis_a, m, -1);
    fill(s->axis_b, m, -1);
    fill(s->done_a, m, 0); /* segments each arm has placed (A's counts the pivot) */
    fill(s->done_b, m, 0);
    fill(s->endc2, m, -1);
    s->seg[0] = pivot;
    order_level(s, 0, start, s->lengths[pivot], -1);
    return s;
}

void sc_first_set_layers(sc_first *s, const int32_t *layers, int32_t width) {
    int32_t x;
    s->n_layers = 0;
    for (x = 0; x < s->n; x++)
        s->n_layers = max32(s->n_layers, layers[x] + 1);
    for (x = 0; x < s->n_layers; x++) {
        s->lfree[x] = 0;
        s->lsize[x] = 0;
    }
    for (x = 0; x < s->n; x++) {
        s->layer[x] = layers[x];
        s->lsize[s->layer[x]] += 1;
        s->lfree[s->layer[x]] += s->free[x];
    }
    s->window = width;
    s->checks |= SC_FIRST_SWEEP;
}

void sc_first_set_window(sc_first *s, int32_t direction, int32_t width) {
    int32_t x, y, steps, back = direction ^ 1;
    for (x = 0; x < s->n; x++) { /* the layers, in the scratch for them */
        steps = 0;
        y = s->nb[x * 6 + back];
        while (y >= 0 && steps < s->n - 1) { /* a line has at most n cells */
            steps++;
            y = s->nb[y * 6 + back];
        }
        s->disc[x] = steps;
    }
    sc_first_set_layers(s, s->disc, width);
}

int32_t sc_first_push(sc_first *s, int32_t d) {
    int32_t k = s->level, x = s->heads[k], i;
    if (s->arms || k >= s->n_seg || d < 0 || d > 5)
        return 0;
    for (i = 0; i < s->lengths[k] - 1; i++) { /* the segment must lie on free cells */
        x = s->nb[x * 6 + d];
        if (x < 0 || !s->free[x])
            return 0;
    }
    x = s->heads[k];
    for (i = 0; i < s->lengths[k] - 1; i++) {
        x = s->nb[x * 6 + d];
        take(s, x);
    }
    s->dirs[k] = d;
    s->heads[k + 1] = x;
    s->endc[k + 1] = -1;
    s->nextd[k + 1] = 0;
    s->level = k + 1;
    shuffle(s, k + 1);
    return 1;
}

/* -- the checks ------------------------------------------------------------------------------ */
/* The next direction in level k's order that turns off ``axis`` and whose segment fits from
 * ``head``; -1 when the level has none left. */
static inline int32_t next_direction(sc_first *s, int32_t k, int32_t head, int32_t axis,
                                     int32_t length) {
    int32_t d;
    while (s->nextd[k] < 6) {
        d = s->order[k * 6 + s->nextd[k]];
        s->nextd[k] += 1;
        if ((d >> 1) != axis && reach(s, head, d, length) >= 0)
            return d;
    }
    return -1;
}

/* Take the segment's cells after ``head`` along d (a node); its far end. */
static inline int32_t place(sc_first *s, int32_t head, int32_t d, int32_t length) {
    int32_t i, x = head;
    for (i = 0; i < length - 1; i++) {
        x = s->nb[x * 6 + d];
        take(s, x);
    }
    s->nodes += 1;
    return x;
}

static void undo(sc_first *s, int32_t head, int32_t d, int32_t length) {
    int32_t i, x = head;
    for (i = 0; i < length - 1; i++) {
        x = s->nb[x * 6 + d];
        give(s, x);
    }
}

static inline void new_stamp(sc_first *s) {
    int32_t x;
    if (s->stamp == 0x7FFFFFFF) { /* wrapped: clear the old marks */
        for (x = 0; x < s->n; x++) {
            s->near[x] = 0;
            s->near_b[x] = 0;
        }
        s->stamp = 0;
    }
    s->stamp += 1;
}

/* near[c] = stamp for the cells next to h (none if h < 0). */
static inline void mark_near(sc_first *s, int32_t h, int32_t *near) {
    int32_t j, y;
    if (h < 0)
        return;
    for (j = 0; j < 6; j++) {
        y = s->nb[h * 6 + j];
        if (y >= 0)
            near[y] = s->stamp;
    }
}

static inline int32_t touches(const sc_first *s, int32_t y, int32_t e) {
    int32_t j;
    for (j = 0; j < 6; j++)
        if (s->nb[y * 6 + j] == e)
            return 1;
    return 0;
}

/* ``ends_beside``'s colour for the middle-out search, whose ends' colours are checked later
 * (``ends_fit``). Not -1: an end colour of -1 from an end means no cell may be the end, as
 * ``is_forced`` reads it too (a colour is 0 or 1). */
#define ANY_COLOUR INT32_MIN

/* The free cells beside the segment of ``length`` cells from ``old`` along d, each with its
 * ways in (free neighbours, and the neighbours of a head marked at this stamp): 0 (cut) when
 * one has none, or when one with a single way in, an end of the snake, is not one of the
 * ``cap`` ends known in ``ends`` (-1: not known yet) and no place is left for it, or is not
 * of ``colour`` (unless ANY_COLOUR); else 1, with the ends found in ``ends``. */
static int ends_beside(sc_first *s, int32_t old, int32_t d, int32_t length, int32_t *ends,
                       int32_t cap, int32_t colour) {
    int32_t i, j, c, x = old, y, ways;
    for (i = 0; i < length; i++) {
        for (j = 0; j < 6; j++) {
            y = s->nb[x * 6 + j];
            if (y < 0 || !s->free[y])
                continue;
            ways = s->deg[y] + (s->near[y] == s->stamp) + (s->near_b[y] == s->stamp);
            if (ways == 0)
                return 0;
            if (ways > 1)
                continue;
            for (c = 0; c < cap && ends[c] != y; c++)
                ;
            if (c == cap) /* a new end: the first place free, if any */
                for (c = 0; c < cap && ends[c] >= 0; c++)
                    ;
            if (c == cap || (colour != ANY_COLOUR && s->colour[y] != colour))
                return 0;
            ends[c] = y;
        }
        if (i + 1 < length)
            x = s->nb[x * 6 + d];
    }
    return 1;
}

/* Free cells next to the new segment (or the old head) with no way in, or a second with one
 * way in (the end, of the end's colour): -2 to cut; else the end cell if known, or -1. */
static int32_t dead_ends(sc_first *s, int32_t k, int32_t old, int32_t d, int32_t e) {
    int32_t last = s->endc[k];
    if (k + 1 == s->n_seg)
        return last;
    if (last >= 0 && !s->free[last])
        last = -1;
    new_stamp(s);
    mark_near(s, e, s->near);
    return ends_beside(s, old, d, s->lengths[k], &last, 1, s->end_colour) ? last : -2;
}

/* Is x in the DFS subtree of root (discovered while root was open)? */
static inline int inside(const sc_first *s, int32_t x, int32_t root) {
    return s->disc[x] >= s->disc[root] && s->disc[x] < s->disc[root] + s->size[root];
}

/* Tarjan from the head over the free cells (check 2). */
static int blocks(sc_first *s, int32_t h, int32_t end) {
    int32_t n = s->n, top, v, w, visited = 0, root_children = 0;
    int32_t nfree = 0, i, before, ones_before, want_ones, c_h = s->colour[h];
    int32_t t = 1, ones_total = c_h;
    for (i = 0; i < n; i++) {
        s->disc[i] = 0;
        s->fcount[i] = 0; /* here: subtrees each cell separates */
        if (s->free[i]) {
            nfree += 1;
            ones_total += s->colour[i];
        }
    }
    /* iterative DFS: stack of cells, it[] = next neighbour index to look at */
    s->disc[h] = t;
    s->low[h] = t;
    s->parent[h] = -1;
    s->size[h] = 1;
    s->ones[h] = c_h;
    s->it[h] = 0;
    s->stack[0] = h;
    top = 1;
    while (top) {
        v = s->stack[top - 1];
        if (s->it[v] < 6) {
            w = s->nb[v * 6 + s->it[v]];
            s->it[v] += 1;
            if (w < 0 || !(s->free[w] || w == h))
                continue;
            if (s->disc[w] == 0) {
                t += 1;
                s->disc[w] = t;
                s->low[w] = t;
                s->parent[w] = v;
                s->size[w] = 1;
                s->ones[w] = s->colour[w];
                s->it[w] = 0;
                s->stack[top] = w;
                top += 1;
                visited += 1;
                if (v == h)
                    root_children += 1;
            } else if (w != s->parent[v] && s->disc[w] < s->low[v]) {
                s->low[v] = s->disc[w];
            }
        } else {
            top -= 1;
            w = s->parent[v];
            if (w < 0)
                continue;
            if (s->low[v] < s->low[w])
                s->low[w] = s->low[v];
            s->size[w] += s->size[v];
            s->ones[w] += s->ones[v];
            if (w != h && s->low[v] >= s->disc[w]) {
                /* w separates v's subtree (the part after w) from the rest (before w); it is
                 * passed once, so it can separate one subtree only */
                s->fcount[w] += 1;
                if (s->fcount[w] > 1)
                    return 0;
                if (end >= 0 && !inside(s, end, v))
                    return 0;
                before = nfree + 1 - s->size[v]; /* h .. w, w included */
                ones_before = ones_total - s->ones[v];
                /* a walk of `before` cells from h alternates colours, ending at w */
                if ((c_h ^ ((before - 1) & 1)) != s->colour[w])
                    return 0;
                want_ones = c_h ? (before + 1) / 2 : before / 2;
                if (ones_before != want_ones)
                    return 0;
            }
        }
    }
    if (visited != nfree)
        return 0; /* a free cell the head cannot reach */
    if (root_children > 1)
        return 0; /* the head would split the free cells */
    return 1;
}

static inline int32_t find(sc_first *s, int32_t x) {
    while (s->uf[x] != x) {
        s->uf[x] = s->uf[s->uf[x]];
        x = s->uf[x];
    }
    return x;
}

/* A free cell with exactly two ways on that cannot be the end (it is not the end cell found,
 * or, while none is, it has the wrong colour for the end). */
static inline int is_forced(const sc_first *s, int32_t x, int32_t h, int32_t end) {
    if (!s->free[x] || x == end || (end < 0 && s->colour[x] == s->end_colour))
        return 0;
    return s->deg[x] + touches(s, x, h) == 2;
}

/* Forced passages (check 3): cells with two ways on are passed through both. */
static int forced(sc_first *s, int32_t k, int32_t h, int32_t end) {
    int32_t n = s->n, x, j, y, ways, straight = 0, corner = 0, d1, d2;
    for (x = 0; x < n; x++) {
        s->fcount[x] = 0;
        s->uf[x] = x;
    }
    for (x = 0; x < n; x++) {
        if (!is_forced(s, x, h, end))
            continue;
        d1 = d2 = -1;
        for (j = 0; j < 6; j++) {
            y = s->nb[x * 6 + j];
            if (y < 0 || !(s->free[y] || y == h))
                continue;
            if (d1 < 0)
                d1 = j;
            else
                d2 = j;
            if (y < x && is_forced(s, y, h, end))
                continue; /* this edge was added from y */
            /* the edge x-y is forced */
            s->fcount[x] += 1;
            s->fcount[y] += 1;
            if (s->fcount[y] > (y == h || y == end ? 1 : 2))
                return 0;
            ways = find(s, y);
            if (ways == find(s, x))
                return 0; /* forced edges closing a cycle */
            s->uf[ways] = find(s, x);
        }
        if ((d1 >> 1) == (d2 >> 1))
            straight += 1;
        else
            corner += 1;
    }
    if (straight > s->straights_after[k] || corner > s->corners_after[k])
        return 0;
    return 1;
}

/* Can segments j, j+step, ... (up to stop, at most SC_TAIL_SEGMENTS of them) lie along a line
 * from cell c away from it (not on ``axis``)? Step -1: from the last cube backwards (j the
 * last segment); +1: from the first cube forwards (j = 0). */
static int tail(sc_first *s, int32_t c, int32_t j, int32_t axis, int32_t stop, int32_t step) {
    int32_t d, i, x, length;
    int32_t depth = step < 0 ? s->n_seg - 1 - j : j;
    int ok;
    if ((j - stop) * step > 0 || depth >= SC_TAIL_SEGMENTS)
        return 1;
    length = s->lengths[j];
    for (d = 0; d < 6; d++) {
        if ((d >> 1) == axis)
            continue;
        if (reach(s, c, d, length) < 0)
            continue;
        if (j == stop || depth + 1 >= SC_TAIL_SEGMENTS)
            return 1;
        s->free[c] = 0; /* the segment's cells, but its last (the next one's first) */
        x = c;
        for (i = 0; i < length - 2; i++) {
            x = s->nb[x * 6 + d];
            s->free[x] = 0;
        }
        ok = tail(s, s->nb[x * 6 + d], j + step, d >> 1, stop, step);
        s->free[c] = 1;
        x = c;
        for (i = 0; i < length - 2; i++) {
            x = s->nb[x * 6 + d];
            s->free[x] = 1;
        }
        if (ok)
            return 1;
    }
    return 0;
}

/* Straight runs (check 4) for the segments from k on. */
static int runs(const sc_first *s, int32_t k) {
    int32_t i, x, run = 0, L, width = s->max_len + 1, top;
    int32_t cap[64];
    if (k >= s->n_seg || width > 64 || s->need[k * width + 3] == 0)
        return 1;
    for (L = 0; L < width; L++)
        cap[L] = 0;
    for (i = 0; i < s->n_lines; i++) {
        x = s->lines[i];
        if (x >= 0 && s->free[x]) {
            run += 1;
            continue;
        }
        if (run >= 3) {
            top = run < s->max_len ? run : s->max_len;
            for (L = 3; L <= top; L++)
                cap[L] += run / L;
        }
        run = 0;
    }
    for (L = 3; L < width; L++)
        if (s->need[k * width + L] > cap[L])
            return 0;
    return 1;
}

/* The sweep (SC_FIRST_SWEEP): placed cubes reach at most ``window`` layers past the first
 * layer with a free cell. */
static int in_window(const sc_first *s) {
    int32_t lo = 0, hi = s->n_layers - 1;
    while (lo < s->n_layers && s->lfree[lo] == 0)
        lo++;
    while (hi >= 0 && s->lfree[hi] == s->lsize[hi])
        hi--;
    return lo >= s->n_layers || hi - lo <= s->window;
}

/* -- the walk's steps back, from an end and middle out ------------------------------------- */
static inline int32_t arm_head(const sc_first *s, int32_t t) {
    return s->arm[t] == 0 ? s->head_a[t] : s->head_b[t];
}

/* Level k's segment: the cell it starts from and its length (middle out, on its arm). */
static inline int32_t level_head(const sc_first *s, int32_t k) {
    return s->arms ? arm_head(s, k) : s->heads[k];
}

static inline int32_t level_length(const sc_first *s, int32_t k) {
    return s->lengths[s->arms ? s->seg[k] : k];
}

/* Take back the segment placed at level k. */
static void undo_level(sc_first *s, int32_t k) {
    undo(s, level_head(s, k), s->dirs[k], level_length(s, k));
}

/* The level a run works on next, or -1 when it ends: its nodes spent, a solution found
 * (Step 5: a whole placement), or the whole tree searched. */
static inline int32_t next_level(sc_first *s, int64_t budget) {
    if (s->nodes >= budget || s->found || s->finished)
        return -1;
    if (s->level == s->n_seg) {
        s->found = 1;
        return -1;
    }
    return s->level;
}

/* Step 4b: nothing fits at level k: step back; at level 0 the whole tree is searched. */
static void step_back(sc_first *s, int32_t k) {
    if (k == 0) {
        s->finished = 1;
        return;
    }
    s->level = k - 1;
    undo_level(s, k - 1);
}

/* A run after a solution goes on past it: its last segment is taken back. */
static void past_found(sc_first *s) {
    if (s->found) {
        s->found = 0;
        s->level = s->n_seg - 1;
        undo_level(s, s->level);
    }
}

/* -- from an end ----------------------------------------------------------------------------- */
static void run_from_end(sc_first *s, int64_t budget) {
    int32_t k, d, head, axis, length, e, last;
    while ((k = next_level(s, budget)) >= 0) {
        head = s->heads[k];
        axis = k > 0 ? s->dirs[k - 1] >> 1 : -1;
        length = s->lengths[k];
        /* Step 1: the next direction in this level's order that turns and fits. */
        while ((d = next_direction(s, k, head, axis, length)) >= 0) {
            /* Step 2: place the segment. */
            e = place(s, head, d, length);
            /* Step 3: check the free cells (exact pruning). */
            last = dead_ends(s, k, head, d, e);
            if (last != -2 && k + 1 < s->n_seg && s->checks) {
                if (((s->checks & SC_FIRST_BLOCKS) && !blocks(s, e, last))
                    || ((s->checks & SC_FIRST_FORCED) && !forced(s, k + 1, e, last))
                    || ((s->checks & SC_FIRST_RUNS) && !runs(s, k + 2))
                    || ((s->checks & SC_FIRST_TAIL) && last >= 0
                        && !tail(s, last, s->n_seg - 1, -1, k + 2, -1))
                    || ((s->checks & SC_FIRST_SWEEP) && !in_window(s)))
                    last = -2;
            }
            if (last == -2) { /* Step 4a: cut: take the segment back, try the next one */
                undo(s, head, d, length);
                continue;
            }
            s->dirs[k] = d;
            s->heads[k + 1] = e;
            s->endc[k + 1] = last;
            s->nextd[k + 1] = 0;
            s->level = k + 1;
            shuffle(s, k + 1);
            break;
        }
        if (d < 0)
            step_back(s, k);
    }
}

/* -- middle out ------------------------------------------------------------------------------ */
static inline int open_a(const sc_first *s, int32_t t) { return s->pivot + s->done_a[t] < s->n_seg; }

static inline int open_b(const sc_first *s, int32_t t) { return s->pivot - 1 - s->done_b[t] >= 0; }

static int32_t ways_for(const sc_first *s, int32_t head, int32_t axis, int32_t length) {
    int32_t d, w = 0;
    for (d = 0; d < 6; d++)
        if ((d >> 1) != axis && reach(s, head, d, length) >= 0)
            w += 1;
    return w;
}

/* Which arm moves at level t, and with which segment: the one whose next segment is longer,
 * on a tie the one with fewer ways to place it, then the arms in turn. */
static void choose(sc_first *s, int32_t t) {
    int32_t la, lb, wa, wb, a;
    if (!open_a(s, t)) {
        a = 1;
    } else if (!open_b(s, t)) {
        a = 0;
    } else {
        la = s->lengths[s->pivot + s->done_a[t]];
        lb = s->lengths[s->pivot - 1 - s->done_b[t]];
        if (la != lb) {
            a = la > lb ? 0 : 1;
        } else {
            wa = ways_for(s, s->head_a[t], s->axis_a[t], la);
            wb = ways_for(s, s->head_b[t], s->axis_b[t], lb);
            a = wa != wb ? (wa < wb ? 0 : 1) : t & 1;
        }
    }
    s->arm[t] = a;
    s->seg[t] = a == 0 ? s->pivot + s->done_a[t] : s->pivot - 1 - s->done_b[t];
}

/* Can cell c be the last cube (arm A's end) at level u: arm A open, c of the last cube's
 * colour, and (SC_FIRST_TAIL) the last segments arm A has not reached fit back from c? */
static int end_a(sc_first *s, int32_t c, int32_t u) {
    if (!open_a(s, u) || s->colour[c] != s->colour_a)
        return 0;
    return !(s->checks & SC_FIRST_TAIL)
           || tail(s, c, s->n_seg - 1, -1, s->pivot + s->done_a[u] + 1, -1);
}

/* Can cell c be cube 1 (arm B's end) at level u: as ``end_a``, the first segments forwards. */
static int end_b(sc_first *s, int32_t c, int32_t u) {
    if (!open_b(s, u) || s->colour[c] != s->colour_b)
        return 0;
    return !(s->checks & SC_FIRST_TAIL) || tail(s, c, 0, -1, s->pivot - 2 - s->done_b[u], 1);
}

/* Can the known end cells c1, c2 (-1: none; c1 set first) be the ends of the arms still open
 * at level u, by number, colour and (SC_FIRST_TAIL) the end segments? */
static int ends_fit(sc_first *s, int32_t c1, int32_t c2, int32_t u) {
    if (c1 < 0)
        return 1;
    if (c2 < 0)
        return end_a(s, c1, u) || end_b(s, c1, u);
    return (end_a(s, c1, u) && end_b(s, c2, u)) || (end_b(s, c1, u) && end_a(s, c2, u));
}

/* Dead ends after level t's segment (from ``old`` along d): a free cell next to it (or to the
 * old head) with no way in, counting the unfinished arms' heads, cuts; one with a single way
 * in is an end of the snake: at most one per unfinished arm, each of an end's colour.
 * Records the known ends for level t + 1. */
static int arm_ends(sc_first *s, int32_t t, int32_t old, int32_t d, int32_t length) {
    int32_t u = t + 1, ends[2] = {s->endc[t], s->endc2[t]}, i;
    for (i = 0; i < 2; i++)
        if (ends[i] >= 0 && !s->free[ends[i]])
            ends[i] = -1;
    new_stamp(s);
    mark_near(s, open_a(s, u) ? s->head_a[u] : -1, s->near);
    mark_near(s, open_b(s, u) ? s->head_b[u] : -1, s->near_b);
    if (!ends_beside(s, old, d, length, ends, 2, ANY_COLOUR))
        return 0;
    if (ends[0] < 0) {
        ends[0] = ends[1];
        ends[1] = -1;
    }
    if (!ends_fit(s, ends[0], ends[1], u))
        return 0;
    s->endc[u] = ends[0];
    s->endc2[u] = ends[1];
    return 1;
}

static void run_middle_out(sc_first *s, int64_t budget) {
    int32_t t, d, head, axis, length, e, a;
    while ((t = next_level(s, budget)) >= 0) {
        a = s->arm[t];
        head = arm_head(s, t);
        axis = a == 0 ? s->axis_a[t] : s->axis_b[t];
        length = level_length(s, t);
        /* Step 1: the next direction in this level's order that turns and fits. */
        while ((d = next_direction(s, t, head, axis, length)) >= 0) {
            /* Step 2: place the segment; the arms' state after it is level t + 1's. */
            e = place(s, head, d, length);
            s->head_a[t + 1] = s->head_a[t];
            s->axis_a[t + 1] = s->axis_a[t];
            s->head_b[t + 1] = s->head_b[t];
            s->axis_b[t + 1] = s->axis_b[t];
            s->done_a[t + 1] = s->done_a[t];
            s->done_b[t + 1] = s->done_b[t];
            if (a == 0) {
                s->head_a[t + 1] = e;
                s->axis_a[t + 1] = d >> 1;
                s->done_a[t + 1] += 1;
                if (t == 0) /* the pivot: arm B leaves its first cube across its axis */
                    s->axis_b[1] = d >> 1;
            } else {
                s->head_b[t + 1] = e;
                s->axis_b[t + 1] = d >> 1;
                s->done_b[t + 1] += 1;
            }
            /* Step 3: check the free cells (exact pruning) and the window. */
            if (t + 1 < s->n_seg
                && (!arm_ends(s, t, head, d, length)
                    || ((s->checks & SC_FIRST_SWEEP) && !in_window(s)))) {
                /* Step 4a: cut: take the segment back, try the next direction */
                undo(s, head, d, length);
                continue;
            }
            s->dirs[t] = d;
            s->nextd[t + 1] = 0;
            s->level = t + 1;
            if (t + 1 > s->deepest)
                s->deepest = t + 1;
            if (t + 1 < s->n_seg) {
                choose(s, t + 1);
                order_level(s, t + 1, arm_head(s, t + 1), s->lengths[s->seg[t + 1]], -1);
            }
            break;
        }
        if (d < 0)
            step_back(s, t);
    }
}

void sc_first_run(sc_first *s, int32_t max_nodes) {
    const int64_t budget = s->nodes + max_nodes;
    past_found(s);
    if (s->arms)
        run_middle_out(s, budget);
    else
        run_from_end(s, budget);
}

int32_t sc_first_found(const sc_first *s) { return s->found; }

int32_t sc_first_finished(const sc_first *s) { return s->finished; }

double sc_first_nodes(const sc_first *s) { return (double)s->nodes; }

int32_t sc_first_deepest(const sc_first *s) { return s->deepest; }

void sc_first_directions(const sc_first *s, int32_t *out) {
    int32_t t;
    for (t = 0; t < s->n_seg; t++) {
        if (s->arms) /* arm B placed its segments backwards */
            out[s->seg[t]] = s->dirs[t] ^ s->arm[t];
        else
            out[t] = s->dirs[t];
    }
}

int32_t sc_first_first_cell(const sc_first *s) {
    int32_t j, i, x = s->heads[0], d;
    if (!s->arms)
        return x;
    for (j = s->pivot - 1; j >= 0; j--) {
        d = -1;
        for (i = 0; i < s->n_seg; i++) /* the direction of segment j, as placed by arm B */
            if (s->seg[i] == j)
                d = s->dirs[i] ^ s->arm[i];
        for (i = 0; i < s->lengths[j] - 1; i++)
            x = s->nb[x * 6 + (d ^ 1)];
    }
    return x;
}
