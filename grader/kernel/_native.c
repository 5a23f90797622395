/*
 * grader._native: the accelerator behind trials (levels 13-14), rule probes,
 * contradiction checks and the exact solver.
 *
 * It computes the same things as the pure-Python code it stands in for
 * (grader/propagate.py fixpoint, rules/trials.py branch evaluation,
 * grader/solver.py), on the same candidate bitmasks.  Rules it does not know
 * (plugins written in Python) are called back when its own rules are stuck
 * (FAM_PYTHON, see run_python_rule and native.PythonRule).  The
 * rules are monotonic, so the fixpoint ("closure") does not depend on the
 * order in which deductions are applied; this module applies every deduction
 * it finds at once, which is what makes it fast.
 *
 * Grids up to 36x36: candidates are uint64_t masks, value v is bit v-1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t M;

#if defined(_MSC_VER)
#define THREAD_LOCAL __declspec(thread)
#else
#define THREAD_LOCAL __thread
#endif

#define MAXN 36
#define MAXC (MAXN * MAXN)
#define MAXRULES 32

/* Work counters, read by stats() (for benchmarks).  The C work runs with the
   GIL released, in several threads at once (Dask runs grids in threads), so
   each thread counts its own call in `work` (thread-local, no lock needed);
   every entry point adds its call's counts to `totals` once it holds the GIL
   again (work_flush), so `totals` is only ever touched under the GIL. */
typedef struct {
    unsigned long long fix, trial_pass, closure[8], closure_true[8], seeded, carried;
} Counters;
static THREAD_LOCAL Counters work;
static Counters totals;

static void work_flush(void) {
    totals.fix += work.fix;
    totals.trial_pass += work.trial_pass;
    totals.seeded += work.seeded;
    totals.carried += work.carried;
    for (int i = 0; i < 8; i++) {
        totals.closure[i] += work.closure[i];
        totals.closure_true[i] += work.closure_true[i];
    }
    memset(&work, 0, sizeof(work));
}

static inline int popc(M x) { return __builtin_popcountll(x); }
static inline int lowv(M x) { return __builtin_ctzll(x) + 1; } /* value of lowest bit */

/* ------------------------------------------------------------------ */
/* geometry                                                            */

typedef struct {
    int n, a, b, nc, nr, np;
    int per_band, nbands;
    M full;
    short reg[3 * MAXN][MAXN];
    short *creg;  /* nc * 3 */
    short *peers; /* nc * np */
    unsigned char *crow, *ccol, *cblk;
    short band[MAXN][MAXN];  /* band i: block ids, per_band of them */
    short stack[MAXN][MAXN]; /* stack j: block ids, nbands of them */
} Geo;

static void geo_free(PyObject *cap) {
    Geo *g = (Geo *)PyCapsule_GetPointer(cap, "grader._native.Geo");
    if (!g) return;
    free(g->creg);
    free(g->peers);
    free(g->crow);
    free(g->ccol);
    free(g->cblk);
    free(g);
}

static Geo *geo_build(int a, int b) {
    int n = a * b;
    if (a < 1 || b < 1 || n > MAXN) return NULL;
    Geo *g = calloc(1, sizeof(Geo));
    if (!g) return NULL;
    g->n = n; g->a = a; g->b = b; g->nc = n * n; g->nr = 3 * n;
    g->full = (((M)1 << n) - 1);
    g->per_band = n / b;
    g->nbands = n / a;
    g->crow = malloc(g->nc); g->ccol = malloc(g->nc); g->cblk = malloc(g->nc);
    g->creg = malloc(sizeof(short) * g->nc * 3);
    for (int c = 0; c < g->nc; c++) {
        int r = c / n, col = c % n;
        int k = (r / a) * g->per_band + col / b;
        g->crow[c] = r; g->ccol[c] = col; g->cblk[c] = k;
        g->creg[c * 3] = r; g->creg[c * 3 + 1] = n + col; g->creg[c * 3 + 2] = 2 * n + k;
    }
    for (int r = 0; r < n; r++)
        for (int j = 0; j < n; j++) g->reg[r][j] = r * n + j;
    for (int col = 0; col < n; col++)
        for (int i = 0; i < n; i++) g->reg[n + col][i] = i * n + col;
    for (int k = 0; k < n; k++) {
        int r0 = (k / g->per_band) * a, c0 = (k % g->per_band) * b, t = 0;
        for (int i = 0; i < a; i++)
            for (int j = 0; j < b; j++) g->reg[2 * n + k][t++] = (r0 + i) * n + c0 + j;
    }
    /* peers: union of the three regions minus the cell (same count for every cell) */
    static char seen[MAXC];
    int np = 0;
    memset(seen, 0, sizeof(seen));
    for (int t = 0; t < 3; t++)
        for (int j = 0; j < n; j++) seen[g->reg[g->creg[t]][j]] = 1;
    for (int x = 1; x < g->nc; x++) np += seen[x];
    g->np = np;
    g->peers = malloc(sizeof(short) * g->nc * np);
    for (int c = 0; c < g->nc; c++) {
        memset(seen, 0, g->nc);
        for (int t = 0; t < 3; t++)
            for (int j = 0; j < n; j++) seen[g->reg[g->creg[c * 3 + t]][j]] = 1;
        seen[c] = 0;
        int q = 0;
        for (int x = 0; x < g->nc; x++)
            if (seen[x]) g->peers[c * np + q++] = x;
    }
    for (int i = 0; i < g->nbands; i++)
        for (int j = 0; j < g->per_band; j++) g->band[i][j] = i * g->per_band + j;
    for (int j = 0; j < g->per_band; j++)
        for (int i = 0; i < g->nbands; i++) g->stack[j][i] = i * g->per_band + j;
    return g;
}

static PyObject *py_geometry(PyObject *self, PyObject *args) {
    int a, b;
    if (!PyArg_ParseTuple(args, "ii", &a, &b)) return NULL;
    Geo *g = geo_build(a, b);
    if (!g) {
        PyErr_SetString(PyExc_ValueError, "unsupported block shape");
        return NULL;
    }
    return PyCapsule_New(g, "grader._native.Geo", geo_free);
}

/* ------------------------------------------------------------------ */
/* state conversion                                                    */

typedef struct {
    uint8_t v[MAXC];
    M c[MAXC];
    /* What changed since the rules last looked: regions (rows, columns,
       blocks) and values.  Rules only search where something changed, which
       is exact because every rule's premise lies inside the regions (or the
       value) it is searched by. */
    uint8_t dirty[3 * MAXN];
    M dv;
} State; /* only the first nc entries of v and c are used; see st_copy */

/* copy values and candidates; the copy starts with nothing marked as changed */
static inline void st_copy(const Geo *g, State *dst, const State *src) {
    memcpy(dst->v, src->v, g->nc);
    memcpy(dst->c, src->c, sizeof(M) * g->nc);
    memset(dst->dirty, 0, g->nr);
    dst->dv = 0;
}

static inline void st_all_dirty(const Geo *g, State *st) {
    memset(st->dirty, 1, g->nr);
    st->dv = g->full;
}

static inline void mark(const Geo *g, State *st, int c, M bits) {
    const short *cr = g->creg + c * 3;
    st->dirty[cr[0]] = st->dirty[cr[1]] = st->dirty[cr[2]] = 1;
    st->dv |= bits;
}

/* remove the candidates `bits` from cell c; returns how many were there */
static inline int elim(const Geo *g, State *st, int c, M bits) {
    M x = st->c[c] & bits;
    if (!x) return 0;
    st->c[c] &= ~bits;
    mark(g, st, c, x);
    return popc(x);
}

static int load_state(const Geo *g, PyObject *vals, PyObject *cands, State *st) {
    PyObject *fv = PySequence_Fast(vals, "values must be a sequence");
    if (!fv) return -1;
    PyObject *fc = PySequence_Fast(cands, "candidates must be a sequence");
    if (!fc) { Py_DECREF(fv); return -1; }
    if (PySequence_Fast_GET_SIZE(fv) != g->nc || PySequence_Fast_GET_SIZE(fc) != g->nc) {
        PyErr_SetString(PyExc_ValueError, "wrong number of cells");
        Py_DECREF(fv); Py_DECREF(fc);
        return -1;
    }
    for (int i = 0; i < g->nc; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(fv, i));
        unsigned long long m = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fc, i));
        if (PyErr_Occurred()) { Py_DECREF(fv); Py_DECREF(fc); return -1; }
        st->v[i] = (uint8_t)x;
        st->c[i] = (M)m;
    }
    Py_DECREF(fv); Py_DECREF(fc);
    st_all_dirty(g, st);
    return 0;
}

static int load_solution(const Geo *g, PyObject *sol, uint8_t *out) {
    if (sol == Py_None) return 0;
    PyObject *fs = PySequence_Fast(sol, "solution must be a sequence");
    if (!fs) return -1;
    if (PySequence_Fast_GET_SIZE(fs) != g->nc) {
        Py_DECREF(fs);
        PyErr_SetString(PyExc_ValueError, "wrong solution length");
        return -1;
    }
    for (int i = 0; i < g->nc; i++) out[i] = (uint8_t)PyLong_AsLong(PySequence_Fast_GET_ITEM(fs, i));
    Py_DECREF(fs);
    return PyErr_Occurred() ? -1 : 1;
}

static PyObject *dump_state(const Geo *g, const State *st) {
    PyObject *v = PyList_New(g->nc), *c = PyList_New(g->nc);
    if (!v || !c) { Py_XDECREF(v); Py_XDECREF(c); return NULL; }
    for (int i = 0; i < g->nc; i++) {
        PyList_SET_ITEM(v, i, PyLong_FromLong(st->v[i]));
        PyList_SET_ITEM(c, i, PyLong_FromUnsignedLongLong(st->c[i]));
    }
    return Py_BuildValue("(NN)", v, c);
}

/* ------------------------------------------------------------------ */
/* singles: naked and hidden, to a fixpoint. 1 on contradiction.       */

static inline void place(const Geo *g, State *st, int cell, int val) {
    M bit = (M)1 << (val - 1);
    mark(g, st, cell, st->c[cell] | bit);
    st->v[cell] = val;
    st->c[cell] = 0;
    const short *pp = g->peers + cell * g->np;
    for (int i = 0; i < g->np; i++) elim(g, st, pp[i], bit);
}

/* Naked and hidden singles to a fixpoint; 1 on a contradiction.  Hidden
   singles are looked for in the regions marked as changed (all of them when
   `full`); every change is marked for the other rules. */
static int singles(const Geo *g, State *st, int full) {
    int nc = g->nc, n = g->n, np = g->np;
    short stack[2 * MAXC + 8]; /* a cell is pushed at most twice */
    char dirty[3 * MAXN];
    int sp = 0;
    if (full) memset(dirty, 1, g->nr);
    else memcpy(dirty, st->dirty, g->nr);
    for (int c = 0; c < nc; c++)
        if (!st->v[c] && !(st->c[c] & (st->c[c] - 1))) stack[sp++] = c;
    for (;;) {
        while (sp) {
            int c = stack[--sp];
            if (st->v[c]) continue;
            M m = st->c[c];
            if (!m) return 1;
            st->v[c] = lowv(m);
            st->c[c] = 0;
            mark(g, st, c, m);
            const short *cr = g->creg + c * 3;
            dirty[cr[0]] = dirty[cr[1]] = dirty[cr[2]] = 1;
            const short *pp = g->peers + c * np;
            for (int i = 0; i < np; i++) {
                int p = pp[i];
                M pm = st->c[p];
                if (pm & m) {
                    pm ^= m;
                    st->c[p] = pm;
                    mark(g, st, p, m);
                    if (!(pm & (pm - 1))) {
                        if (!pm) return 1;
                        stack[sp++] = p;
                    }
                    const short *q = g->creg + p * 3;
                    dirty[q[0]] = dirty[q[1]] = dirty[q[2]] = 1;
                }
            }
        }
        int found = 0;
        for (int r = 0; r < g->nr; r++) {
            if (!dirty[r]) continue;
            dirty[r] = 0;
            M once = 0, twice = 0, placed = 0;
            const short *cells = g->reg[r];
            for (int j = 0; j < n; j++) {
                int c = cells[j];
                M m = st->c[c];
                if (m) {
                    twice |= once & m;
                    once |= m;
                } else if (st->v[c]) {
                    M b = (M)1 << (st->v[c] - 1);
                    if (placed & b) return 1;
                    placed |= b;
                } else {
                    return 1;
                }
            }
            if ((g->full & ~(once | placed)) != 0) return 1;
            M hidden = once & ~twice;
            while (hidden) {
                M bit = hidden & (~hidden + 1);
                hidden ^= bit;
                for (int j = 0; j < n; j++) {
                    int c = cells[j];
                    if (st->c[c] & bit) {
                        if (st->c[c] != bit) mark(g, st, c, st->c[c] & ~bit);
                        st->c[c] = bit;
                        stack[sp++] = c;
                        found = 1;
                        break;
                    }
                }
            }
            if (found) break;
        }
        if (!found && !sp) return 0;
    }
}

