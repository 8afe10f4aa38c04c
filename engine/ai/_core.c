/* The native search core: the exact searches of the computer players in C.
 *
 * engine.ai._core.Core is the phase-2 solver's search (Solver.lead and Solver.follow of
 * engine/ai/solver.py), engine.ai._core.Talon the talon search (TalonSolver.lead and .follow
 * of engine/ai/talon.py, with its phase-2 searches: the open one and one per closer and
 * snapshot). Hands and masks are 32-bit bitboards (the card indices of engine.cards), scores
 * C ints, and each transposition table an open-addressing array of keys of four words
 * (solver.position_key, the player on lead and the tricks bits that pick one of the pure
 * search's eight dicts, and the talon's cards) instead of dicts of boxed integers. The
 * searches are the pure ones move for move: the same tests in the same order, the same move
 * orders (phase 2: leads by points, most first, then trumps high to low, the table's best
 * lead first; replies the cheapest card of the suit first, discards the fewest points first;
 * phase 1: side cards then trumps, cheapest first, answers as talon._follow_order), the same
 * windows, so they return the same values, with two additions. A lead first tries its sure
 * bounds (what either side would score declaring at once: no outcome gives it more; in
 * phase 2 also the sure tricks, the cards nothing of the other hand beats, which may reach
 * the target or bound the other side's score), and a bound outside the window ends the
 * search there (next_lead, lead, talon_lead); and a phase-2 lead tries its sure tricks
 * first. That visits fewer nodes than the Python search (whose node counts a work budget
 * is measured in) and may return other bounds on a fail low or high, never another value
 * or best move.
 *
 * The card model is not restated here: configure() takes engine.cards' tables (points,
 * suit masks, beaters, marriages, the orders) and scoring's game-point table once, from
 * engine/ai/solver.py. Rules are the searches': closer and snapshot, bonus, last trick wins,
 * pending melds, meld_credit next_trick, played_out_points one, the Ten low; the talon
 * search's exchange (its low trump, talon size, trick needed) and closing (allowed, talon
 * size).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifndef SIXTYSIX_CORE_DIGEST
#define SIXTYSIX_CORE_DIGEST ""
#endif

#define WIN 4
#define NCARDS 32
#define NTABLE 256

/* ------------------------------------------------------------------ tables (configure) */

static int configured = 0;
static int points[NCARDS];
static uint32_t suit_mask_of[NCARDS];
static uint32_t higher[2][NCARDS];           /* [ten_low][card] */
static uint32_t beaters[2][4][NCARDS];       /* [ten_low][trump][card] */
static uint32_t marriage_of[NCARDS];
static uint32_t marriages[4];
static int meld_values[4][4];                /* [trump][suit] */
static int suit_of[NCARDS];
static uint32_t suit_masks[4];
static int seq[NCARDS];                      /* cards_of order: suit by suit, high to low */
static int most_points[NCARDS];              /* by_points(all, True) */
static int fewest_points[NCARDS];            /* by_points(all, False) */
static int game_table[2][NTABLE];            /* scoring.table(tricks > 0, points)[0] */
/* An order as a bit permutation: permuted[order][byte][value] has bit i set for each card
 * order[i] among the 8 cards of that byte of a mask, so that the cards of a mask come in
 * order by counting the trailing zeros of 4 lookups ORed (ORDERS: seq, seq reversed, most
 * points first, fewest first). */
enum { BY_SEQ, CHEAPEST, MOST, FEWEST, ORDERS };
static int orders[ORDERS][NCARDS];
static uint32_t permuted[ORDERS][4][256];
static uint32_t kings;                       /* the Kings' bits: mine & mine >> 1 & kings */
static int declare_target, meld_reach, trump_meld_points, meld_points;

static int
read_ints(PyObject *seq_obj, int *out, Py_ssize_t n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq_obj, what);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values expected", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static int
read_masks(PyObject *seq_obj, uint32_t *out, Py_ssize_t n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq_obj, what);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values expected", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (uint32_t)v;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *
core_configure(PyObject *module, PyObject *args)
{
    PyObject *o_points, *o_suit_of, *o_suit_masks, *o_higher, *o_higher_low, *o_beaters,
        *o_beaters_low, *o_marriage_of, *o_marriages, *o_meld_values, *o_seq, *o_most,
        *o_fewest, *o_table, *o_rules;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOO:configure", &o_points, &o_suit_of,
                          &o_suit_masks, &o_higher, &o_higher_low, &o_beaters, &o_beaters_low,
                          &o_marriage_of, &o_marriages, &o_meld_values, &o_seq, &o_most,
                          &o_fewest, &o_table, &o_rules))
        return NULL;
    int rules[5];
    if (read_ints(o_points, points, NCARDS, "points") < 0
        || read_ints(o_suit_of, suit_of, NCARDS, "suit_of") < 0
        || read_masks(o_suit_masks, suit_masks, 4, "suit_masks") < 0
        || read_masks(o_higher, higher[0], NCARDS, "higher") < 0
        || read_masks(o_higher_low, higher[1], NCARDS, "higher_ten_low") < 0
        || read_masks(o_beaters, &beaters[0][0][0], 4 * NCARDS, "beaters") < 0
        || read_masks(o_beaters_low, &beaters[1][0][0], 4 * NCARDS, "beaters_ten_low") < 0
        || read_masks(o_marriage_of, marriage_of, NCARDS, "marriage_of") < 0
        || read_masks(o_marriages, marriages, 4, "marriages") < 0
        || read_ints(o_meld_values, &meld_values[0][0], 16, "meld_values") < 0
        || read_ints(o_seq, seq, NCARDS, "order") < 0
        || read_ints(o_most, most_points, NCARDS, "most_points") < 0
        || read_ints(o_fewest, fewest_points, NCARDS, "fewest_points") < 0
        || read_ints(o_table, &game_table[0][0], 2 * NTABLE, "table") < 0
        || read_ints(o_rules, rules, 5, "rules") < 0)
        return NULL;
    for (int c = 0; c < NCARDS; c++) {
        if (suit_of[c] < 0 || suit_of[c] > 3 || seq[c] < 0 || seq[c] >= NCARDS
            || most_points[c] < 0 || most_points[c] >= NCARDS || fewest_points[c] < 0
            || fewest_points[c] >= NCARDS) {
            PyErr_SetString(PyExc_ValueError, "card index out of range");
            return NULL;
        }
        suit_mask_of[c] = suit_masks[suit_of[c]];
        orders[BY_SEQ][c] = seq[c];
        orders[CHEAPEST][c] = seq[NCARDS - 1 - c];
        orders[MOST][c] = most_points[c];
        orders[FEWEST][c] = fewest_points[c];
    }
    for (int o = 0; o < ORDERS; o++) {
        uint32_t seen = 0;
        for (int i = 0; i < NCARDS; i++)
            seen |= 1u << orders[o][i];
        if (seen != 0xFFFFFFFFu) {
            PyErr_SetString(PyExc_ValueError, "an order must list every card once");
            return NULL;
        }
    }
    for (int o = 0; o < ORDERS; o++) {
        int at[NCARDS];
        for (int i = 0; i < NCARDS; i++)
            at[orders[o][i]] = i;
        for (int b = 0; b < 4; b++)
            for (int v = 0; v < 256; v++) {
                uint32_t bits = 0;
                for (int k = 0; k < 8; k++)
                    if (v >> k & 1)
                        bits |= 1u << at[8 * b + k];
                permuted[o][b][v] = bits;
            }
    }
    for (int t = 0; t < 2; t++)   /* the sure bounds (lead) need outcomes that only fall */
        for (int v = 0; v < NTABLE; v++)
            if (game_table[t][v] < game_table[1][v]
                || (v > 0 && game_table[t][v] > game_table[t][v - 1])) {
                PyErr_SetString(PyExc_ValueError,
                                "table: game points must fall as the loser's points or "
                                "tricks grow");
                return NULL;
            }
    declare_target = rules[0];
    meld_reach = rules[1];
    trump_meld_points = rules[2];
    meld_points = rules[3];
    kings = (uint32_t)rules[4];
    configured = 1;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ transposition tables */

