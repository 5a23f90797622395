/* Optional accelerator for the expert score (grader.expert), 9x9 grids only.
 *
 * first_family(cands, first) runs the families of grader/expert/families.py in
 * order from index `first` and returns (family index, [hint tuples]) for the
 * first family with a hint, or None.  A hint tuple is (name code, rating in
 * tenths, placements, eliminations, cells, links).  Every finder is a line
 * by line port of its Python twin, in the same scan order, so that both give
 * the same hints in the same order (the tests compare them).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 cm_t; /* a set of cells: bit c for cell c */

#define NC 81
#define ND 9
#define NU 27
#define NF (NC * ND * 2)
#define AW ((NF + 63) / 64) /* words of an ancestor bitset */

static cm_t PEER[NC], UNIT[NU];
static int CELL_UNITS[NC][3], KIND[NU], BLK[NC];
static int ready = 0;

static inline int pc(cm_t m) {
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}
static inline int low(cm_t m) {
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}
static inline int high(cm_t m) {
    uint64_t hi = (uint64_t)(m >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)m);
}
static inline cm_t B(int c) { return (cm_t)1 << c; }
static inline int has(cm_t m, int c) { return (int)((m >> c) & 1); }
static inline int blen(int m) { return m ? 32 - __builtin_clz((unsigned)m) : 0; }

static void init_geo(void) {
    if (ready) return;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
            int cell = r * 9 + c, b = (r / 3) * 3 + c / 3;
            BLK[cell] = b;
            UNIT[r] |= B(cell);
            UNIT[9 + c] |= B(cell);
            UNIT[18 + b] |= B(cell);
            CELL_UNITS[cell][0] = r;
            CELL_UNITS[cell][1] = 9 + c;
            CELL_UNITS[cell][2] = 18 + b;
        }
    for (int u = 0; u < NU; u++) KIND[u] = u / 9;
    for (int c = 0; c < NC; c++) {
        cm_t p = 0;
        for (int k = 0; k < 3; k++) p |= UNIT[CELL_UNITS[c][k]];
        PEER[c] = p & ~B(c);
    }
    ready = 1;
}

/* ------------------------------------------------------------------ position */

typedef struct {
    int cands[NC];
    cm_t open;
    cm_t dm[ND + 1];
    PyObject *out; /* list of hint tuples */
    int err;
} Pos;

/* the hint codes (enum N_...), NFAMILIES, RUN_FAMILY, the declared ratings
   (SE_N_...) and FAMILY_TABLE: written by setup.py from rules/patterns/ */
#include "_families.h"

static int length_tenths(int facts) {
    int length = facts - 2, ceil = 4, odd = 0, added = 0;
    while (length > ceil) {
        added++;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

static PyObject *pairs_tuple(const int *xs, int n) { /* n pairs */
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *p = Py_BuildValue("(ii)", xs[2 * i], xs[2 * i + 1]);
        if (!p) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, p);
    }
    return t;
}

static PyObject *ints_tuple(const int *xs, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(xs[i]));
    return t;
}

static PyObject *triples_tuple(const int *xs, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *p = Py_BuildValue("(iii)", xs[3 * i], xs[3 * i + 1], xs[3 * i + 2]);
        if (!p) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, p);
    }
    return t;
}

static void emit(Pos *P, int name, int rating, const int *pl, int npl, const int *el, int nel,
                 const int *cells, int ncells, const int *links, int nlinks) {
    if (P->err) return;
    PyObject *a = pairs_tuple(pl, npl), *b = pairs_tuple(el, nel), *c = ints_tuple(cells, ncells),
             *d = triples_tuple(links, nlinks);
    PyObject *h = NULL;
    if (a && b && c && d) h = Py_BuildValue("(iiOOOO)", name, rating, a, b, c, d);
    Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(c); Py_XDECREF(d);
    if (!h || PyList_Append(P->out, h) < 0) P->err = 1;
    Py_XDECREF(h);
}

/* (cell, d) for the cells of m holding d, ascending; returns the count */
static int elims(Pos *P, cm_t m, int d, int *out) {
    int n = 0;
    m &= P->dm[d];
    while (m) {
        int c = low(m);
        m &= m - 1;
        out[2 * n] = c;
        out[2 * n + 1] = d;
        n++;
    }
    return n;
}

static int bivalues(Pos *P, int *biv) {
    int n = 0;
    for (cm_t m = P->open; m; m &= m - 1) {
        int c = low(m);
        if (__builtin_popcount(P->cands[c]) == 2) biv[n++] = c;
    }
    return n;
}

/* ------------------------------------------------------ strong-link chains */

#define ROW 1
#define COL 2
#define BOX 4

static int extra_rec(const int *kinds, int n, int i, int used) {
    if (i == n) {
        int lines = (used & ROW ? 1 : 0) + (used & COL ? 1 : 0), box = (used & BOX) != 0;
        return box && lines == 2 ? 2 : (box || lines == 2) ? 1 : 0;
    }
    int best = 2;
    for (int k = 1; k <= 4; k <<= 1)
        if (kinds[i] & k) {
            int e = extra_rec(kinds, n, i + 1, used | k);
            if (e < best) best = e;
        }
    return best;
}

typedef struct { int a, b, k; } Link;
typedef struct { int idx[4]; int len; cm_t used; } SState;
typedef struct { int lo, hi; cm_t used; } SKey;

static void strong_links(Pos *P, int nlinks) {
    static const int base[5] = {0, 0, 40, 54, 58};
    Link pairs[NU], orient[2 * NU];
    static SState stack[4096];
    static SKey seen[4096];
    for (int d = 1; d <= ND; d++) {
        int np = 0;
        cm_t dm = P->dm[d];
        for (int u = 0; u < NU; u++) {
            cm_t p = dm & UNIT[u];
            if (pc(p) != 2) continue;
            int a = low(p), b = high(p), j;
            for (j = 0; j < np; j++)
                if (pairs[j].a == a && pairs[j].b == b) break;
            if (j == np) { pairs[np].a = a; pairs[np].b = b; pairs[np].k = 0; np++; }
            pairs[j].k |= 1 << KIND[u];
        }
        if (np < nlinks) continue;
        /* sorted by (a, b) as Python sorts the dict items */
        for (int i = 1; i < np; i++) {
            Link x = pairs[i];
            int j = i - 1;
            while (j >= 0 && (pairs[j].a > x.a || (pairs[j].a == x.a && pairs[j].b > x.b))) {
                pairs[j + 1] = pairs[j];
                j--;
            }
            pairs[j + 1] = x;
        }
        int no = 0;
        for (int i = 0; i < np; i++) orient[no++] = pairs[i];
        for (int i = 0; i < np; i++) {
            orient[no].a = pairs[i].b; orient[no].b = pairs[i].a; orient[no].k = pairs[i].k;
            no++;
        }
        int sp = 0, nseen = 0;
        for (int i = 0; i < no; i++) {
            stack[sp].idx[0] = i;
            stack[sp].len = 1;
            stack[sp].used = B(orient[i].a) | B(orient[i].b);
            sp++;
        }
        while (sp > 0) {
            SState s = stack[--sp];
            int end = orient[s.idx[s.len - 1]].b;
            if (s.len == nlinks) {
                int start = orient[s.idx[0]].a;
                cm_t el = PEER[start] & PEER[end] & dm & ~s.used;
                if (!el) continue;
                int lo = start < end ? start : end, hi = start < end ? end : start, j;
                for (j = 0; j < nseen; j++)
                    if (seen[j].lo == lo && seen[j].hi == hi && seen[j].used == s.used) break;
                if (j < nseen) continue;
                if (nseen < 4096) { seen[nseen].lo = lo; seen[nseen].hi = hi; seen[nseen].used = s.used; nseen++; }
                int kinds[4], cells[8], links[12], ev[2 * NC];
                for (int t = 0; t < s.len; t++) {
                    Link L = orient[s.idx[t]];
                    kinds[t] = L.k;
                    cells[2 * t] = L.a;
                    cells[2 * t + 1] = L.b;
                    links[3 * t] = L.a;
                    links[3 * t + 1] = L.b;
                    links[3 * t + 2] = d;
                }
                int extra = extra_rec(kinds, s.len, 0, 0), name;
                if (nlinks > 2) name = nlinks == 3 ? N_SLC3 : N_SLC4;
                else if (extra == 0) name = N_SKYSCRAPER;
                else {
                    int lines_only = 1;
                    for (int t = 0; t < s.len; t++)
                        if (!(kinds[t] & (ROW | COL)) || (kinds[t] & BOX)) lines_only = 0;
                    name = lines_only ? N_KITE : N_TURBOT;
                }
                int cap = nlinks == 2 ? 1 : 2;
                int ne = elims(P, el, d, ev);
                emit(P, name, base[nlinks] + (extra < cap ? extra : cap), NULL, 0, ev, ne, cells,
                     2 * s.len, links, s.len);
                continue;
            }
            for (int i = 0; i < no; i++) {
                Link L = orient[i];
                if (has(s.used, L.a) || has(s.used, L.b) || !has(PEER[end], L.a)) continue;
                if (sp >= 4096) break;
                SState t = s;
                t.idx[t.len++] = i;
                t.used |= B(L.a) | B(L.b);
                stack[sp++] = t;
            }
        }
    }
}