/* ------------------------------------------------------------------ */
/* elimination rules: apply every deduction found; return how many      */
/* candidates were removed.                                             */

/* Rule families.  The module exports them, with their parameters, as
   FAMILIES (see add_families); grader/native.py checks its own table against
   it at import.  A rule is (fam, p1, p2): the family's parameters in order,
   0 for a missing one.  The trial families are not rules of the list: they
   are the flags and numbers (has_disj / has_red, depth, max_alt) of a call. */
enum { FAM_SINGLES = 0, FAM_LINES = 1, FAM_MULTI = 2, FAM_NAKED = 3, FAM_HIDDEN = 4, FAM_FISH = 5,
       FAM_PYTHON = 6, FAM_DISJUNCTION = 7, FAM_REDUCTIO = 8 };
#define MAXDEPTH 64

typedef struct { int fam, p1, p2; } RuleDesc;
typedef struct {
    int nr;
    RuleDesc r[MAXRULES];
    int has_disj, has_red, max_alt;
} Rules;

/* Claiming on one line (a row or a column): a value of the line confined to
   one of its segments segs[0..nseg-1] (d cells each) leaves the other lines
   of that block (w lines).  Cell (line, x) is line * ls + x * xs, x along
   the line: rows are (ls, xs) = (n, 1), columns (1, n). */
static inline int claim(const Geo *g, State *st, const M *segs, int nseg, int line, int w,
                        int d, int ls, int xs) {
    int cnt = 0;
    M once = 0, twice = 0;
    for (int s = 0; s < nseg; s++) { M m = segs[s]; twice |= once & m; once |= m; }
    M one = once & ~twice;
    while (one) {
        M bit = one & (~one + 1);
        one ^= bit;
        int s = 0;
        while (!(segs[s] & bit)) s++;
        int l0 = (line / w) * w;
        for (int i = 0; i < w; i++) {
            if (l0 + i == line) continue;
            for (int j = 0; j < d; j++) cnt += elim(g, st, (l0 + i) * ls + (s * d + j) * xs, bit);
        }
    }
    return cnt;
}

/* Candidate lines, both directions, for the blocks and lines marked in D.
   Works on segments, the cells a line shares with a block: rs[r][s] is the
   union of the candidates of row r in the s-th block of its band, cs[c][t]
   of column c in the t-th block of its stack.  (Segments are read once;
   eliminations made meanwhile only make them larger than the truth, which
   can hide a deduction until the next round, never produce a wrong one.) */
static int r_lines(const Geo *g, State *st, const uint8_t *D) {
    int n = g->n, a = g->a, b = g->b, cnt = 0;
    int pb = g->per_band; /* blocks across a band (= segments of a row) */
    int nb = g->nbands;   /* blocks down a stack (= segments of a column) */
    M rs[MAXN][MAXN], cs[MAXN][MAXN];
    for (int r = 0; r < n; r++)
        for (int s = 0; s < pb; s++) {
            M m = 0;
            for (int j = 0; j < b; j++) m |= st->c[r * n + s * b + j];
            rs[r][s] = m;
        }
    for (int c = 0; c < n; c++)
        for (int t = 0; t < nb; t++) {
            M m = 0;
            for (int i = 0; i < a; i++) m |= st->c[(t * a + i) * n + c];
            cs[c][t] = m;
        }
    /* pointing: block k, value confined to one row (column) of the block */
    for (int k = 0; k < n; k++) {
        if (!D[2 * n + k]) continue;
        int band = k / pb, s = k % pb, r0 = band * a, c0 = s * b;
        M once = 0, twice = 0;
        for (int i = 0; i < a; i++) { M m = rs[r0 + i][s]; twice |= once & m; once |= m; }
        M one_row = once & ~twice;
        once = twice = 0;
        for (int j = 0; j < b; j++) { M m = cs[c0 + j][band]; twice |= once & m; once |= m; }
        M one_col = once & ~twice;
        while (one_row) {
            M bit = one_row & (~one_row + 1);
            one_row ^= bit;
            int r = r0;
            while (!(rs[r][s] & bit)) r++;
            for (int s2 = 0; s2 < pb; s2++) {
                if (s2 == s || !(rs[r][s2] & bit)) continue;
                for (int j = 0; j < b; j++) cnt += elim(g, st, r * n + s2 * b + j, bit);
            }
        }
        while (one_col) {
            M bit = one_col & (~one_col + 1);
            one_col ^= bit;
            int c = c0;
            while (!(cs[c][band] & bit)) c++;
            for (int t2 = 0; t2 < nb; t2++) {
                if (t2 == band || !(cs[c][t2] & bit)) continue;
                for (int i = 0; i < a; i++) cnt += elim(g, st, (t2 * a + i) * n + c, bit);
            }
        }
    }
    /* claiming: line, value confined to one block */
    for (int r = 0; r < n; r++)
        if (D[r]) cnt += claim(g, st, rs[r], pb, r, a, b, n, 1);
    for (int c = 0; c < n; c++)
        if (D[n + c]) cnt += claim(g, st, cs[c], nb, c, b, a, 1, n);
    return cnt;
}

/* Multiple lines, for the bands and stacks with a block marked in D and the
   values in dv. */
static int r_multi(const Geo *g, State *st, const uint8_t *D, M dv) {
    int n = g->n, cnt = 0;
    for (int orient = 0; orient < 2; orient++) {
        int ngroups = orient == 0 ? g->nbands : g->per_band;
        int nblk = orient == 0 ? g->per_band : g->nbands;
        if (nblk < 3) continue;
        for (int gi = 0; gi < ngroups; gi++) {
            const short *group = orient == 0 ? g->band[gi] : g->stack[gi];
            int touched = 0;
            for (int i = 0; i < nblk; i++) touched |= D[2 * n + group[i]];
            if (!touched) continue;
            /* seg[i][t]: candidates of block group[i] on its t-th line of the group */
            M seg[MAXN][MAXN];
            int nl = orient == 0 ? g->a : g->b, line0[MAXN];
            for (int i = 0; i < nblk; i++) {
                const short *bc = g->reg[2 * n + group[i]];
                int base = orient == 0 ? g->crow[bc[0]] : g->ccol[bc[0]];
                line0[i] = base;
                for (int t = 0; t < nl; t++) seg[i][t] = 0;
                for (int j = 0; j < n; j++) {
                    int c = bc[j];
                    seg[i][(orient == 0 ? g->crow[c] : g->ccol[c]) - base] |= st->c[c];
                }
            }
            M present = 0;
            for (int i = 0; i < nblk; i++)
                for (int t = 0; t < nl; t++) present |= seg[i][t];
            for (int v = 1; v <= n; v++) {
                M bit = (M)1 << (v - 1);
                if (!(dv & bit) || !(present & bit)) continue;
                M lines_in[MAXN];
                for (int i = 0; i < nblk; i++) {
                    M m = 0;
                    for (int t = 0; t < nl; t++)
                        if (seg[i][t] & bit) m |= (M)1 << (line0[i] + t);
                    lines_in[i] = m;
                }
                for (int size = 2; size < nblk; size++) {
                    for (unsigned s = 0; s < (1u << nblk); s++) {
                        if (__builtin_popcount(s) != size) continue;
                        M uni = 0;
                        int ok = 1;
                        for (int i = 0; i < nblk; i++)
                            if (s >> i & 1) {
                                if (!lines_in[i]) { ok = 0; break; }
                                uni |= lines_in[i];
                            }
                        if (!ok || popc(uni) != size) continue;
                        for (int i = 0; i < nblk; i++) {
                            if (s >> i & 1) continue;
                            const short *bc = g->reg[2 * n + group[i]];
                            for (int j = 0; j < n; j++) {
                                int c = bc[j];
                                int line = orient == 0 ? g->crow[c] : g->ccol[c];
                                if (uni >> line & 1) cnt += elim(g, st, c, bit);
                            }
                        }
                    }
                }
            }
        }
    }
    return cnt;
}

/* subsets of `m` masks of size k whose union has exactly k bits, in
   lexicographic order (the order of rules/subsets.py); calls back */
typedef struct {
    const M *masks;
    int m, k;
    int idx[MAXN];
    int (*cb)(void *ctx, const int *idx, int k, M uni);
    void *ctx;
} SubsetSearch;

static int subset_rec(SubsetSearch *s, int start, int depth, M uni) {
    int need = s->k - depth;
    if (need == 0) {
        if (popc(uni) == s->k) return s->cb(s->ctx, s->idx, s->k, uni);
        return 0;
    }
    int total = 0;
    for (int i = start; i <= s->m - need; i++) {
        M u = uni | s->masks[i];
        if (popc(u) <= s->k) {
            s->idx[depth] = i;
            total += subset_rec(s, i + 1, depth + 1, u);
        }
    }
    return total;
}

typedef struct {
    const Geo *g;
    State *st;
    int p;
    int empties[MAXN];
    int values[MAXN];
    int nvals;
    int k;
} RegionCtx;

/* naked set found directly: cells idx (over empties), value mask uni */
static int cb_naked_direct(void *ctx, const int *idx, int k, M uni) {
    RegionCtx *r = ctx;
    M inset = 0;
    for (int i = 0; i < k; i++) inset |= (M)1 << idx[i];
    int cnt = 0;
    for (int i = 0; i < r->p; i++) {
        if (inset >> i & 1) continue;
        cnt += elim(r->g, r->st, r->empties[i], uni);
    }
    return cnt;
}

/* hidden set found directly: values idx, positions cellmask */
static int cb_hidden_direct(void *ctx, const int *idx, int k, M cellmask) {
    RegionCtx *r = ctx;
    M vm = 0;
    for (int i = 0; i < k; i++) vm |= (M)1 << (r->values[idx[i]] - 1);
    int cnt = 0;
    for (int i = 0; i < r->p; i++)
        if (cellmask >> i & 1) cnt += elim(r->g, r->st, r->empties[i], ~vm);
    return cnt;
}

static void region_state(const Geo *g, State *st, int reg, RegionCtx *r, M *pos) {
    int n = g->n;
    r->g = g; r->st = st; r->p = 0;
    M uni = 0;
    for (int j = 0; j < n; j++) {
        int c = g->reg[reg][j];
        if (!st->v[c]) { r->empties[r->p++] = c; uni |= st->c[c]; }
    }
    r->nvals = 0;
    while (uni) {
        int v = lowv(uni);
        uni &= uni - 1;
        M bit = (M)1 << (v - 1), m = 0;
        for (int i = 0; i < r->p; i++)
            if (st->c[r->empties[i]] & bit) m |= (M)1 << i;
        pos[r->nvals] = m;
        r->values[r->nvals++] = v;
    }
}