/* A key of four words: the position (solver.position_key: k[0], and its wide form's upper
 * fields, k[1]), the player on lead and the tricks bits (k[1]'s top bits: the pure searches
 * keep a dict for each), and the talon of the talon search (k[2], k[3]; 0 in phase 2). */
typedef struct {
    uint64_t k[4];     /* k[1]: 0 marks an empty slot (every key sets its bit 63) */
    uint32_t entry;    /* _entry(lo, hi) | best lead << 8, as the pure tables hold */
} Slot;

typedef struct {
    Slot *slots;
    size_t mask;       /* capacity - 1 (a power of two), 0 before the first store */
    size_t used;
} Table;

static inline size_t
slot_index(const uint64_t *k, size_t mask)
{
    uint64_t h = k[0] * 0x9E3779B97F4A7C15ULL ^ (k[1] + (k[1] << 17)) * 0xC2B2AE3D27D4EB4FULL
                 ^ (k[2] + (k[3] << 23)) * 0x165667B19E3779F9ULL;
    return (size_t)(h ^ h >> 29) & mask;
}

static inline int
same_key(const uint64_t *a, const uint64_t *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

static Slot *
tt_find(const Table *t, const uint64_t *k)
{
    if (t->slots == NULL)
        return NULL;
    size_t i = slot_index(k, t->mask);
    for (;;) {
        Slot *slot = &t->slots[i];
        if (slot->k[1] == 0)
            return NULL;
        if (same_key(slot->k, k))
            return slot;
        i = (i + 1) & t->mask;
    }
}

/* A table starts at 32 slots (1.3 KB; a solve of 6+6 cards stores a few dozen entries at
 * most, and allocating and zeroing the 256 slots it started at cost more than its search)
 * and doubles when half full. */
static int
tt_grow(Table *t)
{
    size_t cap = t->slots == NULL ? 1 << 5 : (t->mask + 1) * 2;
    Slot *fresh = PyMem_Calloc(cap, sizeof(Slot));
    if (fresh == NULL)
        return -1;
    if (t->slots != NULL) {
        for (size_t j = 0; j <= t->mask; j++) {
            Slot *old = &t->slots[j];
            if (old->k[1] == 0)
                continue;
            size_t i = slot_index(old->k, cap - 1);
            while (fresh[i].k[1] != 0)
                i = (i + 1) & (cap - 1);
            fresh[i] = *old;
        }
        PyMem_Free(t->slots);
    }
    t->slots = fresh;
    t->mask = cap - 1;
    return 0;
}

/* Stores (replaces) an entry; -1 when out of memory (a Python MemoryError is set: the search
 * then unwinds). */
static int
tt_store(Table *t, const uint64_t *k, uint32_t entry)
{
    if (t->slots == NULL || 2 * (t->used + 1) > t->mask + 1) {
        if (tt_grow(t) < 0) {
            PyErr_NoMemory();
            return -1;
        }
    }
    size_t i = slot_index(k, t->mask);
    for (;;) {
        Slot *slot = &t->slots[i];
        if (slot->k[1] == 0) {
            memcpy(slot->k, k, sizeof(slot->k));
            slot->entry = entry;
            t->used++;
            return 0;
        }
        if (same_key(slot->k, k)) {
            slot->entry = entry;
            return 0;
        }
        i = (i + 1) & t->mask;
    }
}

/* solver.position_key in two words, and the table of player ``p`` on lead with tricks bits
 * ``tk`` in k[1]'s top bits; ``wide`` is the rule meld_credit next_trick. */
static inline void
position_key(uint64_t *k, int p, int tk, uint32_t h0, uint32_t h1, int p0, int p1, int e0,
             int e1, int melded, int wide)
{
    int g0 = p0 + e0, g1 = p1 + e1;
    uint64_t where = 1ULL << 63 | (uint64_t)p << 60 | (uint64_t)tk << 61;
    if (((g0 | g1) >> 7) || ((h0 | h1) >> 24) || melded >= 0 || wide) {
        k[0] = (uint64_t)h0 | (uint64_t)h1 << 32;
        k[1] = where | 1ULL << 59 | (uint64_t)(melded + 1) | (uint64_t)(p0 & 255) << 3
               | (uint64_t)(p1 & 255) << 11 | (uint64_t)(e0 & 255) << 19
               | (uint64_t)(e1 & 255) << 27;
    }
    else {
        k[0] = (uint64_t)h0 | (uint64_t)h1 << 24 | ((uint64_t)g0 | (uint64_t)g1 << 7) << 48;
        k[1] = where;
    }
}

/* One phase-2 solver's rules, table and nodes (a Solver of engine/ai/solver.py). */
typedef struct {
    int trump;
    int closer;          /* -1: none */
    int snap0, snap1;    /* the closer's opponent's (points, tricks) at the close */
    int bonus;
    int last_trick_wins, pending_melds, next_trick_melds, played_out_one;
    const uint32_t *beaters;   /* beaters[ten_low][trump] */
    const uint32_t *higher;
    uint32_t trump_mask;
    const int *meld_value;     /* meld_values[trump] */
    long long nodes;
    Table tt;
} Search;

static void
search_init(Search *s, int trump, int closer, int snap0, int snap1, int bonus,
            int last_trick_wins, int pending_melds, int next_trick_melds, int played_out_one,
            int ten_low)
{
    memset(s, 0, sizeof(*s));
    s->trump = trump;
    s->closer = closer;
    s->snap0 = snap0;
    s->snap1 = snap1;
    s->bonus = bonus;
    s->last_trick_wins = last_trick_wins;
    s->pending_melds = pending_melds;
    s->next_trick_melds = next_trick_melds;
    s->played_out_one = played_out_one;
    s->beaters = beaters[ten_low ? 1 : 0][trump];
    s->higher = higher[ten_low ? 1 : 0];
    s->trump_mask = suit_masks[trump];
    s->meld_value = meld_values[trump];
}

typedef struct {
    PyObject_HEAD
    Search s;
} Core;

/* ------------------------------------------------------------------ outcomes */

static inline int
table_of(int tricks, int pts)
{
    return game_table[tricks ? 1 : 0][pts < 0 ? 0 : pts >= NTABLE ? NTABLE - 1 : pts];
}

static int
declare_value(const Search *s, int d, int p0, int p1, int tk)
{
    int o = 1 - d;
    if (s->closer < 0)
        return table_of((tk >> o) & 1, o ? p1 : p0);
    if (s->closer == d)
        return table_of(s->snap1 > 0, s->snap0);
    if (s->snap1 == 0)
        return 3;
    int v = table_of((tk >> o) & 1, o ? p1 : p0);
    return v > 2 ? v : 2;
}

static int
played_out_value(const Search *s, int last, int p0, int p1, int tk)
{
    if (s->closer >= 0) {
        int v;
        if ((s->closer == 0 ? p0 : p1) >= declare_target)
            v = table_of(s->snap1 > 0, s->snap0);
        else
            v = -(s->snap1 == 0 ? 3 : 2);
        return s->closer == 0 ? v : -v;
    }
    int winner;
    if (s->last_trick_wins) {
        winner = last;
    }
    else {
        if (last == 0)
            p0 += s->bonus;
        else
            p1 += s->bonus;
        if (p0 == p1)
            return 0;
        winner = p0 > p1 ? 0 : 1;
    }
    if (s->played_out_one)
        return winner == 0 ? 1 : -1;
    int v = table_of((tk >> (1 - winner)) & 1, winner == 0 ? p1 : p0);
    return winner == 0 ? v : -v;
}

static inline int
top_card(uint32_t mask)
{
    return 31 - __builtin_clz(mask);
}

static int
last_trick(const Search *s, int p, uint32_t h0, uint32_t h1, int p0, int p1, int tk, int pend0,
           int pend1)
{
    int c = top_card(p == 0 ? h0 : h1);
    int r = top_card(p == 0 ? h1 : h0);
    int w = (s->beaters[c] >> r & 1) ? 1 - p : p;
    if (w == 0) {
        p0 += points[c] + points[r] + pend0;
        tk |= 1;
    }
    else {
        p1 += points[c] + points[r] + pend1;
        tk |= 2;
    }
    int v0 = played_out_value(s, w, p0, p1, tk);
    return p == 0 ? v0 : -v0;
}

/* The cards of ``mask`` in the order ``o`` (BY_SEQ ...) lists them; returns how many. */
static inline int
in_order(uint32_t mask, int o, int *out)
{
    const uint32_t (*t)[256] = permuted[o];
    uint32_t bits = t[0][mask & 255] | t[1][mask >> 8 & 255] | t[2][mask >> 16 & 255]
                    | t[3][mask >> 24];
    int n = 0;
    while (bits) {
        out[n++] = orders[o][__builtin_ctz(bits)];
        bits &= bits - 1;
    }
    return n;
}

/* ------------------------------------------------------------------ search */

#define ERR (-100)   /* a Python error is set (out of memory): unwind */

static int lead(Search *s, int p, uint32_t h0, uint32_t h1, int p0, int p1, int tk, int pend0,
                int pend1, int alpha, int beta, int melded);

/* lead() after a trick, its sure bounds tried first (a bound outside the window ends the
 * search without a node: see lead) */
static inline int
next_lead(Search *s, int p, uint32_t h0, uint32_t h1, int p0, int p1, int tk, int pend0,
          int pend1, int alpha, int beta)
{
    int hi = declare_value(s, p, p0, p1, tk);
    if (hi <= alpha)
        return hi;
    int lo = -declare_value(s, 1 - p, p0, p1, tk);
    if (lo >= beta)
        return lo;
    return lead(s, p, h0, h1, p0, p1, tk, pend0, pend1, alpha, beta, -1);
}

static int
lead(Search *s, int p, uint32_t h0, uint32_t h1, int p0, int p1, int tk, int pend0, int pend1,
     int alpha, int beta, int melded)
{
    s->nodes++;
    uint32_t mine = p == 0 ? h0 : h1;
    int my_pts = p == 0 ? p0 : p1;
    int has_trick = (tk >> p) & 1;
    if (has_trick && my_pts >= meld_reach) {
        if (my_pts >= declare_target)
            return declare_value(s, p, p0, p1, tk);
        if (melded < 0 && !s->next_trick_melds) {
            uint32_t both = mine & mine >> 1 & kings;
            if (both && my_pts + ((both & s->trump_mask) ? trump_meld_points : meld_points)
                            >= declare_target)
                return declare_value(s, p, p0, p1, tk);
        }
    }
    uint32_t others = mine & (mine - 1);
    if (!others)
        return last_trick(s, p, h0, h1, p0, p1, tk, pend0, pend1);
    /* Sure bounds: what either side would score declaring now is the most it can score
     * (outcomes only fall as the other side's points and tricks grow) */
    int hi = declare_value(s, p, p0, p1, tk);
    if (hi <= alpha)
        return hi;
    uint32_t theirs = p == 0 ? h1 : h0;
    int lo;
    uint32_t sure = 0;
    if (melded < 0) {
        /* sure tricks: the cards nothing of theirs beats, led one after the other, win each
         * trick (their points, no meld counted, and p's pending melds go to p) */
        int gain = my_pts + (p == 0 ? pend0 : pend1);
        for (uint32_t m = mine; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            if (!(s->beaters[c] & theirs)) {
                sure |= 1u << c;
                gain += points[c];
            }
        }
        if (sure) {
            /* reaching the target before the last trick p declares, the other side's
             * points and tricks as they are: hi; short of it, the other side scores at most
             * what it would declaring against p's gain */
            if (sure != mine && gain >= declare_target)
                return hi;
            lo = -declare_value(s, 1 - p, p == 0 ? gain : p0, p == 1 ? gain : p1,
                                tk | 1 << p);
        }
    }
    if (!sure)
        lo = -declare_value(s, 1 - p, p0, p1, tk);
    if (lo >= beta)
        return lo;
    if (hi < beta)
        beta = hi;
    if (lo > alpha)
        alpha = lo;
    uint32_t tabled = others & (others - 1);
    uint64_t key[4] = {0, 0, 0, 0};
    int best_move = -1;
    if (tabled) {
        position_key(key, p, tk, h0, h1, p0, p1, pend0, pend1, melded, s->next_trick_melds);
        Slot *slot = tt_find(&s->tt, key);
        if (slot != NULL) {
            uint32_t entry = slot->entry;
            int lo = (int)(entry & 15) - WIN;
            int hi = (int)(entry >> 4 & 15) - WIN;
            best_move = (int)(entry >> 8);
            if (lo >= beta || lo == hi)
                return lo;
            if (hi <= alpha)
                return hi;
            if (lo > alpha)
                alpha = lo;
            if (hi < beta)
                beta = hi;
        }
    }
    uint32_t leads = melded < 0 ? mine : mine & marriages[melded];
    int moves[NCARDS];
    /* the sure winners first (side cards by points, then trumps high to low), then the
     * rest alike */
    uint32_t first = leads & sure;
    uint32_t rest_leads = leads ^ first;
    int nm = in_order(first & ~s->trump_mask, MOST, moves);
    nm += in_order(first & s->trump_mask, BY_SEQ, moves + nm);
    nm += in_order(rest_leads & ~s->trump_mask, MOST, moves + nm);
    nm += in_order(rest_leads & s->trump_mask, BY_SEQ, moves + nm);
    if (best_move >= 0 && moves[0] != best_move) {
        int i = 1;
        while (i < nm && moves[i] != best_move)
            i++;
        memmove(moves + 1, moves, (size_t)i * sizeof(int));
        moves[0] = best_move;
    }
    int a0 = alpha;
    int best = -WIN;
    int bm = moves[0];
    int may_meld = melded < 0 && (has_trick || s->pending_melds);
    int f = 1 - p;
    for (int i = 0; i < nm; i++) {
        int c = moves[i];
        int q0 = p0, q1 = p1, e0 = pend0, e1 = pend1;
        uint32_t m = marriage_of[c];
        if (may_meld && m && (mine & m) == m) {
            int mv = s->meld_value[suit_of[c]];
            if (has_trick && !s->next_trick_melds) {
                if (p == 0)
                    q0 += mv;
                else
                    q1 += mv;
            }
            else if (p == 0)
                e0 += mv;
            else
                e1 += mv;
        }
        uint32_t rest = mine ^ (1u << c);
        int replies[NCARDS];
        int nr;
        int wins;
        uint32_t follow = theirs & suit_mask_of[c];
        if (follow) {
            uint32_t legal = follow & s->higher[c];
            wins = legal != 0;
            nr = in_order(legal ? legal : follow, CHEAPEST, replies);
        }
        else {
            uint32_t legal = theirs & s->trump_mask;
            if (legal) {
                wins = 1;
                nr = in_order(legal, CHEAPEST, replies);
            }
            else {
                wins = 0;
                nr = in_order(theirs, FEWEST, replies);
            }
        }
        int w = wins ? f : p;
        int r0, r1, g0, g1, t;
        if (w == 0) {
            r0 = q0 + points[c] + e0;
            r1 = q1;
            g0 = 0;
            g1 = e1;
            t = tk | 1;
        }
        else {
            r0 = q0;
            r1 = q1 + points[c] + e1;
            g0 = e0;
            g1 = 0;
            t = tk | 2;
        }
        int b = beta;
        int worst = WIN;
        for (int j = 0; j < nr; j++) {
            int r = replies[j];
            int s0 = r0, s1 = r1;
            if (w == 0)
                s0 += points[r];
            else
                s1 += points[r];
            uint32_t n0, n1;
            if (p == 0) {
                n0 = rest;
                n1 = theirs ^ (1u << r);
            }
            else {
                n0 = theirs ^ (1u << r);
                n1 = rest;
            }
            int v;
            if (!tabled) {
                if ((w == 0 ? s0 : s1) >= declare_target)
                    v = declare_value(s, w, s0, s1, t);
                else
                    v = last_trick(s, w, n0, n1, s0, s1, t, g0, g1);
                if (w != p)
                    v = -v;
            }
            else if (w == p) {
                v = next_lead(s, p, n0, n1, s0, s1, t, g0, g1, alpha, b);
                if (v == ERR)
                    return ERR;
            }
            else {
                v = next_lead(s, f, n0, n1, s0, s1, t, g0, g1, -b, -alpha);
                if (v == ERR)
                    return ERR;
                v = -v;
            }
            if (v < worst) {
                worst = v;
                if (v < b) {
                    b = v;
                    if (b <= alpha)
                        break;
                }
            }
        }
        if (worst > best) {
            best = worst;
            bm = c;
            if (worst > alpha) {
                alpha = worst;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (!tabled)
        return best;
    uint32_t entry;
    if (best <= a0)
        entry = (uint32_t)(best + WIN) << 4 | (uint32_t)bm << 8;
    else if (best >= beta)
        entry = (uint32_t)(best + WIN) | (uint32_t)(2 * WIN) << 4 | (uint32_t)bm << 8;
    else
        entry = (uint32_t)(best + WIN) | (uint32_t)(best + WIN) << 4 | (uint32_t)bm << 8;
    if (tt_store(&s->tt, key, entry) < 0)
        return ERR;
    return best;
}

/* Solver.follow: the value for follower ``f`` answering ``led``. */
static int
follow_value(Search *s, int f, int led, uint32_t h0, uint32_t h1, int p0, int p1, int tk,
             int pend0, int pend1, int alpha, int beta)
{
    uint32_t hand = f == 0 ? h0 : h1;
    uint32_t legal = hand & suit_mask_of[led];
    if (legal) {
        uint32_t up = legal & s->higher[led];
        if (up)
            legal = up;
    }
    else {
        legal = hand & s->trump_mask;
        if (!legal)
            legal = hand;
    }
    uint32_t beat = s->beaters[led];
    /* cards_of order (high to low, suit by suit), then a stable sort by points: winners,
     * cheapest first, then losers, cheapest first */
    int cards[NCARDS];
    int n = 0;
    int wins_n = in_order(legal & beat, BY_SEQ, cards);
    int loses_n = in_order(legal & ~beat, BY_SEQ, cards + wins_n);
    for (int part = 0; part < 2; part++) {
        int *a = part == 0 ? cards : cards + wins_n;
        int len = part == 0 ? wins_n : loses_n;
        for (int i = 1; i < len; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= 0 && points[a[j]] > points[x]) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }
    n = wins_n + loses_n;
    int other = 1 - f;
    int best = -WIN;
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        int w = (beat >> c & 1) ? f : other;
        int won = points[led] + points[c];
        int q0 = p0, q1 = p1, t, e0 = pend0, e1 = pend1;
        if (w == 0) {
            q0 += won + e0;
            t = tk | 1;
            e0 = 0;
        }
        else {
            q1 += won + e1;
            t = tk | 2;
            e1 = 0;
        }
        uint32_t n0 = f == 0 ? h0 & ~(1u << c) : h0;
        uint32_t n1 = f == 1 ? h1 & ~(1u << c) : h1;
        int v;
        if (!(n0 | n1)) {
            int v0 = played_out_value(s, w, q0, q1, t);
            v = f == 0 ? v0 : -v0;
        }
        else if (w == f) {
            v = next_lead(s, f, n0, n1, q0, q1, t, e0, e1, alpha, beta);
            if (v == ERR)
                return ERR;
        }
        else {
            v = next_lead(s, other, n0, n1, q0, q1, t, e0, e1, -beta, -alpha);
            if (v == ERR)
                return ERR;
            v = -v;
        }
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    return best;
}

/* ------------------------------------------------------------------ the talon search */

/* The talon search of engine/ai/talon.py (TalonSolver.lead, .follow and _lead_options):
 * phase 1 of a sampled deal, the talon's order fixed, handing over to phase-2 searches (the
 * open one at the talon's end, one per closer and snapshot after a close). */
#define MAX_TALON 20

typedef struct {
    PyObject_HEAD
    Search open;
    Search *closed[2][NTABLE][2];   /* by closer, his opponent's points and trick bit */
    int low_trump;                  /* -1: no exchange */
    int exchange_min, exchange_needs_trick, close_min, may_close;
    int pending_melds, next_trick_melds;
    const uint32_t *beaters;
    uint32_t trump_mask;
    const int *meld_value;
    long long nodes;
    Table tt;
} Talon;

/* The talon (bottom card first) in k[2], k[3]: 5 bits a card, its length on top. */
static inline void
talon_key(uint64_t *k, const int *talon, int n)
{
    uint64_t a = 0, b = (uint64_t)n << 58;
    for (int i = 0; i < n; i++) {
        if (i < 12)
            a |= (uint64_t)talon[i] << (5 * i);
        else
            b |= (uint64_t)talon[i] << (5 * (i - 12));
    }
    k[2] = a;
    k[3] = b;
}

static Search *
closed_search(Talon *t, int closer, int opp_points, int opp_trick)
{
    if (opp_points < 0 || opp_points >= NTABLE) {
        PyErr_SetString(PyExc_ValueError, "points out of range");
        return NULL;
    }
    Search **at = &t->closed[closer][opp_points][opp_trick];
    if (*at == NULL) {
        Search *s = PyMem_Malloc(sizeof(Search));
        if (s == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        const Search *o = &t->open;
        search_init(s, o->trump, closer, opp_points, opp_trick, o->bonus, o->last_trick_wins,
                    o->pending_melds, o->next_trick_melds, o->played_out_one,
                    o->higher == higher[1]);
        *at = s;
    }
    return *at;
}

/* The cards of ``mask``, side cards before trumps, each cheapest first (talon._cheap_first). */
static inline int
cheap_first(const Talon *t, uint32_t mask, int *out)
{
    uint32_t trumps = mask & t->trump_mask;
    int n = in_order(mask ^ trumps, FEWEST, out);
    return n + in_order(trumps, CHEAPEST, out + n);
}

static int talon_follow(Talon *t, int f, int led, uint32_t h0, uint32_t h1, const int *talon,
                        int n, int p0, int p1, int tk, int e0, int e1, int alpha, int beta);

/* The most side ``d`` can score from a phase-1 position: declaring now (its outcomes only
 * fall as the other side's points and tricks grow), or where a close may still come (the
 * other side closing and failing) 3 without a trick and 2 with one, if more. */
static inline int
talon_most(const Talon *t, int d, int p0, int p1, int tk, int may_close)
{
    int v = declare_value(&t->open, d, p0, p1, tk);
    if (may_close) {
        int failed = (tk >> d & 1) ? 2 : 3;
        if (failed > v)
            v = failed;
    }
    return v;
}

static int
talon_lead(Talon *t, int p, uint32_t h0, uint32_t h1, const int *talon, int n, int p0, int p1,
           int tk, int e0, int e1, int alpha, int beta, int melded)
{
    t->nodes++;
    uint32_t mine = p == 0 ? h0 : h1;
    int my_pts = p == 0 ? p0 : p1;
    int has_trick = (tk >> p) & 1;
    if (has_trick) {
        if (my_pts >= declare_target)
            return declare_value(&t->open, p, p0, p1, tk);
        if (melded < 0 && !t->next_trick_melds) {
            for (int su = 0; su < 4; su++) {
                if ((mine & marriages[su]) == marriages[su]
                    && my_pts + t->meld_value[su] >= declare_target) {
                    int mv = t->meld_value[su];
                    return declare_value(&t->open, p, p == 0 ? p0 + mv : p0,
                                         p == 1 ? p1 + mv : p1, tk);
                }
            }
        }
    }
    /* sure bounds, as lead's: no more than declaring now, or while a close may still come,
     * than what the closer's failure gives the other side */
    int may_close = t->may_close && n >= t->close_min;
    int hi = talon_most(t, p, p0, p1, tk, may_close);
    if (hi <= alpha)
        return hi;
    int lo = -talon_most(t, 1 - p, p0, p1, tk, may_close);
    if (lo >= beta)
        return lo;
    if (hi < beta)
        beta = hi;
    if (lo > alpha)
        alpha = lo;
    uint64_t key[4];
    position_key(key, p, tk, h0, h1, p0, p1, e0, e1, melded, t->next_trick_melds);
    talon_key(key, talon, n);
    Slot *slot = tt_find(&t->tt, key);
    if (slot != NULL) {
        int lo = (int)(slot->entry & 15) - WIN;
        int hi = (int)(slot->entry >> 4 & 15) - WIN;
        if (lo >= beta || lo == hi)
            return lo;
        if (hi <= alpha)
            return hi;
        if (lo > alpha)
            alpha = lo;
        if (hi < beta)
            beta = hi;
    }
    int a0 = alpha;
    int best = -WIN;
    int may_meld = melded < 0 && (has_trick || t->pending_melds);
    uint32_t leads = melded < 0 ? mine : mine & marriages[melded];
    int moves[NCARDS];
    int nm = cheap_first(t, leads, moves);
    for (int i = 0; i < nm; i++) {
        int c = moves[i];
        int q0 = p0, q1 = p1, f0 = e0, f1 = e1;
        uint32_t m = marriage_of[c];
        if (may_meld && m && (mine & m) == m) {
            int mv = t->meld_value[suit_of[c]];
            if (has_trick && !t->next_trick_melds) {
                if (p == 0)
                    q0 += mv;
                else
                    q1 += mv;
            }
            else if (p == 0)
                f0 += mv;
            else
                f1 += mv;
        }
        int v;
        if (p == 0)
            v = talon_follow(t, 1, c, h0 & ~(1u << c), h1, talon, n, q0, q1, tk, f0, f1, -beta,
                             -alpha);
        else
            v = talon_follow(t, 0, c, h0, h1 & ~(1u << c), talon, n, q0, q1, tk, f0, f1, -beta,
                             -alpha);
        if (v == ERR)
            return ERR;
        v = -v;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (alpha < beta && melded < 0) {
        /* _lead_options: exchanging (then leading) and closing, both searched with this
         * window before either is weighed */
        int options[2];
        int no = 0;
        int low = t->low_trump;
        if (low >= 0 && (mine >> low & 1) && n >= t->exchange_min
            && ((tk >> p & 1) || !t->exchange_needs_trick)) {
            uint32_t swap = 1u << low | 1u << talon[0];
            int swapped[MAX_TALON];
            memcpy(swapped, talon, (size_t)n * sizeof(int));
            swapped[0] = low;
            int v = talon_lead(t, p, p == 0 ? h0 ^ swap : h0, p == 1 ? h1 ^ swap : h1, swapped,
                               n, p0, p1, tk, e0, e1, alpha, beta, -1);
            if (v == ERR)
                return ERR;
            options[no++] = v;
        }
        if (t->may_close && n >= t->close_min) {
            int o = 1 - p;
            Search *closed = closed_search(t, p, o == 1 ? p1 : p0, (tk >> o) & 1);
            if (closed == NULL)
                return ERR;
            int v = lead(closed, p, h0, h1, p0, p1, tk, e0, e1, alpha, beta, -1);
            if (v == ERR)
                return ERR;
            options[no++] = v;
        }
        for (int i = 0; i < no; i++) {
            int v = options[i];
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta)
                        break;
                }
            }
        }
    }
    uint32_t entry;
    if (best <= a0)
        entry = (uint32_t)(best + WIN) << 4;
    else if (best >= beta)
        entry = (uint32_t)(best + WIN) | (uint32_t)(2 * WIN) << 4;
    else
        entry = (uint32_t)(best + WIN) | (uint32_t)(best + WIN) << 4;
    if (tt_store(&t->tt, key, entry) < 0)
        return ERR;
    return best;
}

static int
talon_follow(Talon *t, int f, int led, uint32_t h0, uint32_t h1, const int *talon, int n,
             int p0, int p1, int tk, int e0, int e1, int alpha, int beta)
{
    t->nodes++;
    uint32_t hand = f == 0 ? h0 : h1;
    uint32_t beat = t->beaters[led];
    /* talon._follow_order: with a Ten or Ace led the winners first, else the cheapest loser
     * first; each kind cheapest first */
    int wins[NCARDS], loses[NCARDS], order[NCARDS];
    int nw = cheap_first(t, hand & beat, wins);
    int nl = cheap_first(t, hand & ~beat, loses);
    int no = 0;
    if (points[led] >= 10) {
        for (int i = 0; i < nw; i++)
            order[no++] = wins[i];
        for (int i = 0; i < nl; i++)
            order[no++] = loses[i];
    }
    else {
        if (nl)
            order[no++] = loses[0];
        for (int i = 0; i < nw; i++)
            order[no++] = wins[i];
        for (int i = 1; i < nl; i++)
            order[no++] = loses[i];
    }
    int top = talon[n - 1], second = talon[n - 2];
    int best = -WIN;
    for (int i = 0; i < no; i++) {
        int c = order[i];
        int w = (beat >> c & 1) ? f : 1 - f;
        uint32_t n0 = f == 0 ? h0 & ~(1u << c) : h0;
        uint32_t n1 = f == 1 ? h1 & ~(1u << c) : h1;
        int q0 = p0, q1 = p1, g0 = e0, g1 = e1, tt;
        if (w == 0) {
            q0 += points[led] + points[c] + e0;
            g0 = 0;
            tt = tk | 1;
            n0 |= 1u << top;
            n1 |= 1u << second;
        }
        else {
            q1 += points[led] + points[c] + e1;
            g1 = 0;
            tt = tk | 2;
            n0 |= 1u << second;
            n1 |= 1u << top;
        }
        int a = w == f ? alpha : -beta;
        int b = w == f ? beta : -alpha;
        int vw;
        if (n > 2)
            vw = talon_lead(t, w, n0, n1, talon, n - 2, q0, q1, tt, g0, g1, a, b, -1);
        else
            vw = lead(&t->open, w, n0, n1, q0, q1, tt, g0, g1, a, b, -1);
        if (vw == ERR)
            return ERR;
        int v = w == f ? vw : -vw;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    return best;
}

/* ------------------------------------------------------------------ argument checks */

static int
check_hands(unsigned long long h0, unsigned long long h1)
{
    if ((h0 | h1) >> NCARDS || (h0 & h1) || !(h0 | h1)) {
        PyErr_SetString(PyExc_ValueError, "hands: two disjoint masks of the 32 cards");
        return -1;
    }
    return 0;
}

static int
check_common(int p, int tk, int alpha, int beta, unsigned long long h0, unsigned long long h1)
{
    if ((p != 0 && p != 1) || tk < 0 || tk > 3) {
        PyErr_SetString(PyExc_ValueError, "player: 0 or 1; tk: 0..3");
        return -1;
    }
    if (alpha < -WIN || beta > WIN || alpha >= beta) {
        PyErr_SetString(PyExc_ValueError, "window: -4 <= alpha < beta <= 4");
        return -1;
    }
    if (check_hands(h0, h1) < 0)
        return -1;
    if (!(p == 0 ? h0 : h1)) {
        PyErr_SetString(PyExc_ValueError, "the player to move holds no card");
        return -1;
    }
    return 0;
}

static int
parse_suit(PyObject *obj, int *out, const char *what)
{
    *out = -1;
    if (obj == Py_None)
        return 0;
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v > 3) {
        PyErr_Format(PyExc_ValueError, "%s: a suit 0..3 or None", what);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* The talon tuple (bottom card first) as ints; its length, or -1. */
static int
parse_talon(PyObject *obj, int *talon)
{
    PyObject *fast = PySequence_Fast(obj, "talon: a sequence of cards");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 2 || n > MAX_TALON || n % 2) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "talon: an even number of cards, 2 to 20");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (c < 0 || c >= NCARDS) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "talon: cards 0..31");
            return -1;
        }
        talon[i] = (int)c;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* ------------------------------------------------------------------ the Core type */

static int
Core_init(Core *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"trump", "closer", "snapshot", "bonus", "last_trick_wins",
                             "pending_melds", "next_trick_melds", "played_out_one", "ten_low",
                             NULL};
    int trump, bonus, last_trick_wins, pending_melds, next_trick_melds, played_out_one,
        ten_low, closer, snap0 = 0, snap1 = 0;
    PyObject *closer_obj, *snapshot;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "engine.ai._core: configure() first");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOippppp:Core", kwlist, &trump,
                                     &closer_obj, &snapshot, &bonus, &last_trick_wins,
                                     &pending_melds, &next_trick_melds, &played_out_one,
                                     &ten_low))
        return -1;
    if (trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "trump: a suit 0..3");
        return -1;
    }
    if (parse_suit(closer_obj, &closer, "closer") < 0)
        return -1;
    if (closer > 1) {
        PyErr_SetString(PyExc_ValueError, "closer: 0, 1 or None");
        return -1;
    }
    if (snapshot != Py_None && !PyArg_ParseTuple(snapshot, "ii", &snap0, &snap1))
        return -1;
    if (closer >= 0 && snapshot == Py_None) {
        PyErr_SetString(PyExc_ValueError, "a closer needs a snapshot");
        return -1;
    }
    PyMem_Free(self->s.tt.slots);  /* __init__ called again */
    search_init(&self->s, trump, closer, snap0, snap1, bonus, last_trick_wins, pending_melds,
                next_trick_melds, played_out_one, ten_low);
    return 0;
}