/* empty rectangles (grader/expert/links.py) */
static void empty_rectangle(Pos *P, int d, int b, cm_t box, int r, int c) {
    cm_t row = UNIT[r], col = UNIT[9 + c], dm = P->dm[d];
    if ((box & ~(row | col)) || !(box & row & ~col) || !(box & col & ~row)) return;
    int br0 = (b / 3) * 3, bc0 = (b % 3) * 3;
    for (int lk = 1; lk >= 0; lk--)
        for (int i = 0; i < 9; i++) {
            if (lk == 1 && i >= bc0 && i < bc0 + 3) continue;
            if (lk == 0 && i >= br0 && i < br0 + 3) continue;
            cm_t pair = dm & UNIT[lk * 9 + i];
            if (pc(pair) != 2) continue;
            for (cm_t t = pair; t; t &= t - 1) {
                int p = low(t), q = low(pair & ~B(p)), target;
                if (lk == 1 && p / 9 == r) target = (q / 9) * 9 + c;
                else if (lk == 0 && p % 9 == c) target = r * 9 + q % 9;
                else continue;
                if (has(box, target) || !has(dm, target)) continue;
                int ev[2] = {target, d}, cells[NC], nc = 0, links[3] = {p, q, d};
                for (cm_t x = box; x; x &= x - 1) cells[nc++] = low(x);
                cells[nc++] = p;
                cells[nc++] = q;
                emit(P, N_ER, 43, NULL, 0, ev, 1, cells, nc, links, 1);
            }
        }
}

static void empty_rectangles(Pos *P) {
    for (int d = 1; d <= 9; d++)
        for (int b = 0; b < 9; b++) {
            cm_t box = P->dm[d] & UNIT[18 + b];
            if (pc(box) < 2) continue;
            for (int r = (b / 3) * 3; r < (b / 3) * 3 + 3; r++)
                for (int c = (b % 3) * 3; c < (b % 3) * 3 + 3; c++) empty_rectangle(P, d, b, box, r, c);
        }
}

/* -------------------------------------------------------------- wings */

static void xy_wings(Pos *P) {
    int biv[NC], nb = bivalues(P, biv), pins[NC], ev[2 * NC];
    for (int i = 0; i < nb; i++) {
        int p = biv[i], pm = P->cands[p], np = 0;
        for (int j = 0; j < nb; j++) {
            int q = biv[j];
            if (has(PEER[p], q) && __builtin_popcount(P->cands[q] & pm) == 1) pins[np++] = q;
        }
        for (int x = 0; x < np; x++)
            for (int y = x + 1; y < np; y++) {
                int q1 = pins[x], q2 = pins[y], z = P->cands[q1] & P->cands[q2];
                if (__builtin_popcount(z) != 1 || (z & pm) ||
                    (P->cands[q1] & pm) == (P->cands[q2] & pm))
                    continue;
                int ne = elims(P, PEER[q1] & PEER[q2], blen(z), ev);
                if (ne) {
                    int cells[3] = {p, q1, q2};
                    emit(P, N_XY, SE_N_XY, NULL, 0, ev, ne, cells, 3, NULL, 0);
                }
            }
    }
}

static void xyz_wings(Pos *P) {
    int biv[NC], nb = bivalues(P, biv), pins[NC], ev[2 * NC];
    for (cm_t m = P->open; m; m &= m - 1) {
        int p = low(m), pm = P->cands[p], np = 0;
        if (__builtin_popcount(pm) != 3) continue;
        for (int j = 0; j < nb; j++) {
            int q = biv[j];
            if (has(PEER[p], q) && !(P->cands[q] & ~pm)) pins[np++] = q;
        }
        for (int x = 0; x < np; x++)
            for (int y = x + 1; y < np; y++) {
                int q1 = pins[x], q2 = pins[y];
                if (P->cands[q1] == P->cands[q2] || (P->cands[q1] | P->cands[q2]) != pm) continue;
                int d = blen(P->cands[q1] & P->cands[q2]);
                int ne = elims(P, PEER[p] & PEER[q1] & PEER[q2], d, ev);
                if (ne) {
                    int cells[3] = {p, q1, q2};
                    emit(P, N_XYZ, 44, NULL, 0, ev, ne, cells, 3, NULL, 0);
                }
            }
    }
}

static int als_rating(int nd, int largest) {
    if (nd == 4) return largest == 3 ? 56 : 55;
    if (nd == 5) {
        int e = 2 - abs(3 - largest);
        return 62 + (e > 0 ? e : 0);
    }
    return nd == 6 ? 66 : 75;
}

static void als_group(Pos *P, int nd, const int *group, int size, const int *biv, int nb) {
    int uni = 0, largest = 0;
    cm_t g = 0;
    for (int i = 0; i < size; i++) {
        int k = P->cands[group[i]];
        uni |= k;
        g |= B(group[i]);
        if (__builtin_popcount(k) > largest) largest = __builtin_popcount(k);
    }
    if (__builtin_popcount(uni) != nd) return;
    int ev[2 * NC * 9], cells[8];
    for (int i = 0; i < nb; i++) {
        int w = biv[i], wm = P->cands[w];
        if (has(g, w) || (wm & ~uni)) continue;
        for (int x = 0; x < 9; x++) {
            if (!(wm >> x & 1)) continue;
            int z = blen(wm & ~(1 << x));
            cm_t xs = P->dm[x + 1] & g, zs = P->dm[z] & g;
            if ((xs & ~PEER[w]) || !zs) continue;
            cm_t see = PEER[w];
            for (cm_t t = zs; t; t &= t - 1) see &= PEER[low(t)];
            int ne;
            if (!(zs & ~PEER[w])) {
                /* z sees the bivalue cell too: doubly linked (SukakuExplainer);
                 * by digit, then cell */
                cm_t masks[10] = {0};
                masks[z] = see & ~g;
                cm_t sx = PEER[w];
                for (cm_t t = xs; t; t &= t - 1) sx &= PEER[low(t)];
                masks[x + 1] = sx & ~g;
                for (int e = 1; e <= 9; e++) {
                    if (!(uni >> (e - 1) & 1) || e == z || e == x + 1) continue;
                    cm_t se = P->open;
                    for (cm_t t = P->dm[e] & g; t; t &= t - 1) se &= PEER[low(t)];
                    masks[e] = se & ~g;
                }
                ne = 0;
                for (int e = 1; e <= 9; e++)
                    if (masks[e]) ne += elims(P, masks[e], e, ev + 2 * ne);
            } else
                ne = elims(P, see & ~g, z, ev);
            if (ne) {
                for (int j = 0; j < size; j++) cells[j] = group[j];
                cells[size] = w;
                emit(P, nd == 4 ? N_WXYZ : nd == 5 ? N_VWXYZ : nd == 6 ? N_UVWXYZ : N_TUVWXYZ, als_rating(nd, largest),
                     NULL, 0, ev, ne, cells, size + 1, NULL, 0);
            }
        }
    }
}