/* Naked and hidden subsets of the sizes in nsz / hsz (bit k: size k), in the
   regions marked in D.  A naked set of size k among p unsolved cells is the
   hidden set of size p - k of the same region (the book's duality), so each
   partition is searched once, through the smaller of the two. */
static int r_subsets(const Geo *g, State *st, const uint8_t *D, M nsz, M hsz) {
    int cnt = 0;
    for (int reg = 0; reg < g->nr; reg++) {
        if (!D[reg]) continue;
        RegionCtx r;
        M pos[MAXN], cm[MAXN];
        region_state(g, st, reg, &r, pos);
        int p = r.p;
        for (int i = 0; i < p; i++) cm[i] = st->c[r.empties[i]];
        for (int k = 2; 2 * k <= p; k++) { /* size 1 is the singles' business */
            int naked_k = (nsz >> k & 1) || (hsz >> (p - k) & 1);  /* naked k, or its dual */
            int hidden_k = (hsz >> k & 1) || (nsz >> (p - k) & 1); /* hidden k, or its dual */
            if (!naked_k && !hidden_k) continue;
            SubsetSearch s;
            s.ctx = &r;
            s.k = k;
            if (naked_k) {
                r.k = k;
                s.masks = cm; s.m = p; s.cb = cb_naked_direct;
                int got = subset_rec(&s, 0, 0, 0);
                if (got) { /* refresh what the eliminations changed */
                    cnt += got;
                    region_state(g, st, reg, &r, pos);
                    for (int i = 0; i < p; i++) cm[i] = st->c[r.empties[i]];
                }
            }
            if (hidden_k) {
                r.k = k;
                s.masks = pos; s.m = r.nvals; s.cb = cb_hidden_direct;
                if (s.k <= s.m) {
                    int got = subset_rec(&s, 0, 0, 0);
                    if (got) {
                        cnt += got;
                        region_state(g, st, reg, &r, pos);
                        for (int i = 0; i < p; i++) cm[i] = st->c[r.empties[i]];
                    }
                }
            }
        }
    }
    return cnt;
}

typedef struct {
    const Geo *g;
    State *st;
    int lines[MAXN];
    int base_kind; /* 0 rows base, 1 cols base */
    M bit;
} FishCtx;

static int cb_fish(void *ctx, const int *idx, int k, M cover) {
    FishCtx *f = ctx;
    const Geo *g = f->g;
    int n = g->n, cnt = 0;
    M base = 0;
    for (int i = 0; i < k; i++) base |= (M)1 << f->lines[idx[i]];
    for (int j = 0; j < n; j++) {
        if (!(cover >> j & 1)) continue;
        for (int i = 0; i < n; i++) {
            if (base >> i & 1) continue;
            int c = f->base_kind == 0 ? i * n + j : j * n + i;
            cnt += elim(g, f->st, c, f->bit);
        }
    }
    return cnt;
}

static int r_fish(const Geo *g, State *st, int k, M dv) {
    int n = g->n, cnt = 0;
    /* rowpos[v][i]: columns of row i where v is possible; colpos[v][j]: rows */
    M rowpos[MAXN][MAXN], colpos[MAXN][MAXN];
    for (int v = 0; v < n; v++)
        for (int i = 0; i < n; i++) rowpos[v][i] = colpos[v][i] = 0;
    for (int c = 0; c < g->nc; c++) {
        M m = st->c[c] & dv;
        int i = g->crow[c], j = g->ccol[c];
        while (m) {
            int v = lowv(m) - 1;
            m &= m - 1;
            rowpos[v][i] |= (M)1 << j;
            colpos[v][j] |= (M)1 << i;
        }
    }
    for (int v = 1; v <= n; v++) {
        M bit = (M)1 << (v - 1);
        if (!(dv & bit)) continue;
        for (int kind = 0; kind < 2; kind++) {
            FishCtx f;
            M masks[MAXN];
            int m = 0;
            f.g = g; f.st = st; f.base_kind = kind; f.bit = bit;
            const M *pos = kind == 0 ? rowpos[v - 1] : colpos[v - 1];
            for (int i = 0; i < n; i++) {
                int cc = popc(pos[i]);
                if (cc >= 2 && cc <= k) { f.lines[m] = i; masks[m++] = pos[i]; }
            }
            if (m < k) continue;
            SubsetSearch s;
            s.masks = masks; s.m = m; s.k = k; s.cb = cb_fish; s.ctx = &f;
            cnt += subset_rec(&s, 0, 0, 0);
        }
    }
    return cnt;
}

/* Sizes (bit k) of naked and hidden subsets asked for by the rules of P. */
static void subset_sizes(const Geo *g, const Rules *P, M *nsz, M *hsz) {
    *nsz = *hsz = 0;
    for (int i = 0; i < P->nr; i++) {
        const RuleDesc *r = &P->r[i];
        if (r->fam != FAM_NAKED && r->fam != FAM_HIDDEN) continue;
        int hi = r->p2 > 0 ? r->p2 : g->n - 1;
        for (int k = r->p1; k <= hi && k < 64; k++) {
            if (r->fam == FAM_NAKED) *nsz |= (M)1 << k;
            else *hsz |= (M)1 << k;
        }
    }
}

static int apply_rule(const Geo *g, State *st, const RuleDesc *r, const uint8_t *D, M dv) {
    switch (r->fam) {
    case FAM_LINES: return r_lines(g, st, D);
    case FAM_MULTI: return r_multi(g, st, D, dv);
    case FAM_FISH: return r_fish(g, st, r->p1, dv);
    case FAM_NAKED:
        return r_subsets(g, st, D, (M)((r->p2 > 0 ? ((M)2 << r->p2) - 1 : ~(M)0) & ~(((M)1 << r->p1) - 1)), 0);
    case FAM_HIDDEN:
        return r_subsets(g, st, D, 0, (M)((r->p2 > 0 ? ((M)2 << r->p2) - 1 : ~(M)0) & ~(((M)1 << r->p1) - 1)));
    }
    return 0; /* singles are run by fix() itself */
}

/* ------------------------------------------------------------------ */
/* rules written in Python (plugins): called back, with the GIL, when    */
/* the C rules are stuck, so the fixpoint is the same as in pure Python  */

/* the callables of the current call (a list indexed by a FAM_PYTHON
   rule's p1), and the exception one of them raised; per thread */
static THREAD_LOCAL PyObject *py_rules;
static THREAD_LOCAL PyObject *py_err_type, *py_err_value, *py_err_tb;

/* Run Python rule `idx` on st: its callable takes (values, cands) and
   returns None (no progress) or the new (values, cands).  Applies the
   changes; returns 1 when something changed, -1 on an exception (kept for
   the caller, which stops). */
static int run_python_rule(const Geo *g, State *st, int idx) {
    if (py_err_type) return -1;
    PyGILState_STATE gs = PyGILState_Ensure();
    int res = 0;
    PyObject *cb = py_rules ? PySequence_GetItem(py_rules, idx) : NULL;
    PyObject *dumped = cb ? dump_state(g, st) : NULL;
    PyObject *got = dumped ? PyObject_CallObject(cb, dumped) : NULL;
    if (got && got != Py_None) {
        State *t = malloc(sizeof(State));
        PyObject *v = NULL, *c = NULL;
        if (!t) PyErr_NoMemory();
        else if (PyArg_ParseTuple(got, "OO", &v, &c) && !load_state(g, v, c, t)) {
            for (int i = 0; i < g->nc; i++) {
                if (t->v[i] && !st->v[i]) { place(g, st, i, t->v[i]); res = 1; }
                else if (!st->v[i] && (st->c[i] & ~t->c[i])) {
                    elim(g, st, i, st->c[i] & ~t->c[i]);
                    res = 1;
                }
            }
        }
        free(t);
    }
    if (PyErr_Occurred()) {
        PyErr_Fetch(&py_err_type, &py_err_value, &py_err_tb);
        res = -1;
    }
    Py_XDECREF(got); Py_XDECREF(dumped); Py_XDECREF(cb);
    PyGILState_Release(gs);
    return res;
}

/* Fixpoint of singles and the elimination rules of P; 1 on a contradiction.
   Every rule keeps what changed since it last looked, and searches only
   there.  Cheaper rules come first and a change sends the search back to the
   singles, so the costly rules run only on positions the cheap ones cannot
   move (the fixpoint is the same in any order). */
static int fix(const Geo *g, State *st, const Rules *P) {
    work.fix++;
    int nr = g->nr;
    M nsz, hsz;
    subset_sizes(g, P, &nsz, &hsz);
    /* the rules to run: subsets of every size are one search */
    const RuleDesc *run[MAXRULES];
    int nrun = 0, subsets_at = -1;
    for (int i = 0; i < P->nr; i++) {
        const RuleDesc *r = &P->r[i];
        if (r->fam == FAM_NAKED || r->fam == FAM_HIDDEN) {
            if (subsets_at >= 0) continue;
            subsets_at = nrun;
        }
        if (r->fam == FAM_SINGLES || r->fam == FAM_PYTHON) continue;
        run[nrun++] = r;
    }
    uint8_t pend[MAXRULES][3 * MAXN];
    M pendv[MAXRULES];
    for (int i = 0; i < nrun; i++) { memset(pend[i], 0, nr); pendv[i] = 0; }
    for (;;) {
        if (singles(g, st, 0)) return 1;
        /* hand what changed to every rule */
        int anyd = st->dv != 0;
        for (int j = 0; j < nr && !anyd; j++) anyd = st->dirty[j];
        if (anyd) {
            for (int i = 0; i < nrun; i++) {
                for (int j = 0; j < nr; j++) pend[i][j] |= st->dirty[j];
                pendv[i] |= st->dv;
            }
            memset(st->dirty, 0, nr);
            st->dv = 0;
        }
        int changed = 0;
        for (int i = 0; i < nrun && !changed; i++) {
            int todo = pendv[i] != 0;
            for (int j = 0; j < nr && !todo; j++) todo = pend[i][j];
            if (!todo) continue;
            uint8_t D[3 * MAXN];
            memcpy(D, pend[i], nr);
            M dv = pendv[i];
            memset(pend[i], 0, nr);
            pendv[i] = 0;
            if (i == subsets_at) changed = r_subsets(g, st, D, nsz, hsz) > 0;
            else changed = apply_rule(g, st, run[i], D, dv) > 0;
        }
        for (int i = 0; i < P->nr && !changed; i++) {
            if (P->r[i].fam != FAM_PYTHON) continue;
            int r = run_python_rule(g, st, P->r[i].p1);
            if (r < 0) return 1; /* stop; the caller raises the exception */
            changed = r;
        }
        if (!changed) return 0;
    }
}

/* ------------------------------------------------------------------ */
/* trials                                                               */

static int closure(const Geo *g, State *st, const Rules *P, int d, const uint8_t *sol);

/* Does the candidate (cell, v) agree with the solution? */
static inline int is_true(const uint8_t *sol, int cell, int v) { return sol && sol[cell] == v; }

typedef struct {
    int n;
    int region; /* -1 for a cell pivot */
    short cell[MAXN];
    uint8_t val[MAXN];
} Pivot;

/* Memo of the branches of one position: a top-level search (a pivot or an
   assumption) often needs the closure of the same assumption several times
   (a cell pivot and the region pivots that share an alternative, then
   reductio after disjunctive construction on the same position).  Results
   do not depend on the solution hint, so it is not part of the key.

   The strategy only ever adds to a position, and the closure is monotonic:
   when the next search of the same rules and depth comes to a position that
   holds everything the memo's position held, an assumption that ended in a
   contradiction there ends in one here, and the closure kept there is a
   start for the closure here (a seed: the closure of the seed with the new
   position's placements and eliminations is the closure of the assumption on
   the new position).  So the memo is carried forward instead of emptied. */