static void
Core_dealloc(Core *self)
{
    PyMem_Free(self->s.tt.slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Core_lead(Core *self, PyObject *args)
{
    int p, p0, p1, tk, pend0, pend1, alpha, beta, melded;
    unsigned long long h0, h1;
    PyObject *melded_obj = Py_None;
    if (self->s.beaters == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Core: not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iKKiiiiiii|O:lead", &p, &h0, &h1, &p0, &p1, &tk, &pend0,
                          &pend1, &alpha, &beta, &melded_obj)
        || parse_suit(melded_obj, &melded, "melded") < 0
        || check_common(p, tk, alpha, beta, h0, h1) < 0)
        return NULL;
    int v = lead(&self->s, p, (uint32_t)h0, (uint32_t)h1, p0, p1, tk, pend0, pend1, alpha,
                 beta, melded);
    return v == ERR ? NULL : PyLong_FromLong(v);
}

static PyObject *
Core_follow(Core *self, PyObject *args)
{
    int f, led, p0, p1, tk, pend0, pend1, alpha, beta;
    unsigned long long h0, h1;
    if (self->s.beaters == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Core: not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iiKKiiiiiii:follow", &f, &led, &h0, &h1, &p0, &p1, &tk,
                          &pend0, &pend1, &alpha, &beta)
        || check_common(f, tk, alpha, beta, h0, h1) < 0)
        return NULL;
    if (led < 0 || led >= NCARDS) {
        PyErr_SetString(PyExc_ValueError, "led: a card 0..31");
        return NULL;
    }
    int v = follow_value(&self->s, f, led, (uint32_t)h0, (uint32_t)h1, p0, p1, tk, pend0,
                         pend1, alpha, beta);
    return v == ERR ? NULL : PyLong_FromLong(v);
}