static int collinear(const int *group, int size) {
    int r = 1, c = 1;
    for (int i = 1; i < size; i++) {
        if (group[i] / 9 != group[0] / 9) r = 0;
        if (group[i] % 9 != group[0] % 9) c = 0;
    }
    return r || c;
}

static void als_wings(Pos *P, int nd) {
    int biv[NC], nb = bivalues(P, biv), size = nd - 1;
    for (int u = 0; u < NU; u++) {
        int cells[9], n = 0;
        for (cm_t m = UNIT[u] & P->open; m; m &= m - 1) {
            int c = low(m);
            if (__builtin_popcount(P->cands[c]) <= nd) cells[n++] = c;
        }
        if (n < size) continue;
        int ix[8], group[8];
        for (int i = 0; i < size; i++) ix[i] = i;
        for (;;) {
            for (int i = 0; i < size; i++) group[i] = cells[ix[i]];
            /* a group on a line and in a block was seen in its line (Python's seen set) */
            if (!(KIND[u] == 2 && collinear(group, size))) als_group(P, nd, group, size, biv, nb);
            int i = size - 1;
            while (i >= 0 && ix[i] == n - size + i) i--;
            if (i < 0) break;
            ix[i]++;
            for (int j = i + 1; j < size; j++) ix[j] = ix[j - 1] + 1;
        }
    }
}

static void bug_plus_one(Pos *P) {
    int extra = -1;
    for (cm_t m = P->open; m; m &= m - 1) {
        int c = low(m), k = __builtin_popcount(P->cands[c]);
        if (k == 2) continue;
        if (k != 3 || extra >= 0) return;
        extra = c;
    }
    if (extra < 0) return;
    for (int d = 1; d <= 9; d++) {
        if (!(P->cands[extra] >> (d - 1) & 1)) continue;
        int ok = 1;
        for (int k = 0; k < 3; k++)
            if (pc(P->dm[d] & UNIT[CELL_UNITS[extra][k]]) != 3) ok = 0;
        if (ok) {
            int pl[2] = {extra, d};
            emit(P, N_BUG, 56, pl, 1, NULL, 0, &extra, 1, NULL, 0);
            return;
        }
    }
}

static void bug_type2(Pos *P) {
    int extra[NC], ne = 0, common = 0x1ff;
    cm_t em = 0;
    for (cm_t m = P->open; m; m &= m - 1) {
        int c = low(m), k = __builtin_popcount(P->cands[c]);
        if (k == 2) continue;
        if (k != 3) return;
        extra[ne++] = c;
        em |= B(c);
        common &= P->cands[c];
    }
    if (ne < 2) return;
    for (int d0 = 0; d0 < 9; d0++) {
        if (!(common >> d0 & 1)) continue;
        int ok = 1;
        for (int u = 0; u < NU && ok; u++)
            for (int e = 1; e <= 9; e++) {
                cm_t x = P->dm[e] & UNIT[u];
                if (e == d0 + 1) x &= ~em;
                int k = pc(x);
                if (k != 0 && k != 2) { ok = 0; break; }
            }
        if (!ok) continue;
        cm_t see = ~(cm_t)0;
        for (int i = 0; i < ne; i++) see &= PEER[extra[i]];
        int ev[2 * NC], n = elims(P, see, d0 + 1, ev);
        if (n) emit(P, N_BUG2, 57, NULL, 0, ev, n, extra, ne, NULL, 0);
    }
}

static void aligned_pairs(Pos *P) {
    int biv[NC], nb = bivalues(P, biv), opens[NC], no = 0;
    cm_t bm = 0;
    for (int i = 0; i < nb; i++) bm |= B(biv[i]);
    for (cm_t m = P->open; m; m &= m - 1) opens[no++] = low(m);
    for (int i = 0; i < no; i++)
        for (int j = i + 1; j < no; j++) {
            int c1 = opens[i], c2 = opens[j];
            cm_t common = PEER[c1] & PEER[c2] & bm;
            if (pc(common) < 2) continue;
            int pairs[NC], npairs = 0;
            for (cm_t t = common; t; t &= t - 1) pairs[npairs++] = P->cands[low(t)];
            int linked = has(PEER[c1], c2), ok1 = 0, ok2 = 0;
            for (int a = 0; a < 9; a++) {
                if (!(P->cands[c1] >> a & 1)) continue;
                for (int b = 0; b < 9; b++) {
                    if (!(P->cands[c2] >> b & 1)) continue;
                    if (linked && a == b) continue;
                    int pm = (1 << a) | (1 << b), hit = 0;
                    for (int k = 0; k < npairs; k++)
                        if (pairs[k] == pm) hit = 1;
                    if (hit) continue;
                    ok1 |= 1 << a;
                    ok2 |= 1 << b;
                }
            }
            int gone[36], ng = 0;
            for (int a = 0; a < 9; a++)
                if ((P->cands[c1] & ~ok1) >> a & 1) { gone[2 * ng] = c1; gone[2 * ng + 1] = a + 1; ng++; }
            for (int b = 0; b < 9; b++)
                if ((P->cands[c2] & ~ok2) >> b & 1) { gone[2 * ng] = c2; gone[2 * ng + 1] = b + 1; ng++; }
            if (ng) {
                int cells[NC], nc = 0;
                cells[nc++] = c1;
                cells[nc++] = c2;
                for (cm_t t = common; t; t &= t - 1) cells[nc++] = low(t);
                emit(P, N_APE, 62, NULL, 0, gone, ng, cells, nc, NULL, 0);
            }
        }
}

/* ------------------------------------------------- rectangles, jellyfish */

static int unit_places(Pos *P, int u, int d, cm_t want) { return (P->dm[d] & UNIT[u]) == want; }

static void ur_type3(Pos *P, const int *rect, int r1, int r2, int extra, const int *shared,
                     int ns) {
    for (int s = 0; s < ns; s++) {
        int u = shared[s], others[9], no = 0;
        for (cm_t m = UNIT[u] & P->open; m; m &= m - 1) {
            int c = low(m);
            if (c != r1 && c != r2) others[no++] = c;
        }
        int top = no < 4 ? no : 4;
        for (int m = 1; m < top; m++) {
            int ix[4];
            for (int i = 0; i < m; i++) ix[i] = i;
            for (;;) {
                int uni = extra;
                for (int i = 0; i < m; i++) uni |= P->cands[others[ix[i]]];
                if (__builtin_popcount(uni) == m + 1) {
                    int ev[2 * 9 * 9], ne = 0;
                    for (int k = 0; k < no; k++) {
                        int in = 0;
                        for (int i = 0; i < m; i++)
                            if (ix[i] == k) in = 1;
                        if (in) continue;
                        int c = others[k], x = P->cands[c] & uni;
                        for (int d = 0; d < 9; d++)
                            if (x >> d & 1) { ev[2 * ne] = c; ev[2 * ne + 1] = d + 1; ne++; }
                    }
                    if (ne) {
                        int cells[8];
                        for (int i = 0; i < 4; i++) cells[i] = rect[i];
                        for (int i = 0; i < m; i++) cells[4 + i] = others[ix[i]];
                        emit(P, N_UR3, 45 + m, NULL, 0, ev, ne, cells, 4 + m, NULL, 0);
                    }
                }
                int i = m - 1;
                while (i >= 0 && ix[i] == no - m + i) i--;
                if (i < 0) break;
                ix[i]++;
                for (int j = i + 1; j < m; j++) ix[j] = ix[j - 1] + 1;
            }
        }
    }
}