#define MEMO_MAX_BYTES ((size_t)24 << 20) /* of kept closures, per slot */
#define MEMO_SLOTS 3                       /* by depth: 0, 1, 2 and more */
typedef struct {
    int valid, depth, nc;
    const Geo *g;
    Rules P;
    uint8_t v[MAXC];
    M c[MAXC];
    int8_t *conf;  /* nc * 64: -1 unknown, 0 consistent, 1 contradiction */
    int8_t *seed;  /* nc * 64: 1 when res holds the closure at an earlier position */
    State **res;   /* nc * 64: the closure, when kept */
    size_t kept;
} Memo;

/* memos per thread: calls release the GIL, and Dask runs grids in threads;
   one per depth, so that the searches of depth 1 made between two nested
   searches do not empty the nested one */
/* two ways per depth: the strategy alternates, at one depth, between the
   disjunctive construction nested over disjunctive constructions only and the
   trials nested over every trial (grader/strategy/engine.py: units), whose
   programs differ; each keeps its own memo */
#define MEMO_WAYS 2
static THREAD_LOCAL Memo memo_store[MEMO_SLOTS * MEMO_WAYS];
static THREAD_LOCAL unsigned long memo_clock, memo_used[MEMO_SLOTS * MEMO_WAYS];

static void memo_reset(Memo *m) {
    if (m->res) {
        for (int i = 0; i < m->nc * 64; i++) free(m->res[i]);
        free(m->res);
    }
    free(m->conf);
    free(m->seed);
    m->res = NULL;
    m->conf = m->seed = NULL;
    m->valid = 0;
    m->kept = 0;
}

static void memo_reset_all(void) {
    for (int i = 0; i < MEMO_SLOTS * MEMO_WAYS; i++) memo_reset(&memo_store[i]);
}

/* Does position st hold everything position (v, c) held? */
static int extends(const Geo *g, const State *st, const uint8_t *v, const M *c) {
    for (int x = 0; x < g->nc; x++) {
        if (v[x]) {
            if (st->v[x] != v[x]) return 0;
        } else if (st->v[x]) {
            if (!(c[x] >> (st->v[x] - 1) & 1)) return 0;
        } else if (st->c[x] & ~c[x]) {
            return 0;
        }
    }
    return 1;
}

/* the memo for (g, P, depth, position st): carried forward when st extends
   its position (see above), else emptied if it held another */
static Memo *memo_for(const Geo *g, const State *st, const Rules *P, int depth) {
    int slot = (depth < MEMO_SLOTS ? depth : MEMO_SLOTS - 1) * MEMO_WAYS, way = -1;
    for (int w = 0; w < MEMO_WAYS && way < 0; w++) {
        Memo *x = &memo_store[slot + w];
        if (x->valid && x->g == g && x->depth == depth && !memcmp(&x->P, P, sizeof(Rules)))
            way = w;
    }
    if (way < 0) { /* the way not used for the longest time */
        way = 0;
        for (int w = 1; w < MEMO_WAYS; w++)
            if (memo_used[slot + w] < memo_used[slot + way]) way = w;
    }
    memo_used[slot + way] = ++memo_clock;
    Memo *m = &memo_store[slot + way];
    int same_search = m->valid && m->g == g && m->depth == depth &&
                      !memcmp(&m->P, P, sizeof(Rules));
    if (same_search && !memcmp(m->v, st->v, g->nc) && !memcmp(m->c, st->c, sizeof(M) * g->nc))
        return m;
    if (same_search && extends(g, st, m->v, m->c)) {
        work.carried++;
        for (int key = 0; key < g->nc * 64; key++) {
            if (m->conf[key] == 1) continue;
            m->conf[key] = -1;
            if (m->res[key]) m->seed[key] = 1;
        }
    } else {
        memo_reset(m);
        m->conf = malloc((size_t)g->nc * 64);
        m->seed = calloc((size_t)g->nc * 64, 1);
        m->res = calloc((size_t)g->nc * 64, sizeof(State *));
        if (!m->conf || !m->seed || !m->res) { memo_reset(m); return NULL; }
        memset(m->conf, -1, (size_t)g->nc * 64);
        m->g = g; m->depth = depth; m->P = *P; m->nc = g->nc;
        m->valid = 1;
    }
    memcpy(m->v, st->v, g->nc);
    memcpy(m->c, st->c, sizeof(M) * g->nc);
    return m;
}

/* scratch <- the seed s (a closure at an earlier position) with what st
   adds; 1 when the two disagree (the assumption contradicts st) */
static int from_seed(const Geo *g, const State *st, const State *s, State *scratch) {
    st_copy(g, scratch, s);
    for (int x = 0; x < g->nc; x++) {
        int v = st->v[x];
        if (v) {
            if (scratch->v[x]) {
                if (scratch->v[x] != v) return 1;
            } else {
                if (!(scratch->c[x] >> (v - 1) & 1)) return 1;
                place(g, scratch, x, v);
            }
        } else if (scratch->v[x]) {
            if (!(st->c[x] >> (scratch->v[x] - 1) & 1)) return 1;
        } else {
            scratch->c[x] &= st->c[x];
        }
    }
    st_all_dirty(g, scratch);
    return 0;
}

/* Closure of the assumption (cell <- val) on st: returns 1 on contradiction
   and sets *out to the resulting state (memo-owned, or `scratch`). */
static int branch(const Geo *g, const State *st, const Rules *P, int d, int clean,
                  const uint8_t *bsol, Memo *m, int cell, int val, State *scratch,
                  const State **out) {
    int key = cell * 64 + val;
    if (m && m->conf[key] >= 0 && (m->res[key] || m->conf[key] == 1)) {
        *out = m->res[key] ? m->res[key] : scratch;
        return m->conf[key];
    }
    int conflict;
    if (m && m->seed[key] && m->res[key]) {
        work.seeded++;
        conflict = from_seed(g, st, m->res[key], scratch) ||
                   closure(g, scratch, P, d, bsol);
        free(m->res[key]);
        m->res[key] = NULL;
        m->seed[key] = 0;
        m->kept -= sizeof(State);
    } else {
        st_copy(g, scratch, st);
        if (!clean) st_all_dirty(g, scratch);
        place(g, scratch, cell, val);
        conflict = closure(g, scratch, P, d, bsol);
    }
    *out = scratch;
    if (m) {
        m->conf[key] = (int8_t)conflict;
        if (!conflict && m->kept + sizeof(State) <= MEMO_MAX_BYTES) {
            State *keep = malloc(sizeof(State));
            if (keep) {
                st_copy(g, keep, scratch);
                m->res[key] = keep;
                m->kept += sizeof(State);
                *out = keep;
            }
        }
    }
    return conflict;
}

/* Evaluate one pivot (rules/trials.py DisjunctiveConstruction): returns -1 if
   every alternative contradicts, 0 if the branches agree on nothing, 1 with
   *kind (0 place, 1 elim), *tc, *tv = the conclusion: the survivor when all
   the other alternatives contradict, else the first common placement in cell
   order, else the first common elimination.  With apply_all, every common
   conclusion is applied to st instead (for closures).  `clean`: st is a
   fixpoint of P; `m`: a memo of st's branches, or NULL. */
static int eval_pivot(const Geo *g, State *st, const Pivot *pv, const Rules *P, int d,
                      const uint8_t *sol, int apply_all, int clean, Memo *m, int *kind,
                      int *tc, int *tv, M *dead) {
    State *br = malloc(sizeof(State) * pv->n);
    const State *bs[MAXN];
    int alive[MAXN], nalive = 0, ntrue = -1;
    if (!br) return 0;
    /* Alternatives that disagree with the solution first: if they all end in a
       contradiction, the remaining one is the conclusion and its (costly)
       closure is never computed.  The result does not depend on this order. */
    for (int i = 0; i < pv->n; i++)
        if (is_true(sol, pv->cell[i], pv->val[i])) ntrue = i;
    for (int i = 0; i < pv->n; i++) {
        if (i == ntrue) continue;
        if (!branch(g, st, P, d, clean, NULL, m, pv->cell[i], pv->val[i], &br[i], &bs[i]))
            alive[nalive++] = i;
    }
    if (ntrue >= 0 && nalive > 0) {
        /* A common conclusion holds in every surviving branch, the true one
           included, whose closure agrees with the solution: so it must be a
           true placement or the elimination of a false candidate that the
           other survivors already share.  When there is none, the costly
           closure of the true branch is not needed. */
        int possible = 0;
        for (int c = 0; c < g->nc && !possible; c++) {
            if (st->v[c]) continue;
            int v = bs[alive[0]]->v[c];
            if (v && v == sol[c]) {
                int all = 1;
                for (int j = 1; j < nalive; j++)
                    if (bs[alive[j]]->v[c] != v) { all = 0; break; }
                if (all) possible = 1;
            }
            if (possible) break;
            M mk = st->c[c] & ~((M)1 << (sol[c] - 1));
            for (int j = 0; j < nalive && mk; j++) {
                const State *s2 = bs[alive[j]];
                mk &= ~s2->c[c];
                if (s2->v[c]) mk &= ~((M)1 << (s2->v[c] - 1));
            }
            if (mk) possible = 1;
        }
        if (!possible) { free(br); return 0; }
    }
    if (ntrue >= 0) {
        if (nalive == 0) {
            alive[nalive++] = ntrue; /* its closure is not needed */
        } else {
            if (!branch(g, st, P, d, clean, sol, m, pv->cell[ntrue], pv->val[ntrue], &br[ntrue],
                        &bs[ntrue]))
                alive[nalive++] = ntrue;
            /* keep the survivors in alternative order */
            for (int a = nalive - 1; a > 0 && alive[a] < alive[a - 1]; a--) {
                int t = alive[a]; alive[a] = alive[a - 1]; alive[a - 1] = t;
            }
        }
    }
    if (dead) {
        *dead = ((M)1 << pv->n) - 1;
        for (int j = 0; j < nalive; j++) *dead &= ~((M)1 << alive[j]);
    }
    if (nalive == 0) {
        if (kind) { *kind = 1; *tc = pv->cell[0]; *tv = pv->val[0]; }
        free(br);
        return -1;
    }
    if (nalive == 1) {
        /* all the other alternatives contradict: the survivor is proved */
        int i = alive[0];
        if (!apply_all) {
            *kind = 0; *tc = pv->cell[i]; *tv = pv->val[i];
        } else if (st->c[pv->cell[i]] & ((M)1 << (pv->val[i] - 1))) {
            place(g, st, pv->cell[i], pv->val[i]);
        } else {
            elim(g, st, pv->cell[i], g->full); /* contradictory position */
        }
        free(br);
        return 1;
    }
    int nc = g->nc, res = 0;
    for (int c = 0; c < nc; c++) {
        if (st->v[c]) continue;
        int v = bs[alive[0]]->v[c];
        if (!v) continue;
        int all = 1;
        for (int j = 1; j < nalive; j++)
            if (bs[alive[j]]->v[c] != v) { all = 0; break; }
        if (!all) continue;
        if (!apply_all) {
            *kind = 0; *tc = c; *tv = v;
            free(br);
            return 1;
        }
        res = 1;
        if (st->c[c] & ((M)1 << (v - 1))) place(g, st, c, v);
        else elim(g, st, c, g->full); /* contradictory: the cell is left without candidates */
    }
    for (int c = 0; c < nc; c++) {
        M mk = st->c[c];
        if (!mk) continue;
        for (int j = 0; j < nalive && mk; j++) {
            const State *s = bs[alive[j]];
            mk &= ~s->c[c];
            if (s->v[c]) mk &= ~((M)1 << (s->v[c] - 1));
        }
        if (!mk) continue;
        if (!apply_all) {
            *kind = 1; *tc = c; *tv = lowv(mk);
            free(br);
            return 1;
        }
        res = 1;
        elim(g, st, c, mk);
    }
    free(br);
    return res;
}