static PyObject *
Core_get_nodes(Core *self, void *closure)
{
    return PyLong_FromLongLong(self->s.nodes);
}

static PyObject *
Core_get_entries(Core *self, void *closure)
{
    return PyLong_FromSize_t(self->s.tt.used);
}

static PyMethodDef Core_methods[] = {
    {"lead", (PyCFunction)Core_lead, METH_VARARGS,
     "lead(p, h0, h1, p0, p1, tk, pend0, pend1, alpha, beta, melded=None): Solver.lead"},
    {"follow", (PyCFunction)Core_follow, METH_VARARGS,
     "follow(f, led, h0, h1, p0, p1, tk, pend0, pend1, alpha, beta): Solver.follow"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)Core_get_nodes, NULL, "nodes searched (calls of lead)", NULL},
    {"entries", (getter)Core_get_entries, NULL, "transposition table entries", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.ai._core.Core",
    .tp_doc = "The phase-2 solver's search (engine.ai.solver.Solver.lead, .follow) in C.",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

/* ------------------------------------------------------------------ the Talon type */

static void
talon_free_searches(Talon *self)
{
    PyMem_Free(self->open.tt.slots);
    self->open.tt.slots = NULL;
    for (int c = 0; c < 2; c++)
        for (int pts = 0; pts < NTABLE; pts++)
            for (int k = 0; k < 2; k++) {
                Search *s = self->closed[c][pts][k];
                if (s != NULL) {
                    PyMem_Free(s->tt.slots);
                    PyMem_Free(s);
                    self->closed[c][pts][k] = NULL;
                }
            }
    PyMem_Free(self->tt.slots);
    memset(&self->tt, 0, sizeof(self->tt));
}

static int
Talon_init(Talon *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"trump", "bonus", "last_trick_wins", "pending_melds",
                             "next_trick_melds", "played_out_one", "ten_low", "low_trump",
                             "exchange_min", "exchange_needs_trick", "close_min", "may_close",
                             NULL};
    int trump, bonus, last_trick_wins, pending_melds, next_trick_melds, played_out_one,
        ten_low, exchange_min, exchange_needs_trick, close_min, may_close;
    PyObject *low_obj;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "engine.ai._core: configure() first");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iippppp" "Oipip:Talon", kwlist, &trump,
                                     &bonus, &last_trick_wins, &pending_melds,
                                     &next_trick_melds, &played_out_one, &ten_low, &low_obj,
                                     &exchange_min, &exchange_needs_trick, &close_min,
                                     &may_close))
        return -1;
    if (trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "trump: a suit 0..3");
        return -1;
    }
    int low = -1;
    if (low_obj != Py_None) {
        long v = PyLong_AsLong(low_obj);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 0 || v >= NCARDS) {
            PyErr_SetString(PyExc_ValueError, "low_trump: a card 0..31 or None");
            return -1;
        }
        low = (int)v;
    }
    talon_free_searches(self);  /* __init__ called again */
    search_init(&self->open, trump, -1, 0, 0, bonus, last_trick_wins, pending_melds,
                next_trick_melds, played_out_one, ten_low);
    self->low_trump = low;
    self->exchange_min = exchange_min;
    self->exchange_needs_trick = exchange_needs_trick;
    self->close_min = close_min;
    self->may_close = may_close;
    self->pending_melds = pending_melds;
    self->next_trick_melds = next_trick_melds;
    self->beaters = self->open.beaters;
    self->trump_mask = self->open.trump_mask;
    self->meld_value = self->open.meld_value;
    self->nodes = 0;
    return 0;
}