static void rectangle(Pos *P, const int *rect, int ab, int a, int b) {
    int floor_n = 0, roof[4], nr = 0;
    for (int i = 0; i < 4; i++) {
        if (P->cands[rect[i]] == ab) floor_n++;
        else roof[nr++] = rect[i];
    }
    if (floor_n == 3) {
        int c = roof[0], ev[4] = {c, a, c, b};
        emit(P, N_UR1, 45, NULL, 0, ev, 2, rect, 4, NULL, 0);
        return;
    }
    if (floor_n != 2) return;
    int r1 = roof[0], r2 = roof[1], shared[3], ns = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (CELL_UNITS[r1][i] == CELL_UNITS[r2][j]) shared[ns++] = CELL_UNITS[r1][i];
    if (!ns) return;
    int extra = (P->cands[r1] | P->cands[r2]) & ~ab;
    if (__builtin_popcount(extra) == 1 && P->cands[r1] == P->cands[r2]) {
        int ev[2 * NC], ne = elims(P, PEER[r1] & PEER[r2], blen(extra), ev);
        if (ne) emit(P, N_UR2, 45, NULL, 0, ev, ne, rect, 4, NULL, 0);
    }
    for (int s = 0; s < ns; s++) {
        int kd[2][2] = {{a, b}, {b, a}};
        for (int t = 0; t < 2; t++)
            if (unit_places(P, shared[s], kd[t][0], B(r1) | B(r2))) {
                int ev[4] = {r1, kd[t][1], r2, kd[t][1]};
                emit(P, N_UR4, 45, NULL, 0, ev, 2, rect, 4, NULL, 0);
            }
    }
    if (__builtin_popcount(extra) >= 2) ur_type3(P, rect, r1, r2, extra, shared, ns);
}

static void unique_rectangles(Pos *P) {
    for (int r1 = 0; r1 < 9; r1++)
        for (int r2 = r1 + 1; r2 < 9; r2++)
            for (int c1 = 0; c1 < 9; c1++)
                for (int c2 = c1 + 1; c2 < 9; c2++) {
                    int rect[4] = {r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2}, ok = 1;
                    for (int i = 0; i < 4; i++)
                        if (!has(P->open, rect[i])) ok = 0;
                    if (!ok) continue;
                    int blocks = 0;
                    for (int i = 0; i < 4; i++) blocks |= 1 << BLK[rect[i]];
                    if (__builtin_popcount(blocks) != 2) continue;
                    int common = P->cands[rect[0]] & P->cands[rect[1]] & P->cands[rect[2]] &
                                 P->cands[rect[3]];
                    if (__builtin_popcount(common) < 2) continue;
                    for (int x = 0; x < 9; x++)
                        for (int y = x + 1; y < 9; y++)
                            if ((common >> x & 1) && (common >> y & 1))
                                rectangle(P, rect, (1 << x) | (1 << y), x + 1, y + 1);
                }
}

/* unique loops of 6, 8, 10 cells (grader/expert/rectangles.py) */
static int UL_COUNT[NU][2], UL_PATH[10], UL_LEN, UL_NSEEN; /* loop cells per unit by colour */
static cm_t UL_SEEN[4096];

static int in_units(int u, int c) {
    return CELL_UNITS[c][0] == u || CELL_UNITS[c][1] == u || CELL_UNITS[c][2] == u;
}

/* every unit of a loop cell holds one cell of each colour (even, odd place) */
static int ul_closed(void) {
    for (int i = 0; i < UL_LEN; i++)
        for (int j = 0; j < 3; j++) {
            int u = CELL_UNITS[UL_PATH[i]][j];
            if (UL_COUNT[u][0] != UL_COUNT[u][1]) return 0;
        }
    return 1;
}

static void ul_hints(Pos *P, int ab, int a, int b) {
    int k = UL_LEN, rating = k == 6 ? 46 : k == 8 ? 47 : 48, extras[10], ne = 0;
    for (int i = 0; i < k; i++)
        if (P->cands[UL_PATH[i]] != ab) extras[ne++] = UL_PATH[i];
    if (ne == 1) {
        int c = extras[0], ev[4] = {c, a, c, b};
        emit(P, N_UL1, rating, NULL, 0, ev, 2, UL_PATH, k, NULL, 0);
        return;
    }
    if (ne < 2) return;
    int z = P->cands[extras[0]] & ~ab, same = 1;
    for (int i = 1; i < ne; i++)
        if ((P->cands[extras[i]] & ~ab) != z) same = 0;
    if (same && __builtin_popcount(z) == 1) {
        cm_t see = ~(cm_t)0;
        for (int i = 0; i < ne; i++) see &= PEER[extras[i]];
        int ev[2 * NC], n = elims(P, see, blen(z), ev);
        if (n) emit(P, N_UL2, rating, NULL, 0, ev, n, UL_PATH, k, NULL, 0);
    }
    if (ne == 2) {
        int x = extras[0], y = extras[1];
        for (int j = 0; j < 3; j++) {
            int u = CELL_UNITS[x][j];
            if (!in_units(u, y)) continue;
            int kd[2][2] = {{a, b}, {b, a}};
            for (int t = 0; t < 2; t++)
                if (unit_places(P, u, kd[t][0], B(x) | B(y))) {
                    int ev[4] = {x, kd[t][1], y, kd[t][1]};
                    emit(P, N_UL4, rating, NULL, 0, ev, 2, UL_PATH, k, NULL, 0);
                }
        }
    }
}

/* extras state: n cells with more than a and b, z their common single extra
   digit bit or 0 (see _extra_state in rectangles.py) */
static void extra_state(int ab, int cands, int n, int z, int *n2, int *z2) {
    if (cands == ab) { *n2 = n; *z2 = z; return; }
    int zq = cands & ~ab, single = (zq & (zq - 1)) == 0 ? zq : 0;
    *n2 = n + 1;
    *z2 = n == 0 ? single : (z == single ? z : 0);
}

static void ul_dfs(Pos *P, int cell, cm_t inset, int ab, int a, int b, int ne, int z) {
    int colour = UL_LEN % 2;
    UL_PATH[UL_LEN++] = cell;
    for (int j = 0; j < 3; j++) UL_COUNT[CELL_UNITS[cell][j]][colour]++;
    int start = UL_PATH[0];
    if (UL_LEN >= 6 && UL_LEN % 2 == 0 && has(PEER[cell], start) && ul_closed()) {
        cm_t key = 0;
        int dup = 0;
        for (int i = 0; i < UL_LEN; i++) key |= B(UL_PATH[i]);
        for (int i = 0; i < UL_NSEEN && !dup; i++)
            if (UL_SEEN[i] == key) dup = 1;
        if (!dup) {
            if (UL_NSEEN < 4096) UL_SEEN[UL_NSEEN++] = key;
            ul_hints(P, ab, a, b);
        }
    }
    if (UL_LEN < 10)
        for (cm_t t = PEER[cell] & inset; t; t &= t - 1) {
            int q = low(t), ok = q > start;
            for (int i = 0; i < UL_LEN && ok; i++)
                if (UL_PATH[i] == q) ok = 0;
            /* a unit of q holds at most one loop cell of q's colour */
            for (int j = 0; j < 3 && ok; j++)
                if (UL_COUNT[CELL_UNITS[q][j]][1 - colour]) ok = 0;
            if (!ok) continue;
            int n2, z2;
            extra_state(ab, P->cands[q], ne, z, &n2, &z2);
            if (n2 <= 2 || z2) ul_dfs(P, q, inset, ab, a, b, n2, z2);
        }
    for (int j = 0; j < 3; j++) UL_COUNT[CELL_UNITS[cell][j]][colour]--;
    UL_LEN--;
}