/* Pivots of a position: cells with 2..max_alt candidates, then region values
   with 2..max_alt positions, by number of alternatives; deduplicated. */
static int pivots_of(const Geo *g, const State *st, int max_alt, Pivot **out) {
    int n = g->n, cap = g->nc + g->nr * n, cnt = 0;
    Pivot *pv = malloc(sizeof(Pivot) * cap);
    if (!pv) return -1;
    for (int alts = 2; alts <= max_alt; alts++) {
        for (int c = 0; c < g->nc; c++) {
            if (st->v[c] || popc(st->c[c]) != alts) continue;
            Pivot *p = &pv[cnt++];
            p->n = 0;
            p->region = -1;
            M m = st->c[c];
            while (m) { p->cell[p->n] = c; p->val[p->n++] = lowv(m); m &= m - 1; }
        }
        int start_regions = cnt;
        for (int r = 0; r < g->nr; r++) {
            for (int v = 1; v <= n; v++) {
                M bit = (M)1 << (v - 1);
                int k = 0;
                short cells[MAXN];
                for (int j = 0; j < n; j++)
                    if (st->c[g->reg[r][j]] & bit) cells[k++] = g->reg[r][j];
                if (k != alts) continue;
                int dup = 0;
                for (int q = start_regions; q < cnt && !dup; q++) {
                    if (pv[q].n != k || pv[q].val[0] != v) continue;
                    int same = 1;
                    for (int j = 0; j < k; j++) if (pv[q].cell[j] != cells[j]) { same = 0; break; }
                    dup = same;
                }
                if (dup) continue;
                Pivot *p = &pv[cnt++];
                p->n = k;
                p->region = r;
                for (int j = 0; j < k; j++) { p->cell[j] = cells[j]; p->val[j] = v; }
            }
        }
    }
    *out = pv;
    return cnt;
}

/* One round of trial deductions at depth d (inner closures at depth d-1),
   applied to st, which must be a fixpoint of P.  Returns 1 if something
   changed, 0 if nothing, -1 if the position is contradictory.

   The closure does not depend on the order in which deductions are found,
   so this looks for the cheap ones first: assumptions that singles alone
   refute; then the closure of every assumption once (reductio needs to know
   which end in a contradiction, disjunctive construction intersects them),
   kept for the pivots instead of being recomputed for each pivot. */
static int trial_pass(const Geo *g, State *st, const Rules *P, int d, const uint8_t *sol) {
    work.trial_pass++;
    int nc = g->nc;
    State *tmp = malloc(sizeof(State));
    if (!tmp) return 0;
    M kill[MAXC];
    int progress = 0;
    /* ok[c]: candidates of cell c known not to end in a contradiction because
       an assumption that did not end in one placed them (its closure contains
       theirs), so they need not be tried */
    M ok[MAXC];
    if (P->has_red) { /* reductio with singles only */
        for (int c = 0; c < nc; c++) ok[c] = 0;
        for (int c = 0; c < nc; c++) {
            kill[c] = 0;
            if (st->v[c]) continue;
            M m = st->c[c];
            while (m) {
                int v = lowv(m);
                m &= m - 1;
                if (is_true(sol, c, v) || (ok[c] >> (v - 1) & 1)) continue;
                st_copy(g, tmp, st);
                place(g, tmp, c, v);
                if (singles(g, tmp, 0)) { kill[c] |= (M)1 << (v - 1); progress = 1; }
                else
                    for (int x = 0; x < nc; x++)
                        if (tmp->v[x] && !st->v[x]) ok[x] |= (M)1 << (tmp->v[x] - 1);
            }
        }
        if (progress) {
            for (int c = 0; c < nc; c++)
                if (kill[c]) {
                    elim(g, st, c, kill[c]);
                    if (!st->v[c] && !st->c[c]) { free(tmp); return -1; }
                }
            free(tmp);
            return 1;
        }
    }
    /* the closure of each assumption, computed at most once */
    int key_n = nc * 64;
    int8_t *conf = malloc((size_t)key_n);
    State **res = calloc((size_t)key_n, sizeof(State *));
    if (!conf || !res) { free(conf); free(res); free(tmp); return 0; }
    memset(conf, -1, (size_t)key_n);
    int result = 0;
#define RELEASE() do { for (int q_ = 0; q_ < key_n; q_++) free(res[q_]); free(res); free(conf); free(tmp); } while (0)
    if (P->has_red) {
        for (int c = 0; c < nc; c++) ok[c] = 0;
        for (int c = 0; c < nc; c++) {
            kill[c] = 0;
            if (st->v[c]) continue;
            M m = st->c[c];
            while (m) {
                int v = lowv(m);
                m &= m - 1;
                /* never contradicts; computed if a pivot needs it */
                if (is_true(sol, c, v) || (ok[c] >> (v - 1) & 1)) continue;
                State *s = malloc(sizeof(State));
                if (!s) continue;
                st_copy(g, s, st);
                place(g, s, c, v);
                int x = closure(g, s, P, d - 1, NULL);
                conf[c * 64 + v] = (int8_t)x;
                if (x) { kill[c] |= (M)1 << (v - 1); progress = 1; free(s); }
                else {
                    res[c * 64 + v] = s;
                    for (int y = 0; y < nc; y++)
                        if (s->v[y] && !st->v[y]) ok[y] |= (M)1 << (s->v[y] - 1);
                }
            }
        }
        if (progress) {
            result = 1;
            for (int c = 0; c < nc; c++)
                if (kill[c]) {
                    elim(g, st, c, kill[c]);
                    if (!st->v[c] && !st->c[c]) result = -1;
                }
            RELEASE();
            return result;
        }
    }
    if (P->has_disj) {
        Pivot *pv;
        int np = pivots_of(g, st, P->max_alt, &pv);
        for (int i = 0; i < np && result >= 0; i++) {
            const Pivot *p = &pv[i];
            const State *bs[MAXN];
            int alive[MAXN], nalive = 0, skip = 0;
            for (int j = 0; j < p->n; j++) {
                int c = p->cell[j], v = p->val[j], key = c * 64 + v;
                if (st->v[c] || !(st->c[c] & ((M)1 << (v - 1)))) { skip = 1; break; } /* changed */
                if (conf[key] < 0) {
                    State *s = malloc(sizeof(State));
                    if (!s) { skip = 1; break; }
                    st_copy(g, s, st);
                    place(g, s, c, v);
                    conf[key] = (int8_t)closure(g, s, P, d - 1, is_true(sol, c, v) ? sol : NULL);
                    if (conf[key]) free(s);
                    else res[key] = s;
                }
                if (!conf[key]) { bs[j] = res[key]; alive[nalive++] = j; }
            }
            if (skip) continue;
            if (nalive == 0) { result = -1; break; }
            if (nalive == 1) {
                int j = alive[0];
                place(g, st, p->cell[j], p->val[j]);
                result = 1;
                continue;
            }
            for (int c = 0; c < nc; c++) {
                if (st->v[c]) continue;
                int v = bs[alive[0]]->v[c];
                if (!v) continue;
                int all = 1;
                for (int j = 1; j < nalive; j++)
                    if (bs[alive[j]]->v[c] != v) { all = 0; break; }
                if (!all) continue;
                result = 1;
                if (st->c[c] & ((M)1 << (v - 1))) place(g, st, c, v);
                else elim(g, st, c, g->full);
            }
            for (int c = 0; c < nc; c++) {
                M mk = st->c[c];
                if (!mk) continue;
                for (int j = 0; j < nalive && mk; j++) {
                    const State *s = bs[alive[j]];
                    mk &= ~s->c[c];
                    if (s->v[c]) mk &= ~((M)1 << (s->v[c] - 1));
                }
                if (mk) { result = 1; elim(g, st, c, mk); }
            }
        }
        if (np >= 0) free(pv);
        for (int c = 0; c < nc && result > 0; c++)
            if (!st->v[c] && !st->c[c]) result = -1;
    }
    RELEASE();
#undef RELEASE
    return result;
}

/* Closure of the rules of P with trials nested to depth d (0: no trials).
   sol, when not NULL, is the solution and agrees with st. 1 on contradiction. */
static int closure(const Geo *g, State *st, const Rules *P, int d, const uint8_t *sol) {
    work.closure[d < 7 ? d : 7]++;
    if (sol) work.closure_true[d < 7 ? d : 7]++;
    for (;;) {
        if (fix(g, st, P)) return 1;
        if (d <= 0) return 0;
        int r = trial_pass(g, st, P, d, sol);
        if (r < 0) return 1;
        if (r == 0) return 0;
    }
}

/* ------------------------------------------------------------------ */
/* exact solver: singles + MRV backtracking, counting to a limit        */

typedef struct {
    const Geo *g;
    int limit, count;
    long nodes, max_nodes;
    uint8_t *sols;  /* limit * nc */
    const Rules *P; /* propagation at each node besides the singles */
} SolveCtx;

/* Candidate lines and pairs prune large grids a great deal more than they
   cost; 9x9 searches are shallow enough for the singles alone. */
static const Rules SOLVER_BIG = {3, {{FAM_LINES, 0, 0}, {FAM_NAKED, 2, 2}, {FAM_HIDDEN, 2, 2}},
                                 0, 0, 2};
static const Rules SOLVER_SMALL = {0, {{0, 0, 0}}, 0, 0, 2};

static void solve_rec(SolveCtx *x, State *st) {
    const Geo *g = x->g;
    if (x->count >= x->limit) return;
    if (x->max_nodes >= 0 && x->nodes >= x->max_nodes) { x->nodes++; return; }
    x->nodes++;
    st_all_dirty(g, st);
    if (fix(g, st, x->P)) return;
    /* branch on the cell with fewest candidates, or on the value with fewest
       places in a region when that is fewer */
    int best = -1, bn = 99;
    for (int c = 0; c < g->nc; c++) {
        if (st->v[c]) continue;
        int k = popc(st->c[c]);
        if (k < bn) { bn = k; best = c; if (k == 2) break; }
    }
    if (best < 0) {
        memcpy(x->sols + (size_t)x->count * g->nc, st->v, g->nc);
        x->count++;
        return;
    }
    int breg = -1, bval = 0;
    if (bn > 2) {
        for (int r = 0; r < g->nr && bn > 2; r++) {
            M uni = 0;
            for (int j = 0; j < g->n; j++) uni |= st->c[g->reg[r][j]];
            while (uni) {
                M bit = uni & (~uni + 1);
                uni ^= bit;
                int k = 0;
                for (int j = 0; j < g->n; j++) k += (st->c[g->reg[r][j]] & bit) != 0;
                if (k < bn) { bn = k; breg = r; bval = lowv(bit); if (k == 2) break; }
            }
        }
    }
    State *child = malloc(sizeof(State));
    if (!child) return;
    if (breg >= 0) {
        M bit = (M)1 << (bval - 1);
        for (int j = 0; j < g->n && x->count < x->limit; j++) {
            int c = g->reg[breg][j];
            if (!(st->c[c] & bit)) continue;
            st_copy(g, child, st);
            child->c[c] = bit;
            solve_rec(x, child);
        }
    } else {
        M m = st->c[best];
        while (m && x->count < x->limit) {
            M bit = m & (~m + 1);
            m ^= bit;
            st_copy(g, child, st);
            child->c[best] = bit;
            solve_rec(x, child);
        }
    }
    free(child);
}

/* ------------------------------------------------------------------ */
/* the minimal-level strategy, one step at a time (grading)             */
/*                                                                      */
/* Each s_* function finds the FIRST step of its rule in the order of   */
/* the Python rule (rules/singles.py, lines.py, subsets.py, fish.py),   */
/* applies it to st and returns 1, or returns 0.  The steps are the      */
/* Python rules' own, one at a time, so a grade counts the same steps   */
/* whichever kernel ran it.                                             */