static void
Talon_dealloc(Talon *self)
{
    talon_free_searches(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Talon_lead(Talon *self, PyObject *args)
{
    int p, p0, p1, tk, e0, e1, alpha, beta, melded, talon[MAX_TALON];
    unsigned long long h0, h1;
    PyObject *talon_obj, *melded_obj = Py_None;
    if (self->beaters == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Talon: not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iKKOiiiiiii|O:lead", &p, &h0, &h1, &talon_obj, &p0, &p1, &tk,
                          &e0, &e1, &alpha, &beta, &melded_obj)
        || parse_suit(melded_obj, &melded, "melded") < 0
        || check_common(p, tk, alpha, beta, h0, h1) < 0)
        return NULL;
    int n = parse_talon(talon_obj, talon);
    if (n < 0)
        return NULL;
    int v = talon_lead(self, p, (uint32_t)h0, (uint32_t)h1, talon, n, p0, p1, tk, e0, e1,
                       alpha, beta, melded);
    return v == ERR ? NULL : PyLong_FromLong(v);
}

static PyObject *
Talon_follow(Talon *self, PyObject *args)
{
    int f, led, p0, p1, tk, e0, e1, alpha, beta, talon[MAX_TALON];
    unsigned long long h0, h1;
    PyObject *talon_obj;
    if (self->beaters == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Talon: not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iiKKOiiiiiii:follow", &f, &led, &h0, &h1, &talon_obj, &p0,
                          &p1, &tk, &e0, &e1, &alpha, &beta)
        || check_common(f, tk, alpha, beta, h0, h1) < 0)
        return NULL;
    if (led < 0 || led >= NCARDS) {
        PyErr_SetString(PyExc_ValueError, "led: a card 0..31");
        return NULL;
    }
    int n = parse_talon(talon_obj, talon);
    if (n < 0)
        return NULL;
    int v = talon_follow(self, f, led, (uint32_t)h0, (uint32_t)h1, talon, n, p0, p1, tk, e0,
                         e1, alpha, beta);
    return v == ERR ? NULL : PyLong_FromLong(v);
}