static void unique_loops(Pos *P) {
    for (int x = 0; x < 9; x++)
        for (int y = x + 1; y < 9; y++) {
            int ab = (1 << x) | (1 << y), n = 0;
            cm_t inset = 0;
            for (cm_t m = P->open; m; m &= m - 1) {
                int c = low(m);
                if ((P->cands[c] & ab) == ab) { inset |= B(c); n++; }
            }
            for (;;) { /* keep the cells whose every unit holds another */
                cm_t keep = inset;
                for (cm_t m = inset; m; m &= m - 1) {
                    int c = low(m);
                    for (int j = 0; j < 3; j++)
                        if (!(inset & UNIT[CELL_UNITS[c][j]] & ~B(c))) keep &= ~B(c);
                }
                if (keep == inset) break;
                inset = keep;
            }
            n = pc(inset);
            if (n < 6) continue;
            UL_NSEEN = 0;
            memset(UL_COUNT, 0, sizeof UL_COUNT);
            UL_LEN = 0;
            for (cm_t m = inset; m; m &= m - 1) {
                int n2, z2;
                extra_state(ab, P->cands[low(m)], 0, 0, &n2, &z2);
                ul_dfs(P, low(m), inset, ab, x + 1, y + 1, n2, z2);
            }
        }
}

static void jellyfish(Pos *P) {
    for (int d = 1; d <= 9; d++) {
        cm_t dm = P->dm[d];
        for (int bk = 0; bk < 2; bk++) {
            int cov[9], nl = 0;
            cm_t pl[9];
            for (int i = 0; i < 9; i++) {
                cm_t p = dm & UNIT[bk * 9 + i];
                int cover = 0;
                for (cm_t t = p; t; t &= t - 1) {
                    int c = low(t);
                    cover |= 1 << (bk == 0 ? c % 9 : c / 9);
                }
                int k = __builtin_popcount(cover);
                if (k >= 2 && k <= 4) { cov[nl] = cover; pl[nl] = p; nl++; }
            }
            for (int a = 0; a < nl; a++)
                for (int b = a + 1; b < nl; b++)
                    for (int c = b + 1; c < nl; c++)
                        for (int e = c + 1; e < nl; e++) {
                            int cover = cov[a] | cov[b] | cov[c] | cov[e];
                            if (__builtin_popcount(cover) != 4) continue;
                            cm_t base = pl[a] | pl[b] | pl[c] | pl[e], cm = 0;
                            for (int j = 0; j < 9; j++)
                                if (cover >> j & 1) cm |= UNIT[(1 - bk) * 9 + j];
                            int ev[2 * NC], ne = elims(P, cm & ~base, d, ev);
                            if (ne) {
                                int cells[NC], nc = 0;
                                for (cm_t t = base; t; t &= t - 1) cells[nc++] = low(t);
                                emit(P, N_JELLY, 52, NULL, 0, ev, ne, cells, nc, NULL, 0);
                            }
                        }
        }
    }
}

/* ------------------------------------------------------------ static chains */

typedef struct {
    short *xadj[NF], *fadj[NF];
    short nx[NF], nfa[NF];
    short pool[NF * 48];
    short *dist[NF]; /* full-graph distances from a start, cached */
} Graph;

static Graph *G = NULL;

static void build_graph(Pos *P, Graph *g) {
    int used = 0;
    memset(g->nx, 0, sizeof g->nx);
    memset(g->nfa, 0, sizeof g->nfa);
    for (int f = 0; f < NF; f++) {
        if (g->dist[f]) { free(g->dist[f]); g->dist[f] = NULL; }
    }
    for (cm_t m = P->open; m; m &= m - 1) {
        int c = low(m), cm = P->cands[c];
        for (int d0 = 0; d0 < 9; d0++) {
            if (!(cm >> d0 & 1)) continue;
            int on = (c * 9 + d0) * 2 + 1, off = on - 1;
            /* ON: X edges then cell edges */
            short *a = g->pool + used;
            int n = 0;
            for (cm_t t = PEER[c] & P->dm[d0 + 1]; t; t &= t - 1) a[n++] = (short)((low(t) * 9 + d0) * 2);
            g->nx[on] = (short)n;
            for (int e = 0; e < 9; e++)
                if (e != d0 && (cm >> e & 1)) a[n++] = (short)((c * 9 + e) * 2);
            g->xadj[on] = g->fadj[on] = a;
            g->nfa[on] = (short)n;
            used += n;
            /* OFF */
            cm_t partners = 0;
            for (int k = 0; k < 3; k++) {
                cm_t p = P->dm[d0 + 1] & UNIT[CELL_UNITS[c][k]];
                if (pc(p) == 2) partners |= p & ~B(c);
            }
            a = g->pool + used;
            n = 0;
            for (cm_t t = partners; t; t &= t - 1) a[n++] = (short)((low(t) * 9 + d0) * 2 + 1);
            g->nx[off] = (short)n;
            if (__builtin_popcount(cm) == 2) a[n++] = (short)((c * 9 + blen(cm & ~(1 << d0)) - 1) * 2 + 1);
            g->xadj[off] = g->fadj[off] = a;
            g->nfa[off] = (short)n;
            used += n;
        }
    }
}

/* BFS from start (X graph when x, else full), stopped at target; fills parent
   (-1 start, -2 unreached) */
static void bfs(Graph *g, int start, int x, int target, short *parent) {
    static short q[NF];
    for (int f = 0; f < NF; f++) parent[f] = -2;
    parent[start] = -1;
    int head = 0, tail = 0;
    q[tail++] = (short)start;
    while (head < tail) {
        int f = q[head++];
        short *a = g->fadj[f];
        int n = x ? g->nx[f] : g->nfa[f];
        for (int i = 0; i < n; i++) {
            int h = a[i];
            if (parent[h] == -2) {
                parent[h] = (short)f;
                if (h == target) return;
                q[tail++] = (short)h;
            }
        }
    }
}

static short *full_from(Graph *g, int start) {
    if (g->dist[start]) return g->dist[start];
    short *dist = malloc(sizeof(short) * NF);
    static short q[NF];
    for (int f = 0; f < NF; f++) dist[f] = -1;
    dist[start] = 0;
    int head = 0, tail = 0;
    q[tail++] = (short)start;
    while (head < tail) {
        int f = q[head++];
        for (int i = 0; i < g->nfa[f]; i++) {
            int h = g->fadj[f][i];
            if (dist[h] < 0) { dist[h] = (short)(dist[f] + 1); q[tail++] = (short)h; }
        }
    }
    g->dist[start] = dist;
    return dist;
}

/* the hint of the chain ending at target; its links are the chain's facts in
   order, (cell, digit, on) each, as grader/strategy/expert/chains.py gives them */
static void chain_hint(Pos *P, const short *parent, int target, int c, int d0, int on, int x) {
    static int facts[NF], path[3 * NF];
    int n = 0, cells[NC], nc = 0;
    for (int f = target; f >= 0; f = parent[f]) facts[n++] = f;
    for (int i = n - 1; i >= 0; i--) {
        int cell = (facts[i] >> 1) / 9, k, j = n - 1 - i;
        path[3 * j] = cell;
        path[3 * j + 1] = (facts[i] >> 1) % 9 + 1;
        path[3 * j + 2] = facts[i] & 1;
        for (k = 0; k < nc; k++)
            if (cells[k] == cell) break;
        if (k == nc) cells[nc++] = cell;
    }
    int rating = (x ? 66 : 70) + length_tenths(n), cd[2] = {c, d0 + 1};
    if (on) emit(P, x ? N_XCHAIN : N_FORCING, rating, NULL, 0, cd, 1, cells, nc, path, n);
    else emit(P, x ? N_XCHAIN : N_FORCING, rating, cd, 1, NULL, 0, cells, nc, path, n);
}

static void x_and_forcing(Pos *P, Graph *g) {
    static short pfull[NF], px[NF];
    for (cm_t m = P->open; m; m &= m - 1) {
        int c = low(m);
        for (int d0 = 0; d0 < 9; d0++) {
            if (!(P->cands[c] >> d0 & 1)) continue;
            for (int on = 1; on >= 0; on--) {
                int start = (c * 9 + d0) * 2 + on, target = start ^ 1;
                /* the X graph is part of the full graph: no full chain, no X-chain */
                bfs(g, start, 0, target, pfull);
                if (pfull[target] == -2) continue;
                bfs(g, start, 1, target, px);
                if (px[target] != -2) chain_hint(P, px, target, c, d0, on, 1);
                chain_hint(P, pfull, target, c, d0, on, 0);
            }
        }
    }
}