/* single position: columns, then rows, then blocks; values ascending */
static int s_position(const Geo *g, State *st) {
    int n = g->n;
    for (int t = 0; t < g->nr; t++) {
        int r = t < n ? n + t : (t < 2 * n ? t - n : t);
        const short *cells = g->reg[r];
        M once = 0, twice = 0;
        for (int j = 0; j < n; j++) { M m = st->c[cells[j]]; twice |= once & m; once |= m; }
        M hidden = once & ~twice;
        if (!hidden) continue;
        M bit = hidden & (~hidden + 1);
        for (int j = 0; j < n; j++)
            if (st->c[cells[j]] & bit) { place(g, st, cells[j], lowv(bit)); return 1; }
    }
    return 0;
}

/* single candidate: cell order */
static int s_candidate(const Geo *g, State *st) {
    for (int c = 0; c < g->nc; c++) {
        M m = st->c[c];
        if (m && !(m & (m - 1)) && !st->v[c]) { place(g, st, c, lowv(m)); return 1; }
    }
    return 0;
}

/* eliminate `bit` from the cells of region r that hold it and pass keep(c) == 0 */
static int elim_in(const Geo *g, State *st, int r, M bit, int kind, int which) {
    int got = 0;
    for (int j = 0; j < g->n; j++) {
        int c = g->reg[r][j];
        if (!(st->c[c] & bit)) continue;
        int inside = kind == 0 ? g->crow[c] == which : kind == 1 ? g->ccol[c] == which
                                                                 : g->cblk[c] == which;
        if (!inside) got += elim(g, st, c, bit);
    }
    return got;
}

/* candidate lines: blocks (row case, then column case), then rows and
   columns (claiming); values ascending */
static int s_lines(const Geo *g, State *st) {
    int n = g->n;
    for (int k = 0; k < n; k++) {
        const short *bc = g->reg[2 * n + k];
        M uni = 0;
        for (int j = 0; j < n; j++) uni |= st->c[bc[j]];
        while (uni) {
            M bit = uni & (~uni + 1);
            uni ^= bit;
            int first = -1, row = 1, col = 1;
            for (int j = 0; j < n; j++) {
                int c = bc[j];
                if (!(st->c[c] & bit)) continue;
                if (first < 0) first = c;
                else { row &= g->crow[c] == g->crow[first]; col &= g->ccol[c] == g->ccol[first]; }
            }
            if (row && elim_in(g, st, g->crow[first], bit, 2, k)) return 1;
            if (col && elim_in(g, st, n + g->ccol[first], bit, 2, k)) return 1;
        }
    }
    for (int l = 0; l < 2 * n; l++) {
        const short *lc = g->reg[l];
        M uni = 0;
        for (int j = 0; j < n; j++) uni |= st->c[lc[j]];
        while (uni) {
            M bit = uni & (~uni + 1);
            uni ^= bit;
            int first = -1, same = 1;
            for (int j = 0; j < n; j++) {
                int c = lc[j];
                if (!(st->c[c] & bit)) continue;
                if (first < 0) first = c;
                else same &= g->cblk[c] == g->cblk[first];
            }
            if (same && elim_in(g, st, 2 * n + g->cblk[first], bit, l < n ? 0 : 1,
                                l < n ? l : l - n))
                return 1;
        }
    }
    return 0;
}

/* the next combination of `size` out of `m` in lexicographic order; 0 at the end */
static int next_combo(int *idx, int size, int m) {
    int i = size - 1;
    while (i >= 0 && idx[i] == m - size + i) i--;
    if (i < 0) return 0;
    idx[i]++;
    for (int j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
    return 1;
}

/* multiple lines: bands (rows), then stacks (columns); values ascending;
   block sets by size, then in lexicographic order */
static int s_multi(const Geo *g, State *st) {
    int n = g->n;
    for (int orient = 0; orient < 2; orient++) {
        int ngroups = orient == 0 ? g->nbands : g->per_band;
        int nblk = orient == 0 ? g->per_band : g->nbands;
        if (nblk < 3) continue;
        for (int gi = 0; gi < ngroups; gi++) {
            const short *group = orient == 0 ? g->band[gi] : g->stack[gi];
            for (int v = 1; v <= n; v++) {
                M bit = (M)1 << (v - 1), lines_in[MAXN];
                for (int i = 0; i < nblk; i++) {
                    const short *bc = g->reg[2 * n + group[i]];
                    M m = 0;
                    for (int j = 0; j < n; j++)
                        if (st->c[bc[j]] & bit)
                            m |= (M)1 << (orient == 0 ? g->crow[bc[j]] : g->ccol[bc[j]]);
                    lines_in[i] = m;
                }
                for (int size = 2; size < nblk; size++) {
                    int idx[MAXN];
                    for (int i = 0; i < size; i++) idx[i] = i;
                    do {
                        M uni = 0, in = 0;
                        int ok = 1;
                        for (int i = 0; i < size && ok; i++) {
                            if (!lines_in[idx[i]]) ok = 0;
                            uni |= lines_in[idx[i]];
                            in |= (M)1 << idx[i];
                        }
                        if (!ok || popc(uni) != size) continue;
                        int got = 0;
                        for (int i = 0; i < nblk; i++) {
                            if (in >> i & 1) continue;
                            const short *bc = g->reg[2 * n + group[i]];
                            for (int j = 0; j < n; j++) {
                                int c = bc[j], line = orient == 0 ? g->crow[c] : g->ccol[c];
                                if (uni >> line & 1) got += elim(g, st, c, bit);
                            }
                        }
                        if (got) return 1;
                    } while (next_combo(idx, size, nblk));
                }
            }
        }
    }
    return 0;
}

/* subsets of `m` masks of size k whose union has exactly k bits, in the
   lexicographic order of rules/subsets.py; stops at the first for which
   cb returns nonzero */
typedef int (*FirstCb)(void *ctx, const int *idx, int k, M uni);
static int subset_first(const M *masks, int m, int k, int *idx, int depth, int start, M uni,
                        FirstCb cb, void *ctx) {
    int need = k - depth;
    if (need == 0) return popc(uni) == k ? cb(ctx, idx, k, uni) : 0;
    for (int i = start; i <= m - need; i++) {
        M u = uni | masks[i];
        if (popc(u) > k) continue;
        idx[depth] = i;
        if (subset_first(masks, m, k, idx, depth + 1, i + 1, u, cb, ctx)) return 1;
    }
    return 0;
}

typedef struct {
    RegionCtx r;
    M pos[MAXN];     /* per value: its positions over the empties */
    int naked;       /* 1: a naked set's values leave the other cells; 0: hidden */
} SetCtx;

/* apply a set found: cells (mask over the empties) and values vm */
static int set_found(SetCtx *x, M cells, M vm) {
    int got = 0;
    for (int i = 0; i < x->r.p; i++) {
        int in = (int)(cells >> i & 1);
        if (x->naked && !in) got += elim(x->r.g, x->r.st, x->r.empties[i], vm);
        if (!x->naked && in) got += elim(x->r.g, x->r.st, x->r.empties[i], ~vm);
    }
    return got > 0;
}

static M values_mask(const SetCtx *x, const int *idx, int k) {
    M vm = 0;
    for (int i = 0; i < k; i++) vm |= (M)1 << (x->r.values[idx[i]] - 1);
    return vm;
}

static M idx_mask(const int *idx, int k) {
    M m = 0;
    for (int i = 0; i < k; i++) m |= (M)1 << idx[i];
    return m;
}

/* naked, direct: cells idx, values uni */
static int cb_naked_first(void *ctx, const int *idx, int k, M uni) {
    return set_found(ctx, idx_mask(idx, k), uni);
}

/* naked through its hidden dual: values idx whose positions are cellmask */
static int cb_naked_dual(void *ctx, const int *idx, int h, M cellmask) {
    SetCtx *x = ctx;
    M hv = values_mask(x, idx, h), uni = 0, cells = 0;
    for (int i = 0; i < x->r.p; i++)
        if (!(cellmask >> i & 1)) { cells |= (M)1 << i; uni |= x->r.st->c[x->r.empties[i]]; }
    if ((uni & hv) || popc(uni) != x->r.k) return 0;
    return set_found(x, cells, uni);
}

/* hidden, direct: values idx whose positions are cellmask */
static int cb_hidden_first(void *ctx, const int *idx, int k, M cellmask) {
    SetCtx *x = ctx;
    return set_found(x, cellmask, values_mask(x, idx, k));
}

/* hidden through its naked dual: cells idx holding only the values uni */
static int cb_hidden_dual(void *ctx, const int *idx, int h, M uni) {
    SetCtx *x = ctx;
    M all = 0;
    for (int i = 0; i < x->r.nvals; i++) all |= (M)1 << (x->r.values[i] - 1);
    M vm = all & ~uni;
    if (popc(vm) != x->r.k) return 0;
    M cells = ((M)1 << x->r.p) - 1;
    return set_found(x, cells & ~idx_mask(idx, h), vm);
}

/* naked (naked = 1) or hidden subsets of sizes lo..hi: sizes ascending, then
   regions (rows, columns, blocks), then sets in lexicographic order */
static int s_subsets(const Geo *g, State *st, int naked, int lo, int hi) {
    if (hi <= 0) hi = g->n - 1;
    for (int k = lo; k <= hi; k++) {
        for (int reg = 0; reg < g->nr; reg++) {
            SetCtx x;
            M cm[MAXN];
            int idx[MAXN];
            x.naked = naked;
            region_state(g, st, reg, &x.r, x.pos);
            int p = x.r.p;
            if (k >= p || k <= 0) continue;
            x.r.k = k;
            for (int i = 0; i < p; i++) cm[i] = st->c[x.r.empties[i]];
            int found;
            if (2 * k <= p)
                found = naked ? subset_first(cm, p, k, idx, 0, 0, 0, cb_naked_first, &x)
                              : (k <= x.r.nvals &&
                                 subset_first(x.pos, x.r.nvals, k, idx, 0, 0, 0, cb_hidden_first, &x));
            else if (naked)
                found = p - k <= x.r.nvals &&
                        subset_first(x.pos, x.r.nvals, p - k, idx, 0, 0, 0, cb_naked_dual, &x);
            else
                found = subset_first(cm, p, p - k, idx, 0, 0, 0, cb_hidden_dual, &x);
            if (found) return 1;
        }
    }
    return 0;
}

static int cb_fish_first(void *ctx, const int *idx, int k, M cover) {
    return cb_fish(ctx, idx, k, cover) > 0;
}

/* fish of size k: values ascending, rows as base before columns, base line
   sets in lexicographic order */
static int s_fish(const Geo *g, State *st, int k) {
    int n = g->n;
    for (int v = 1; v <= n; v++) {
        M bit = (M)1 << (v - 1);
        for (int kind = 0; kind < 2; kind++) {
            FishCtx f;
            M masks[MAXN];
            int m = 0, idx[MAXN];
            f.g = g; f.st = st; f.base_kind = kind; f.bit = bit;
            for (int i = 0; i < n; i++) {
                M pos = 0;
                for (int j = 0; j < n; j++) {
                    int c = kind == 0 ? i * n + j : j * n + i;
                    if (st->c[c] & bit) pos |= (M)1 << j;
                }
                int cc = popc(pos);
                if (cc >= 2 && cc <= k) { f.lines[m] = i; masks[m++] = pos; }
            }
            if (m < k) continue;
            if (subset_first(masks, m, k, idx, 0, 0, 0, cb_fish_first, &f)) return 1;
        }
    }
    return 0;
}

/* the first step of one rule, applied; 0 when it has none */
static int first_step(const Geo *g, State *st, const RuleDesc *r) {
    switch (r->fam) {
    case FAM_SINGLES: return r->p1 == 2 ? s_candidate(g, st) : s_position(g, st);
    case FAM_LINES: return s_lines(g, st);
    case FAM_MULTI: return s_multi(g, st);
    case FAM_NAKED: return s_subsets(g, st, 1, r->p1, r->p2);
    case FAM_HIDDEN: return s_subsets(g, st, 0, r->p1, r->p2);
    case FAM_FISH: return s_fish(g, st, r->p1);
    }
    return 0;
}


/* ------------------------------------------------------------------ */
/* Python glue                                                          */

static Geo *get_geo(PyObject *cap) {
    return (Geo *)PyCapsule_GetPointer(cap, "grader._native.Geo");
}

static int parse_rules(PyObject *seq, Rules *P) {
    PyObject *f = PySequence_Fast(seq, "rules must be a sequence");
    if (!f) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(f);
    if (k > MAXRULES) { Py_DECREF(f); PyErr_SetString(PyExc_ValueError, "too many rules"); return -1; }
    memset(P, 0, sizeof(Rules)); /* memos compare whole descriptions */
    P->has_disj = P->has_red = 0;
    P->max_alt = 2;
    for (Py_ssize_t i = 0; i < k; i++) {
        int fam, p1, p2;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(f, i), "iii", &fam, &p1, &p2)) {
            Py_DECREF(f);
            return -1;
        }
        if (fam < FAM_SINGLES || fam > FAM_PYTHON) {
            Py_DECREF(f);
            PyErr_Format(PyExc_ValueError, "rule %zd: unknown rule family %d", i, fam);
            return -1;
        }
        P->r[P->nr].fam = fam; P->r[P->nr].p1 = p1; P->r[P->nr].p2 = p2;
        P->nr++;
    }
    Py_DECREF(f);
    return 0;
}