static PyObject *
Talon_get_nodes(Talon *self, void *closure)
{
    return PyLong_FromLongLong(self->nodes);
}

static PyObject *
Talon_get_solver_nodes(Talon *self, void *closure)
{
    long long total = self->open.nodes;
    for (int c = 0; c < 2; c++)
        for (int pts = 0; pts < NTABLE; pts++)
            for (int k = 0; k < 2; k++)
                if (self->closed[c][pts][k] != NULL)
                    total += self->closed[c][pts][k]->nodes;
    return PyLong_FromLongLong(total);
}

static PyMethodDef Talon_methods[] = {
    {"lead", (PyCFunction)Talon_lead, METH_VARARGS,
     "lead(p, h0, h1, talon, p0, p1, tk, e0, e1, alpha, beta, melded=None): "
     "TalonSolver.lead"},
    {"follow", (PyCFunction)Talon_follow, METH_VARARGS,
     "follow(f, led, h0, h1, talon, p0, p1, tk, e0, e1, alpha, beta): TalonSolver.follow"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Talon_getset[] = {
    {"nodes", (getter)Talon_get_nodes, NULL, "phase-1 nodes searched (leads and follows)",
     NULL},
    {"solver_nodes", (getter)Talon_get_solver_nodes, NULL,
     "nodes of the phase-2 searches it used", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TalonType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.ai._core.Talon",
    .tp_doc = "The talon search (engine.ai.talon.TalonSolver.lead, .follow) in C.",
    .tp_basicsize = sizeof(Talon),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Talon_init,
    .tp_dealloc = (destructor)Talon_dealloc,
    .tp_methods = Talon_methods,
    .tp_getset = Talon_getset,
};

/* ------------------------------------------------------------------ solve (one call) */

/* The table of solve(): kept between calls (cleared, not freed, while small), so a solve of
 * a few dozen entries neither allocates nor frees. */
static Table solve_table;
/* A kept table larger than this many slots is freed after its solve, not cleared. */
#define SOLVE_TABLE_KEEP 1024

/* solve(trump, closer, snap0, snap1, bonus, flags, to_move, h0, h1, p0, p1, tk, e0, e1,
 * table_card, melded): solver.solve of a position given as ints (closer, table_card, melded:
 * -1 for none; flags: bits 0-4 last_trick_wins, pending_melds, next_trick_melds,
 * played_out_one, ten_low), a fresh table each call: no Python object is made but the
 * result (solver._solve_native). */
static PyObject *
core_solve(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    long v[16];
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "engine.ai._core: configure() first");
        return NULL;
    }
    if (nargs != 16) {
        PyErr_Format(PyExc_TypeError, "solve: 16 arguments, not %zd", nargs);
        return NULL;
    }
    for (int i = 0; i < 16; i++) {
        v[i] = PyLong_AsLong(args[i]);
        if (v[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    long trump = v[0], closer = v[1], flags = v[5], to_move = v[6], h0 = v[7], h1 = v[8],
         tk = v[11], table_card = v[14], melded = v[15];
    if (trump < 0 || trump > 3 || closer < -1 || closer > 1 || flags < 0 || flags > 31
        || melded < -1 || melded > 3 || table_card < -1 || table_card >= NCARDS) {
        PyErr_SetString(PyExc_ValueError,
                        "solve: trump 0..3, closer -1..1, flags 0..31, melded -1..3, "
                        "table_card -1..31");
        return NULL;
    }
    if (h0 < 0 || h1 < 0 || check_common((int)to_move, (int)tk, -WIN, WIN,
                                         (unsigned long long)h0, (unsigned long long)h1) < 0)
        return NULL;
    Search s;
    search_init(&s, (int)trump, (int)closer, (int)v[2], (int)v[3], (int)v[4], flags & 1,
                flags >> 1 & 1, flags >> 2 & 1, flags >> 3 & 1, flags >> 4 & 1);
    if (solve_table.slots != NULL) {
        memset(solve_table.slots, 0, (solve_table.mask + 1) * sizeof(Slot));
        solve_table.used = 0;
    }
    s.tt = solve_table;
    int value;
    if (table_card < 0)
        value = lead(&s, (int)to_move, (uint32_t)h0, (uint32_t)h1, (int)v[9], (int)v[10],
                     (int)tk, (int)v[12], (int)v[13], -WIN, WIN, (int)melded);
    else
        value = follow_value(&s, (int)to_move, (int)table_card, (uint32_t)h0, (uint32_t)h1,
                             (int)v[9], (int)v[10], (int)tk, (int)v[12], (int)v[13], -WIN,
                             WIN);
    solve_table = s.tt;
    if (solve_table.mask >= SOLVE_TABLE_KEEP) {
        PyMem_Free(solve_table.slots);
        solve_table.slots = NULL;
        solve_table.mask = solve_table.used = 0;
    }
    return value == ERR ? NULL : PyLong_FromLong(value);
}

static PyMethodDef module_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))core_solve, METH_FASTCALL,
     "solve(trump, closer, snap0, snap1, bonus, flags, to_move, h0, h1, p0, p1, tk, e0, e1, "
     "table_card, melded): the exact value of a phase-2 position for the player to move"},
    {"configure", core_configure, METH_VARARGS,
     "configure(points, suit_of, suit_masks, higher, higher_ten_low, beaters, "
     "beaters_ten_low, marriage_of, marriages, meld_values, order, most_points, "
     "fewest_points, table, rules): the card and scoring tables, once"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "engine.ai._core",
    .m_doc = "The native search core of the computer players (engine/ai/_core.c).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit__core(void)
{
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&TalonType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddType(m, &CoreType) < 0 || PyModule_AddType(m, &TalonType) < 0
        || PyModule_AddStringConstant(m, "SOURCE_DIGEST", SIXTYSIX_CORE_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