/* shortest Y loop from s leaving on out0 and closing on close: fills cyc
   (cell, out) pairs, returns the number of cells or 0 */
static int shortest_cycle(Pos *P, const int *biv, int nb, int s, int out0, int close,
                          int *cyc) {
    static short par[NC * 9];
    static int front[NC * 9], nxt[NC * 9];
    for (int i = 0; i < NC * 9; i++) par[i] = -2;
    par[s * 9 + out0] = -1;
    int nf = 1;
    front[0] = s * 9 + out0;
    while (nf) {
        int nn = 0;
        for (int i = 0; i < nf; i++) {
            int cell = front[i] / 9, out = front[i] % 9;
            for (int j = 0; j < nb; j++) {
                int q = biv[j];
                if (q == s || !(P->cands[q] >> out & 1) || !has(PEER[cell], q)) continue;
                int qout = blen(P->cands[q] & ~(1 << out)) - 1, st = q * 9 + qout;
                if (par[st] != -2) continue;
                par[st] = (short)front[i];
                if (qout == close && has(PEER[q], s)) {
                    int n = 0, tmp[NC * 9];
                    for (int x = st; x >= 0; x = par[x]) tmp[n++] = x;
                    int ok = n >= 3;
                    for (int a = 0; a < n && ok; a++)
                        for (int b = a + 1; b < n; b++)
                            if (tmp[a] / 9 == tmp[b] / 9) { ok = 0; break; }
                    if (ok) {
                        for (int k = 0; k < n; k++) {
                            cyc[2 * k] = tmp[n - 1 - k] / 9;
                            cyc[2 * k + 1] = tmp[n - 1 - k] % 9;
                        }
                        return n;
                    }
                }
                nxt[nn++] = st;
            }
        }
        memcpy(front, nxt, sizeof(int) * nn);
        nf = nn;
    }
    return 0;
}