typedef struct {
    Geo *g;
    Rules P;
    State *st;
    uint8_t *sol; /* NULL when no solution was given */
    int clean;    /* st is a fixpoint of the rules: branches need only look at what changes */
} Call;

/* Is st a fixpoint of the rules of P (nothing to add, no contradiction)? */
static int at_fixpoint(const Geo *g, const State *st, const Rules *P) {
    State *t = malloc(sizeof(State));
    if (!t) return 0;
    st_copy(g, t, st);
    st_all_dirty(g, t);
    int ok = !fix(g, t, P) && !memcmp(t->v, st->v, g->nc) && !memcmp(t->c, st->c, sizeof(M) * g->nc);
    free(t);
    return ok;
}

static void call_free(Call *k) {
    free(k->st);
    free(k->sol);
}

/* common arguments: geo, values, cands, rules, has_disj, has_red, max_alt, solution */
static int call_init(Call *k, PyObject *cap, PyObject *vals, PyObject *cands, PyObject *rules,
                     int hd, int hr, int ma, PyObject *sol) {
    k->st = NULL; k->sol = NULL;
    k->g = get_geo(cap);
    if (!k->g) return -1;
    if (parse_rules(rules, &k->P)) return -1;
    k->P.has_disj = hd; k->P.has_red = hr; k->P.max_alt = ma < 2 ? 2 : (ma > MAXN ? MAXN : ma);
    k->st = malloc(sizeof(State));
    k->sol = malloc(MAXC);
    if (!k->st || !k->sol) { call_free(k); PyErr_NoMemory(); return -1; }
    if (load_state(k->g, vals, cands, k->st)) { call_free(k); return -1; }
    int hs = load_solution(k->g, sol, k->sol);
    if (hs < 0) { call_free(k); return -1; }
    if (!hs) { free(k->sol); k->sol = NULL; }
    k->clean = 0;
    return 0;
}

/* Python rules of a call: set before the C work, checked after it (a
   Python rule's exception is raised, and the memo, which may hold what
   the failed closures left, is dropped) */
static void py_begin(PyObject *callbacks) {
    py_rules = callbacks == Py_None ? NULL : callbacks;
    py_err_type = py_err_value = py_err_tb = NULL;
}

static int py_end(void) {
    py_rules = NULL;
    if (!py_err_type) return 0;
    memo_reset_all();
    PyErr_Restore(py_err_type, py_err_value, py_err_tb);
    py_err_type = py_err_value = py_err_tb = NULL;
    return -1;
}

/* closure(geo, values, cands, rules, has_disj, has_red, max_alt, depth, solution
   [, callbacks]) -> (conflict, (values, cands)) */
static PyObject *py_closure(PyObject *self, PyObject *args) {
    PyObject *cap, *vals, *cands, *rules, *sol, *cbs = Py_None;
    int hd, hr, ma, depth;
    if (!PyArg_ParseTuple(args, "OOOOiiiiO|O", &cap, &vals, &cands, &rules, &hd, &hr, &ma, &depth,
                          &sol, &cbs))
        return NULL;
    Call k;
    if (call_init(&k, cap, vals, cands, rules, hd, hr, ma, sol)) return NULL;
    int conflict;
    py_begin(cbs);
    Py_BEGIN_ALLOW_THREADS
    conflict = closure(k.g, k.st, &k.P, depth, k.sol);
    Py_END_ALLOW_THREADS
    work_flush();
    if (py_end()) { call_free(&k); return NULL; }
    PyObject *dumped = dump_state(k.g, k.st);
    call_free(&k);
    if (!dumped) return NULL;
    return Py_BuildValue("(ON)", conflict ? Py_True : Py_False, dumped);
}

/* reductio_first(geo, values, cands, rules, hd, hr, ma, depth, solution, start)
   -> (cell, value) of the first candidate at or after position `start`
   (cell * 64 + value) whose assumption closes on a contradiction, or None.
   Candidates agreeing with the solution are skipped: they never contradict. */
static PyObject *py_reductio_first(PyObject *self, PyObject *args) {
    PyObject *cap, *vals, *cands, *rules, *sol, *cbs = Py_None;
    int hd, hr, ma, depth, start;
    if (!PyArg_ParseTuple(args, "OOOOiiiiOi|O", &cap, &vals, &cands, &rules, &hd, &hr, &ma, &depth,
                          &sol, &start, &cbs))
        return NULL;
    Call k;
    if (call_init(&k, cap, vals, cands, rules, hd, hr, ma, sol)) return NULL;
    py_begin(cbs);
    State *tmp = malloc(sizeof(State));
    if (!tmp) { call_free(&k); return PyErr_NoMemory(); }
    int fc = -1, fv = 0;
    const Geo *g = k.g;
    Py_BEGIN_ALLOW_THREADS
    k.clean = at_fixpoint(g, k.st, &k.P);
    Memo *memo = memo_for(g, k.st, &k.P, depth);
    for (int c = start / 64; c < g->nc && fc < 0; c++) {
        if (k.st->v[c]) continue;
        M m = k.st->c[c];
        while (m) {
            int v = lowv(m);
            m &= m - 1;
            if (c * 64 + v < start) continue;
            if (is_true(k.sol, c, v)) continue;
            const State *out;
            if (branch(g, k.st, &k.P, depth, k.clean, NULL, memo, c, v, tmp, &out)) {
                fc = c; fv = v;
                break;
            }
        }
    }
    Py_END_ALLOW_THREADS
    work_flush();
    free(tmp);
    call_free(&k);
    if (py_end()) return NULL;
    if (fc < 0) Py_RETURN_NONE;
    return Py_BuildValue("(ii)", fc, fv);
}

/* disjunction_first(geo, values, cands, rules, hd, hr, ma, depth, solution, start)
   The pivots are those of rules/trials.py (cells with 2..ma candidates, then
   region values with 2..ma positions, by number of alternatives).  Returns
   (index, kind, cell, value, region, alternatives) for the first pivot at or
   after `start` with a conclusion (kind 0 = placement, 1 = elimination;
   region -1 for a cell pivot; alternatives a list of (cell, value)), or None. */
/* What the pivot p proves, as rules/branches.py conclusions_of gives it:
   (placed, cell, value) triples in out (3 ints each); returns their count.
   The live branches' closures come from the memo (eval_pivot kept them). */
static int pivot_conclusions(const Geo *g, const State *st, const Pivot *p, const Rules *P,
                             int d, int clean, const uint8_t *sol, Memo *m, M dead, int *out) {
    int live[MAXN], nl = 0, cnt = 0;
    for (int j = 0; j < p->n; j++)
        if (!(dead >> j & 1)) live[nl++] = j;
    if (nl <= 1) {
        int j = nl ? live[0] : 0;
        out[0] = nl; out[1] = p->cell[j]; out[2] = p->val[j];
        return 1;
    }
    State *br = malloc(sizeof(State) * nl);
    M *implied = calloc((size_t)g->nc, sizeof(M));
    const State *bs[MAXN];
    if (!br || !implied) { free(br); free(implied); return -1; }
    for (int i = 0; i < nl; i++) {
        int c = p->cell[live[i]], v = p->val[live[i]];
        branch(g, st, P, d, clean, is_true(sol, c, v) ? sol : NULL, m, c, v, &br[i], &bs[i]);
    }
    for (int c = 0; c < g->nc; c++) {
        if (st->v[c]) continue;
        int v = bs[0]->v[c], all = v != 0;
        for (int i = 1; i < nl && all; i++) all = bs[i]->v[c] == v;
        if (!all) continue;
        out[3 * cnt] = 1; out[3 * cnt + 1] = c; out[3 * cnt + 2] = v;
        cnt++;
        implied[c] = g->full; /* a placed cell has no eliminations of its own */
        const short *pp = g->peers + c * g->np;
        for (int i = 0; i < g->np; i++) implied[pp[i]] |= (M)1 << (v - 1);
    }
    for (int c = 0; c < g->nc; c++) {
        M mk = st->c[c];
        if (!mk) continue;
        for (int i = 0; i < nl && mk; i++) {
            mk &= ~bs[i]->c[c];
            if (bs[i]->v[c]) mk &= ~((M)1 << (bs[i]->v[c] - 1));
        }
        mk &= ~implied[c];
        while (mk) {
            out[3 * cnt] = 0; out[3 * cnt + 1] = c; out[3 * cnt + 2] = lowv(mk);
            cnt++;
            mk &= mk - 1;
        }
    }
    free(br);
    free(implied);
    return cnt;
}

static PyObject *py_disjunction_first(PyObject *self, PyObject *args) {
    PyObject *cap, *vals, *cands, *rules, *sol, *cbs = Py_None;
    int hd, hr, ma, depth, start;
    if (!PyArg_ParseTuple(args, "OOOOiiiiOi|O", &cap, &vals, &cands, &rules, &hd, &hr, &ma, &depth,
                          &sol, &start, &cbs))
        return NULL;
    Call k;
    if (call_init(&k, cap, vals, cands, rules, hd, hr, ma, sol)) return NULL;
    py_begin(cbs);
    Pivot *pv;
    int npv = pivots_of(k.g, k.st, k.P.max_alt, &pv);
    if (npv < 0) { call_free(&k); return PyErr_NoMemory(); }
    int found = -1, kind = 0, tc = 0, tv = 0, nt = 0;
    M dead = 0;
    int *tg = malloc(sizeof(int) * 3 * ((size_t)k.g->nc * k.g->n + 1));
    if (!tg) { free(pv); call_free(&k); return PyErr_NoMemory(); }
    Py_BEGIN_ALLOW_THREADS
    k.clean = at_fixpoint(k.g, k.st, &k.P);
    Memo *m = memo_for(k.g, k.st, &k.P, depth);
    for (int i = start; i < npv; i++) {
        int r = eval_pivot(k.g, k.st, &pv[i], &k.P, depth, k.sol, 0, k.clean, m, &kind, &tc, &tv,
                           &dead);
        if (r != 0) { found = i; break; }
    }
    if (found >= 0)
        nt = pivot_conclusions(k.g, k.st, &pv[found], &k.P, depth, k.clean, k.sol, m, dead, tg);
    Py_END_ALLOW_THREADS
    work_flush();
    if (py_end()) { free(tg); free(pv); call_free(&k); return NULL; }
    PyObject *res;
    if (found < 0) {
        Py_INCREF(Py_None);
        res = Py_None;
    } else {
        PyObject *alts = PyList_New(pv[found].n);
        for (int j = 0; j < pv[found].n; j++)
            PyList_SET_ITEM(alts, j, Py_BuildValue("(ii)", pv[found].cell[j], pv[found].val[j]));
        PyObject *targets = nt < 0 ? (Py_INCREF(Py_None), Py_None) : PyList_New(nt);
        for (int j = 0; j < nt; j++)
            PyList_SET_ITEM(targets, j, Py_BuildValue("(Oii)", tg[3 * j] ? Py_True : Py_False,
                                                      tg[3 * j + 1], tg[3 * j + 2]));
        res = Py_BuildValue("(iiiiiNKN)", found, kind, tc, tv, pv[found].region, alts,
                            (unsigned long long)dead, targets);
    }
    free(tg);
    free(pv);
    call_free(&k);
    return res;
}

/* first_progress(geo, values, cands, rules) -> index of the first rule that can
   make progress, or -1.  rules: (fam, p1, p2); fam 0 with p1 = 1 is single
   position, p1 = 2 single candidate */
static PyObject *py_first_progress(PyObject *self, PyObject *args) {
    PyObject *cap, *vals, *cands, *rules;
    if (!PyArg_ParseTuple(args, "OOOO", &cap, &vals, &cands, &rules)) return NULL;
    Call k;
    if (call_init(&k, cap, vals, cands, rules, 0, 0, 2, Py_None)) return NULL;
    State *tmp = malloc(sizeof(State));
    if (!tmp) { call_free(&k); return PyErr_NoMemory(); }
    const Geo *g = k.g;
    const State *st = k.st;
    int n = g->n, first = -1;
    for (int i = 0; i < k.P.nr && first < 0; i++) {
        int yes = 0;
        const RuleDesc *r = &k.P.r[i];
        if (r->fam == FAM_SINGLES && r->p1 == 2) {
            for (int c = 0; c < g->nc && !yes; c++)
                if (!st->v[c] && st->c[c] && !(st->c[c] & (st->c[c] - 1))) yes = 1;
        } else if (r->fam == FAM_SINGLES) {
            for (int reg = 0; reg < g->nr && !yes; reg++) {
                M once = 0, twice = 0;
                for (int j = 0; j < n; j++) {
                    M m = st->c[g->reg[reg][j]];
                    twice |= once & m;
                    once |= m;
                }
                if (once & ~twice) yes = 1;
            }
        } else {
            uint8_t D[3 * MAXN];
            memset(D, 1, g->nr);
            st_copy(g, tmp, st);
            yes = apply_rule(g, tmp, r, D, g->full) > 0;
        }
        if (yes) first = i;
    }
    free(tmp);
    call_free(&k);
    return PyLong_FromLong(first);
}

/* steps(geo, values, cands, rules, limit) -> (bytes: the rule of each step
   applied, (values, cands)): the minimal-level strategy over `rules` (in
   their order; C families only, no trials), one step at a time, until none
   applies, the grid is solved, or `limit` steps */
static PyObject *py_steps(PyObject *self, PyObject *args) {
    PyObject *cap, *vals, *cands, *rules;
    int limit;
    if (!PyArg_ParseTuple(args, "OOOOi", &cap, &vals, &cands, &rules, &limit)) return NULL;
    Call k;
    if (call_init(&k, cap, vals, cands, rules, 0, 0, 2, Py_None)) return NULL;
    for (int i = 0; i < k.P.nr; i++)
        if (k.P.r[i].fam == FAM_PYTHON) {
            call_free(&k);
            PyErr_SetString(PyExc_ValueError, "steps: rules written in Python are not stepped in C");
            return NULL;
        }
    if (limit < 0) limit = 0;
    char *out = malloc((size_t)limit + 1);
    if (!out) { call_free(&k); return PyErr_NoMemory(); }
    int count = 0;
    Py_BEGIN_ALLOW_THREADS
    while (count < limit) {
        int done = 1;
        for (int c = 0; c < k.g->nc && done; c++) done = k.st->v[c] != 0;
        if (done) break;
        int i = 0;
        while (i < k.P.nr && !first_step(k.g, k.st, &k.P.r[i])) i++;
        if (i == k.P.nr) break;
        out[count++] = (char)i;
    }
    Py_END_ALLOW_THREADS
    PyObject *dumped = dump_state(k.g, k.st);
    call_free(&k);
    if (!dumped) { free(out); return NULL; }
    PyObject *res = Py_BuildValue("(y#N)", out, (Py_ssize_t)count, dumped);
    free(out);
    return res;
}

/* contradiction(geo, values, cands) -> None or (kind, a, b), in the order of
   Board.contradiction: 2 = value b placed twice in region a, 0 = empty cell a
   without candidate, 1 = value b has no place in region a */
static PyObject *py_contradiction(PyObject *self, PyObject *args) {
    PyObject *cap, *vals, *cands;
    if (!PyArg_ParseTuple(args, "OOO", &cap, &vals, &cands)) return NULL;
    Geo *g = get_geo(cap);
    if (!g) return NULL;
    State *st = malloc(sizeof(State));
    if (!st) return PyErr_NoMemory();
    if (load_state(g, vals, cands, st)) { free(st); return NULL; }
    int n = g->n, kind = -1, a = 0, b = 0;
    for (int r = 0; r < g->nr && kind < 0; r++) {
        M seen = 0;
        for (int j = 0; j < n; j++) {
            int v = st->v[g->reg[r][j]];
            if (!v) continue;
            M bit = (M)1 << (v - 1);
            if (seen & bit) { kind = 2; a = r; b = v; break; }
            seen |= bit;
        }
    }
    for (int c = 0; c < g->nc && kind < 0; c++)
        if (!st->v[c] && !st->c[c]) { kind = 0; a = c; }
    for (int r = 0; r < g->nr && kind < 0; r++) {
        M have = 0;
        for (int j = 0; j < n; j++) {
            int c = g->reg[r][j];
            have |= st->c[c];
            if (st->v[c]) have |= (M)1 << (st->v[c] - 1);
        }
        M missing = g->full & ~have;
        if (missing) { kind = 1; a = r; b = lowv(missing); }
    }
    free(st);
    if (kind < 0) Py_RETURN_NONE;
    return Py_BuildValue("(iii)", kind, a, b);
}

/* solve(geo, values, limit, max_nodes) -> (count, [solutions as lists], nodes) */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *cap, *vals;
    int limit;
    long max_nodes;
    if (!PyArg_ParseTuple(args, "OOil", &cap, &vals, &limit, &max_nodes)) return NULL;
    Geo *g = get_geo(cap);
    if (!g) return NULL;
    if (limit < 1) limit = 1;
    PyObject *fv = PySequence_Fast(vals, "values must be a sequence");
    if (!fv) return NULL;
    if (PySequence_Fast_GET_SIZE(fv) != g->nc) {
        Py_DECREF(fv);
        PyErr_SetString(PyExc_ValueError, "wrong number of cells");
        return NULL;
    }
    State *st = malloc(sizeof(State));
    uint8_t *sols = malloc((size_t)limit * g->nc);
    if (!st || !sols) { free(st); free(sols); Py_DECREF(fv); return PyErr_NoMemory(); }
    int bad = 0;
    for (int c = 0; c < g->nc; c++) { st->v[c] = 0; st->c[c] = g->full; }
    for (int c = 0; c < g->nc && !bad; c++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fv, c));
        if (v < 0 || v > g->n) { bad = 1; break; }
        if (!v) continue;
        if (!(st->c[c] & ((M)1 << (v - 1)))) { bad = 1; break; } /* a given repeated */
        place(g, st, c, (int)v);
    }
    Py_DECREF(fv);
    if (PyErr_Occurred()) { free(st); free(sols); return NULL; }
    SolveCtx x = {g, limit, 0, 0, max_nodes, sols, g->n >= 12 ? &SOLVER_BIG : &SOLVER_SMALL};
    if (!bad) {
        Py_BEGIN_ALLOW_THREADS
        solve_rec(&x, st);
        Py_END_ALLOW_THREADS
        work_flush();
    }
    PyObject *lst = PyList_New(x.count);
    for (int i = 0; i < x.count; i++) {
        PyObject *one = PyList_New(g->nc);
        for (int c = 0; c < g->nc; c++)
            PyList_SET_ITEM(one, c, PyLong_FromLong(sols[(size_t)i * g->nc + c]));
        PyList_SET_ITEM(lst, i, one);
    }
    free(st); free(sols);
    return Py_BuildValue("(iNl)", x.count, lst, x.nodes);
}

/* stats() -> dict of work counters since the module was loaded */
static PyObject *py_stats(PyObject *self, PyObject *args) {
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K}", "fix", totals.fix, "trial_pass",
                         totals.trial_pass, "closure0", totals.closure[0], "closure1",
                         totals.closure[1], "closure2", totals.closure[2], "closure1_true",
                         totals.closure_true[1], "memo_carried", totals.carried,
                         "memo_seeded", totals.seeded);
}

static PyMethodDef methods[] = {
    {"stats", py_stats, METH_NOARGS, "work counters"},
    {"geometry", py_geometry, METH_VARARGS, "geometry(a, b) -> capsule"},
    {"closure", py_closure, METH_VARARGS, "fixpoint, with trials nested to a depth"},
    {"reductio_first", py_reductio_first, METH_VARARGS, "first contradicting assumption"},
    {"disjunction_first", py_disjunction_first, METH_VARARGS, "first pivot with a conclusion"},
    {"first_progress", py_first_progress, METH_VARARGS, "the first rule that can make progress"},
    {"steps", py_steps, METH_VARARGS, "the minimal-level strategy, one step at a time"},
    {"contradiction", py_contradiction, METH_VARARGS, "the first contradiction, or None"},
    {"solve", py_solve, METH_VARARGS, "count solutions up to a limit"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "grader._native",
    "Native accelerator for trial propagation, rule probes and exact solving.", -1, methods,
    NULL, NULL, NULL, NULL,
};

/* FAMILIES: {name: (code, ((parameter, lowest, highest), ...))}, what this
   module knows; grader/native.py refuses to run with a table of its own that
   differs, and a rule asking for anything else fails with a clear error. */
static int add_families(PyObject *mod) {
    PyObject *t = Py_BuildValue(
        "{s:(i((sii))),s:(i()),s:(i()),s:(i((sii)(sii))),s:(i((sii)(sii))),s:(i((sii))),"
        "s:(i((sii)(sii))),s:(i((sii)(sii))),s:(i((sii)(sii)))}",
        "singles", FAM_SINGLES, "kind", 1, 2,
        "lines", FAM_LINES,
        "multiple-lines", FAM_MULTI,
        "naked-subset", FAM_NAKED, "min_size", 1, MAXN - 1, "max_size", 0, MAXN - 1,
        "hidden-subset", FAM_HIDDEN, "min_size", 1, MAXN - 1, "max_size", 0, MAXN - 1,
        "fish", FAM_FISH, "size", 1, MAXN - 1,
        "python", FAM_PYTHON, "index", 0, MAXRULES - 1, "tag", 0, 0x3FFFFFFF,
        "disjunction", FAM_DISJUNCTION, "depth", 1, MAXDEPTH, "max_alternatives", 2, MAXN,
        "reductio", FAM_REDUCTIO, "depth", 1, MAXDEPTH, "max_alternatives", 2, MAXN);
    if (!t) return -1;
    if (PyModule_AddObject(mod, "FAMILIES", t) < 0) { Py_DECREF(t); return -1; }
    if (PyModule_AddIntConstant(mod, "MAXN", MAXN) < 0) return -1;
    return PyModule_AddIntConstant(mod, "MAXRULES", MAXRULES);
}

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *mod = PyModule_Create(&module);
    if (mod && add_families(mod) < 0) { Py_DECREF(mod); return NULL; }
    return mod;
}