static int cmp_triple(const void *a, const void *b) {
    const int *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

static void y_cycles(Pos *P) {
    int biv[NC], nb = bivalues(P, biv);
    static int seen[512][3 * NC + 1];
    int nseen = 0;
    for (int i = 0; i < nb; i++) {
        int s = biv[i];
        for (int out0 = 0; out0 < 9; out0++) {
            if (!(P->cands[s] >> out0 & 1)) continue;
            int close = blen(P->cands[s] & ~(1 << out0)) - 1, cyc[2 * NC];
            int k = shortest_cycle(P, biv, nb, s, out0, close, cyc);
            if (!k) continue;
            int links[3 * NC], key[3 * NC];
            cm_t loop = 0;
            for (int t = 0; t < k; t++) {
                int a = cyc[2 * t], b = cyc[2 * ((t + 1) % k)];
                links[3 * t] = a < b ? a : b;
                links[3 * t + 1] = a < b ? b : a;
                links[3 * t + 2] = cyc[2 * t + 1] + 1;
                loop |= B(a);
            }
            memcpy(key, links, sizeof(int) * 3 * k);
            qsort(key, k, sizeof(int) * 3, cmp_triple);
            int dup = 0;
            for (int j = 0; j < nseen && !dup; j++)
                if (seen[j][0] == k && !memcmp(seen[j] + 1, key, sizeof(int) * 3 * k)) dup = 1;
            if (dup) continue;
            if (nseen < 512) {
                seen[nseen][0] = k;
                memcpy(seen[nseen] + 1, key, sizeof(int) * 3 * k);
                nseen++;
            }
            int ev[2 * NC * 9], ne = 0, tmp[2 * NC];
            for (int t = 0; t < k; t++) {
                int n = elims(P, PEER[links[3 * t]] & PEER[links[3 * t + 1]] & ~loop,
                              links[3 * t + 2], tmp);
                for (int x = 0; x < n; x++) {
                    int dupe = 0;
                    for (int y = 0; y < ne; y++)
                        if (ev[2 * y] == tmp[2 * x] && ev[2 * y + 1] == tmp[2 * x + 1]) dupe = 1;
                    if (!dupe) { ev[2 * ne] = tmp[2 * x]; ev[2 * ne + 1] = tmp[2 * x + 1]; ne++; }
                }
            }
            if (ne) {
                int cells[NC];
                for (int t = 0; t < k; t++) cells[t] = cyc[2 * t];
                emit(P, N_YCYCLE, 65 + length_tenths(2 * k), NULL, 0, ev, ne, cells, k, links, k);
            }
        }
    }
}

static void forcing(Pos *P, Graph *g, int name, const int *starts, int ns, const int *cells,
                    int nc) {
    short *dists[9];
    for (int i = 0; i < ns; i++) dists[i] = full_from(g, starts[i]);
    for (int f = 0; f < NF; f++) {
        if (dists[0][f] <= 0) continue;
        int cell = (f >> 1) / 9, d0 = (f >> 1) % 9;
        if (!(P->cands[cell] >> d0 & 1)) continue;
        int total = 0, ok = 1;
        for (int i = 0; i < ns; i++) {
            if (dists[i][f] < 0) { ok = 0; break; }
            total += dists[i][f] + 1;
        }
        if (!ok) continue;
        int cd[2] = {cell, d0 + 1};
        if (f & 1) emit(P, name, 80 + length_tenths(total), cd, 1, NULL, 0, cells, nc, NULL, 0);
        else emit(P, name, 80 + length_tenths(total), NULL, 0, cd, 1, cells, nc, NULL, 0);
    }
}

static void multiple_chains(Pos *P, Graph *g) {
    int starts[9], cells[9];
    for (cm_t m = P->open; m; m &= m - 1) {
        int c = low(m), ns = 0;
        if (__builtin_popcount(P->cands[c]) < 3) continue;
        for (int d0 = 0; d0 < 9; d0++)
            if (P->cands[c] >> d0 & 1) starts[ns++] = (c * 9 + d0) * 2 + 1;
        forcing(P, g, N_CELLF, starts, ns, &c, 1);
    }
    for (int u = 0; u < NU; u++)
        for (int d = 1; d <= 9; d++) {
            cm_t p = P->dm[d] & UNIT[u];
            if (pc(p) < 3) continue;
            int ns = 0;
            for (cm_t t = p; t; t &= t - 1) {
                cells[ns] = low(t);
                starts[ns] = (cells[ns] * 9 + d - 1) * 2 + 1;
                ns++;
            }
            forcing(P, g, N_REGIONF, starts, ns, cells, ns);
        }
}

/* ------------------------------------------------------- dynamic searches */

typedef struct {
    int conflict;  /* facts among the ancestors of the contradiction, 0 if none */
    int n;         /* derived facts, in derivation order */
    short *order;
    short *count;  /* ancestors of each derived fact (0: not derived) */
} Branch;

static uint64_t ANC[NF][AW];
static char DER[NF];
static int CIDX[NF]; /* bit of each candidate's facts in an ancestor set */
static int AWN = AW;  /* words in use: the position's facts only */

static void compact_facts(Pos *P) {
    int k = 0;
    for (int f = 0; f < NF; f++) {
        int c = (f >> 1) / 9, d0 = (f >> 1) % 9;
        CIDX[f] = (P->cands[c] >> d0 & 1) ? k++ : 0;
    }
    AWN = (k + 63) / 64;
    if (AWN < 1) AWN = 1;
}

static inline void anc_or(uint64_t *dst, const uint64_t *src) {
    for (int i = 0; i < AWN; i++) dst[i] |= src[i];
}
static inline int anc_count(const uint64_t *a) {
    int n = 0;
    for (int i = 0; i < AWN; i++) n += __builtin_popcountll(a[i]);
    return n;
}

/* derive fact g with ancestors a (plus itself) unless already derived */
static inline void derive(int g, const uint64_t *a, short *queue, int *tail) {
    if (DER[g]) return;
    DER[g] = 1;
    memcpy(ANC[g], a, sizeof(uint64_t) * AWN);
    ANC[g][CIDX[g] >> 6] |= (uint64_t)1 << (CIDX[g] & 63);
    queue[(*tail)++] = (short)g;
}

/* singles from `start` (only digit's moves when digit > 0), as
   grader/expert/dynamic.py propagate; fills br (order and counts only when
   keep) */
static void propagate(Pos *P, int start, int digit, Branch *br, int keep) {
    int cands[NC];
    static short queue[NF];
    uint64_t a[AW];
    memcpy(cands, P->cands, sizeof cands);
    memset(DER, 0, sizeof DER);
    br->conflict = 0;
    br->n = 0;
    int head = 0, tail = 0;
    memset(a, 0, sizeof a);
    derive(start, a, queue, &tail);
    while (head < tail) {
        int f = queue[head++], c = (f >> 1) / 9, d0 = (f >> 1) % 9, bit = 1 << d0;
        if (f & 1) {
            if (!(cands[c] & bit)) {
                memcpy(a, ANC[f], sizeof(uint64_t) * AWN);
                if (DER[f ^ 1]) anc_or(a, ANC[f ^ 1]);
                br->conflict = anc_count(a);
                goto done;
            }
            int kill = digit ? 0 : cands[c] & ~bit;
            for (int e = 0; e < 9; e++)
                if (kill >> e & 1) derive((c * 9 + e) * 2, ANC[f], queue, &tail);
            for (cm_t t = PEER[c]; t; t &= t - 1) {
                int q = low(t);
                if (cands[q] & bit) derive((q * 9 + d0) * 2, ANC[f], queue, &tail);
            }
            continue;
        }
        if (!(cands[c] & bit)) continue;
        if (DER[f | 1]) {
            memcpy(a, ANC[f], sizeof(uint64_t) * AWN);
            anc_or(a, ANC[f | 1]);
            br->conflict = anc_count(a);
            goto done;
        }
        cands[c] &= ~bit;
        if (!digit) {
            int left = cands[c];
            if (!left || !(left & (left - 1))) {
                memset(a, 0, sizeof a);
                int gone = P->cands[c] & ~left;
                for (int e = 0; e < 9; e++)
                    if ((gone >> e & 1) && DER[(c * 9 + e) * 2]) anc_or(a, ANC[(c * 9 + e) * 2]);
                if (!left) { br->conflict = anc_count(a) + 1; goto done; }
                derive((c * 9 + blen(left) - 1) * 2 + 1, a, queue, &tail);
            }
        }
        for (int k = 0; k < 3; k++) {
            cm_t um = UNIT[CELL_UNITS[c][k]], places = um & P->dm[d0 + 1], left = 0;
            for (cm_t t = places; t; t &= t - 1)
                if (cands[low(t)] & bit) left |= B(low(t));
            if (left & (left - 1)) continue;
            memset(a, 0, sizeof a);
            for (cm_t t = places & ~left; t; t &= t - 1) {
                int g = (low(t) * 9 + d0) * 2;
                if (DER[g]) anc_or(a, ANC[g]);
            }
            if (!left) { br->conflict = anc_count(a) + 1; goto done; }
            derive((low(left) * 9 + d0) * 2 + 1, a, queue, &tail);
        }
    }
done:
    if (keep && !br->conflict) {
        br->n = tail;
        br->order = malloc(sizeof(short) * (tail ? tail : 1));
        br->count = calloc(NF, sizeof(short));
        for (int i = 0; i < tail; i++) {
            int g = queue[i];
            br->order[i] = (short)g;
            br->count[g] = (short)anc_count(ANC[g]);
        }
    }
}

static void nishio(Pos *P) {
    Branch br;
    for (cm_t m = P->open; m; m &= m - 1) {
        int c = low(m);
        for (int d0 = 0; d0 < 9; d0++) {
            if (!(P->cands[c] >> d0 & 1)) continue;
            propagate(P, (c * 9 + d0) * 2 + 1, d0 + 1, &br, 0);
            if (br.conflict) {
                int cd[2] = {c, d0 + 1};
                emit(P, N_NISHIO, 75 + length_tenths(br.conflict), NULL, 0, cd, 1, &c, 1, NULL, 0);
            }
        }
    }
}

static Branch *BR[NF];

static Branch *branch(Pos *P, int start) {
    if (!BR[start]) {
        BR[start] = calloc(1, sizeof(Branch));
        propagate(P, start, 0, BR[start], 1);
    }
    return BR[start];
}

static void free_branches(void) {
    for (int f = 0; f < NF; f++)
        if (BR[f]) {
            free(BR[f]->order);
            free(BR[f]->count);
            free(BR[f]);
            BR[f] = NULL;
        }
}

static void pair(Pos *P, int s1, int s2, int name, const int *cells, int nc) {
    Branch *b1 = branch(P, s1), *b2 = branch(P, s2);
    if (b1->conflict || b2->conflict) return;
    for (int i = 0; i < b1->n; i++) {
        int f = b1->order[i];
        if (!b2->count[f]) continue;
        int c = (f >> 1) / 9, d0 = (f >> 1) % 9;
        if (!(P->cands[c] >> d0 & 1)) continue;
        int rating = 85 + length_tenths(b1->count[f] + b2->count[f]), cd[2] = {c, d0 + 1};
        if (f & 1) emit(P, name, rating, cd, 1, NULL, 0, cells, nc, NULL, 0);
        else emit(P, name, rating, NULL, 0, cd, 1, cells, nc, NULL, 0);
    }
}

static void dynamic(Pos *P) {
    for (cm_t m = P->open; m; m &= m - 1) {
        int c = low(m);
        for (int d0 = 0; d0 < 9; d0++) {
            if (!(P->cands[c] >> d0 & 1)) continue;
            Branch *br = branch(P, (c * 9 + d0) * 2 + 1);
            if (br->conflict) {
                int cd[2] = {c, d0 + 1};
                emit(P, N_DYNCON, 85 + length_tenths(br->conflict), NULL, 0, cd, 1, &c, 1, NULL, 0);
            }
        }
    }
    for (cm_t m = P->open; m; m &= m - 1) {
        int c = low(m), cm = P->cands[c];
        if (__builtin_popcount(cm) != 2) continue;
        int x = __builtin_ctz(cm), y = blen(cm) - 1;
        pair(P, (c * 9 + x) * 2 + 1, (c * 9 + y) * 2 + 1, N_DYNCELL, &c, 1);
    }
    static cm_t seenp[NU * 9];
    static int seend[NU * 9];
    int nseen = 0;
    for (int u = 0; u < NU; u++)
        for (int d = 1; d <= 9; d++) {
            cm_t p = P->dm[d] & UNIT[u];
            if (pc(p) != 2) continue;
            int dup = 0;
            for (int j = 0; j < nseen; j++)
                if (seenp[j] == p && seend[j] == d) dup = 1;
            if (dup) continue;
            seenp[nseen] = p;
            seend[nseen++] = d;
            int cells[2] = {low(p), high(p)};
            pair(P, (cells[0] * 9 + d - 1) * 2 + 1, (cells[1] * 9 + d - 1) * 2 + 1, N_DYNREGION,
                 cells, 2);
        }
}

/* ----------------------------------------------- quads, aligned triplets */

static void naked_quads(Pos *P) {
    for (int u = 0; u < NU; u++) {
        int opens[9], no = 0, small[9], ns = 0;
        for (cm_t m = UNIT[u] & P->open; m; m &= m - 1) {
            int c = low(m);
            opens[no++] = c;
            if (__builtin_popcount(P->cands[c]) <= 4) small[ns++] = c;
        }
        for (int a = 0; a < ns; a++)
            for (int b = a + 1; b < ns; b++)
                for (int c = b + 1; c < ns; c++)
                    for (int e = c + 1; e < ns; e++) {
                        int g[4] = {small[a], small[b], small[c], small[e]};
                        int uni = P->cands[g[0]] | P->cands[g[1]] | P->cands[g[2]] | P->cands[g[3]];
                        if (__builtin_popcount(uni) != 4) continue;
                        int ev[2 * 9 * 9], ne = 0;
                        for (int k = 0; k < no; k++) {
                            int x = opens[k];
                            if (x == g[0] || x == g[1] || x == g[2] || x == g[3]) continue;
                            for (int d = 0; d < 9; d++)
                                if ((P->cands[x] & uni) >> d & 1) { ev[2 * ne] = x; ev[2 * ne + 1] = d + 1; ne++; }
                        }
                        if (ne) emit(P, N_NQUAD, 50, NULL, 0, ev, ne, g, 4, NULL, 0);
                    }
    }
}

static void hidden_quads(Pos *P) {
    for (int u = 0; u < NU; u++) {
        int digits[9], nd = 0;
        for (int d = 1; d <= 9; d++) {
            int k = pc(P->dm[d] & UNIT[u]);
            if (k >= 2 && k <= 4) digits[nd++] = d;
        }
        for (int a = 0; a < nd; a++)
            for (int b = a + 1; b < nd; b++)
                for (int c = b + 1; c < nd; c++)
                    for (int e = c + 1; e < nd; e++) {
                        int q[4] = {digits[a], digits[b], digits[c], digits[e]}, keep = 0;
                        cm_t places = 0;
                        for (int i = 0; i < 4; i++) {
                            places |= P->dm[q[i]] & UNIT[u];
                            keep |= 1 << (q[i] - 1);
                        }
                        if (pc(places) != 4) continue;
                        int ev[2 * 4 * 9], ne = 0, cells[4], nc = 0;
                        for (cm_t t = places; t; t &= t - 1) {
                            int x = low(t);
                            cells[nc++] = x;
                            for (int d = 0; d < 9; d++)
                                if ((P->cands[x] & ~keep) >> d & 1) { ev[2 * ne] = x; ev[2 * ne + 1] = d + 1; ne++; }
                        }
                        if (ne) emit(P, N_HQUAD, 54, NULL, 0, ev, ne, cells, 4, NULL, 0);
                    }
    }
}

static void triplet(Pos *P, int c1, int c2, int c3, cm_t common) {
    /* bad: the value sets of three (a 9-bit mask of at most 3 digits) that
       hold every candidate of some excluder (an excluder has 2 or 3) */
    uint64_t bad[8] = {0};
    for (cm_t t = common; t; t &= t - 1) {
        int e = P->cands[low(t)];
        bad[e >> 6] |= (uint64_t)1 << (e & 63);
        if (__builtin_popcount(e) != 2) continue;
        for (int d = 0; d < 9; d++)
            if (!(e >> d & 1)) bad[(e | 1 << d) >> 6] |= (uint64_t)1 << ((e | 1 << d) & 63);
    }
    int s12 = has(PEER[c1], c2), s13 = has(PEER[c1], c3), s23 = has(PEER[c2], c3);
    int k1 = P->cands[c1], k2 = P->cands[c2], k3 = P->cands[c3];
    int ok1 = 0, ok2 = 0, ok3 = 0;
    /* every candidate of the three allowed: nothing to remove, stop early */
    for (int ma = k1; ma && (ok1 != k1 || ok2 != k2 || ok3 != k3); ma &= ma - 1) {
        int a = __builtin_ctz((unsigned)ma);
        for (int mb = k2; mb; mb &= mb - 1) {
            int b = __builtin_ctz((unsigned)mb);
            if (s12 && a == b) continue;
            for (int mc = k3; mc; mc &= mc - 1) {
                int c = __builtin_ctz((unsigned)mc);
                if ((s13 && a == c) || (s23 && b == c)) continue;
                int m = (1 << a) | (1 << b) | (1 << c);
                if (bad[m >> 6] >> (m & 63) & 1) continue;
                ok1 |= 1 << a;
                ok2 |= 1 << b;
                ok3 |= 1 << c;
            }
        }
    }
    int gone[54], ng = 0, cs[3] = {c1, c2, c3}, oks[3] = {ok1, ok2, ok3};
    for (int i = 0; i < 3; i++)
        for (int d = 0; d < 9; d++)
            if ((P->cands[cs[i]] & ~oks[i]) >> d & 1) { gone[2 * ng] = cs[i]; gone[2 * ng + 1] = d + 1; ng++; }
    if (ng) {
        int cells[NC], nc = 0;
        cells[nc++] = c1;
        cells[nc++] = c2;
        cells[nc++] = c3;
        for (cm_t t = common; t; t &= t - 1) cells[nc++] = low(t);
        emit(P, N_ATE, 75, NULL, 0, gone, ng, cells, nc, NULL, 0);
    }
}

static void aligned_triplets(Pos *P) {
    int opens[NC], no = 0;
    cm_t excl = 0;
    for (cm_t m = P->open; m; m &= m - 1) {
        int c = low(m), k = __builtin_popcount(P->cands[c]);
        opens[no++] = c;
        if (k >= 2 && k <= 3) excl |= B(c);
    }
    for (int i = 0; i < no; i++)
        for (int j = i + 1; j < no; j++) {
            cm_t c12 = PEER[opens[i]] & PEER[opens[j]] & excl;
            if (pc(c12) < 2) continue;
            for (int k = j + 1; k < no; k++) {
                cm_t common = c12 & PEER[opens[k]];
                if (pc(common) >= 2) triplet(P, opens[i], opens[j], opens[k], common);
            }
        }
}

/* ------------------------------------------------------------------ module */

static void run_family(Pos *P, int fam) {
    RUN_FAMILY(fam)
}

static PyObject *first_family(PyObject *self, PyObject *args) {
    PyObject *seq;
    int first = 0, last = NFAMILIES;
    if (!PyArg_ParseTuple(args, "O|ii", &seq, &first, &last)) return NULL;
    if (last > NFAMILIES) last = NFAMILIES;
    PyObject *fast = PySequence_Fast(seq, "cands must be a sequence");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != NC) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "expected 81 candidate masks");
        return NULL;
    }
    init_geo();
    Pos P;
    memset(&P, 0, sizeof P);
    for (int c = 0; c < NC; c++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, c));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
        P.cands[c] = (int)(v & 0x1ff);
        if (P.cands[c]) {
            P.open |= B(c);
            for (int d0 = 0; d0 < 9; d0++)
                if (v >> d0 & 1) P.dm[d0 + 1] |= B(c);
        }
    }
    Py_DECREF(fast);
    if (!G) {
        G = calloc(1, sizeof(Graph));
        if (!G) return PyErr_NoMemory();
    }
    int built = 0;
    PyObject *result = Py_None;
    Py_INCREF(Py_None);
    for (int fam = first; fam < last; fam++) {
        P.out = PyList_New(0);
        if (!P.out) break;
        if (FAMILY_NEEDS_GRAPH(fam) && !built) { build_graph(&P, G); built = 1; }
        if (FAMILY_COMPACTS(fam)) compact_facts(&P);
        run_family(&P, fam);
        if (P.err) { Py_DECREF(P.out); P.out = NULL; break; }
        if (PyList_GET_SIZE(P.out)) {
            Py_DECREF(result);
            result = Py_BuildValue("(iN)", fam, P.out);
            P.out = NULL;
            break;
        }
        Py_DECREF(P.out);
        P.out = NULL;
    }
    free_branches();
    if (P.err || PyErr_Occurred()) { Py_XDECREF(result); return NULL; }
    return result;
}

static PyMethodDef methods[] = {
    {"first_family", first_family, METH_VARARGS,
     "first_family(cands, first=0, last=17): (family number, [hints]) of the first "
     "family, numbers first to last - 1, with a hint on a 9x9 position, or None."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_expert",
                                    "Accelerator of grader.expert (9x9).", -1, methods};

PyMODINIT_FUNC PyInit__expert(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "TABLE", FAMILY_TABLE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
