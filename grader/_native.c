/*
 * grader._native: the accelerator behind trials (levels 13-14), rule probes,
 * contradiction checks and the exact solver.
 *
 * It computes the same things as the pure-Python code it stands in for
 * (grader/propagate.py fixpoint, rules/trials.py branch evaluation,
 * grader/solver.py), on the same candidate bitmasks, and is used only when
 * every rule involved is a built-in one it knows (see Rule.native()).  The
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

#define MAXN 36
#define MAXC (MAXN * MAXN)
#define MAXRULES 32

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
} State; /* only the first nc entries are used; copied with st_copy */

static inline void st_copy(const Geo *g, State *dst, const State *src) {
    memcpy(dst->v, src->v, g->nc);
    memcpy(dst->c, src->c, sizeof(M) * g->nc);
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
    st->v[cell] = val;
    st->c[cell] = 0;
    const short *pp = g->peers + cell * g->np;
    for (int i = 0; i < g->np; i++) st->c[pp[i]] &= ~bit;
}

static int singles(const Geo *g, State *st) {
    int nc = g->nc, n = g->n, np = g->np;
    short stack[2 * MAXC + 8]; /* a cell is pushed at most twice */
    char dirty[3 * MAXN];
    int sp = 0;
    memset(dirty, 1, g->nr);
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
            const short *cr = g->creg + c * 3;
            dirty[cr[0]] = dirty[cr[1]] = dirty[cr[2]] = 1;
            const short *pp = g->peers + c * np;
            for (int i = 0; i < np; i++) {
                int p = pp[i];
                M pm = st->c[p];
                if (pm & m) {
                    pm ^= m;
                    st->c[p] = pm;
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

enum { FAM_SINGLES = 0, FAM_LINES = 1, FAM_MULTI = 2, FAM_NAKED = 3, FAM_HIDDEN = 4, FAM_FISH = 5 };

typedef struct { int fam, p1, p2; } RuleDesc;
typedef struct {
    int nr;
    RuleDesc r[MAXRULES];
    int has_disj, has_red, max_alt;
} Rules;

static int r_lines(const Geo *g, State *st) {
    int n = g->n, cnt = 0;
    for (int k = 0; k < n; k++) {
        const short *bc = g->reg[2 * n + k];
        M uni = 0;
        for (int i = 0; i < n; i++) uni |= st->c[bc[i]];
        while (uni) {
            M bit = uni & (~uni + 1);
            uni ^= bit;
            int row = -1, col = -1, rs = 1, cs = 1;
            for (int i = 0; i < n; i++) {
                int c = bc[i];
                if (st->c[c] & bit) {
                    if (row < 0) { row = g->crow[c]; col = g->ccol[c]; }
                    else {
                        if (g->crow[c] != row) rs = 0;
                        if (g->ccol[c] != col) cs = 0;
                    }
                }
            }
            if (row < 0) continue;
            if (rs) {
                const short *lc = g->reg[row];
                for (int j = 0; j < n; j++) {
                    int c = lc[j];
                    if (g->cblk[c] != k && (st->c[c] & bit)) { st->c[c] &= ~bit; cnt++; }
                }
            }
            if (cs) {
                const short *lc = g->reg[n + col];
                for (int j = 0; j < n; j++) {
                    int c = lc[j];
                    if (g->cblk[c] != k && (st->c[c] & bit)) { st->c[c] &= ~bit; cnt++; }
                }
            }
        }
    }
    for (int l = 0; l < 2 * n; l++) {
        const short *lc = g->reg[l];
        M uni = 0;
        for (int i = 0; i < n; i++) uni |= st->c[lc[i]];
        while (uni) {
            M bit = uni & (~uni + 1);
            uni ^= bit;
            int blk = -1, same = 1;
            for (int i = 0; i < n; i++) {
                int c = lc[i];
                if (st->c[c] & bit) {
                    if (blk < 0) blk = g->cblk[c];
                    else if (g->cblk[c] != blk) { same = 0; break; }
                }
            }
            if (blk < 0 || !same) continue;
            const short *bc = g->reg[2 * n + blk];
            for (int j = 0; j < n; j++) {
                int c = bc[j];
                int on_line = (l < n) ? (g->crow[c] == l) : (g->ccol[c] == l - n);
                if (!on_line && (st->c[c] & bit)) { st->c[c] &= ~bit; cnt++; }
            }
        }
    }
    return cnt;
}

static int r_multi(const Geo *g, State *st) {
    int n = g->n, cnt = 0;
    for (int orient = 0; orient < 2; orient++) {
        int ngroups = orient == 0 ? g->nbands : g->per_band;
        int nblk = orient == 0 ? g->per_band : g->nbands;
        if (nblk < 3) continue;
        for (int gi = 0; gi < ngroups; gi++) {
            const short *group = orient == 0 ? g->band[gi] : g->stack[gi];
            for (int v = 1; v <= n; v++) {
                M bit = (M)1 << (v - 1);
                M lines_in[MAXN];
                for (int i = 0; i < nblk; i++) {
                    M m = 0;
                    const short *bc = g->reg[2 * n + group[i]];
                    for (int j = 0; j < n; j++) {
                        int c = bc[j];
                        if (st->c[c] & bit) m |= (M)1 << (orient == 0 ? g->crow[c] : g->ccol[c]);
                    }
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
                                if ((st->c[c] & bit) && (uni >> line & 1)) { st->c[c] &= ~bit; cnt++; }
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
        int c = r->empties[i];
        M x = r->st->c[c] & uni;
        if (x) { r->st->c[c] &= ~uni; cnt += popc(x); }
    }
    return cnt;
}

/* naked set through its hidden dual: idx are values (h of them) whose positions
   union `cellmask` has exactly h cells; the naked cells are the others */
static int cb_naked_dual(void *ctx, const int *idx, int h, M cellmask) {
    RegionCtx *r = ctx;
    M hidden_vals = 0;
    for (int i = 0; i < h; i++) hidden_vals |= (M)1 << (r->values[idx[i]] - 1);
    M uni = 0;
    for (int i = 0; i < r->p; i++)
        if (!(cellmask >> i & 1)) uni |= r->st->c[r->empties[i]];
    if ((uni & hidden_vals) || popc(uni) != r->k) return 0;
    int cnt = 0;
    for (int i = 0; i < r->p; i++) {
        if (!(cellmask >> i & 1)) continue;
        int c = r->empties[i];
        M x = r->st->c[c] & uni;
        if (x) { r->st->c[c] &= ~uni; cnt += popc(x); }
    }
    return cnt;
}

/* hidden set found directly: values idx, positions cellmask */
static int cb_hidden_direct(void *ctx, const int *idx, int k, M cellmask) {
    RegionCtx *r = ctx;
    M vm = 0;
    for (int i = 0; i < k; i++) vm |= (M)1 << (r->values[idx[i]] - 1);
    int cnt = 0;
    for (int i = 0; i < r->p; i++) {
        if (!(cellmask >> i & 1)) continue;
        int c = r->empties[i];
        M x = r->st->c[c] & ~vm;
        if (x) { r->st->c[c] &= vm; cnt += popc(x); }
    }
    return cnt;
}

/* hidden set through its naked dual: idx are h cells whose union `uni` has h values */
static int cb_hidden_dual(void *ctx, const int *idx, int h, M uni) {
    RegionCtx *r = ctx;
    M naked = 0;
    for (int i = 0; i < h; i++) naked |= (M)1 << idx[i];
    M allv = 0;
    for (int i = 0; i < r->nvals; i++) allv |= (M)1 << (r->values[i] - 1);
    M vm = allv & ~uni;
    if (popc(vm) != r->k) return 0;
    int cnt = 0;
    for (int i = 0; i < r->p; i++) {
        if (naked >> i & 1) continue;
        int c = r->empties[i];
        M x = r->st->c[c] & ~vm;
        if (x) { r->st->c[c] &= vm; cnt += popc(x); }
    }
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

static int r_subsets(const Geo *g, State *st, int hidden, int kmin, int kmax) {
    int n = g->n, cnt = 0;
    int hi = kmax > 0 ? kmax : n - 1;
    for (int k = kmin; k <= hi; k++) {
        for (int reg = 0; reg < g->nr; reg++) {
            RegionCtx r;
            M pos[MAXN], cm[MAXN];
            region_state(g, st, reg, &r, pos);
            if (k >= r.p) continue;
            r.k = k;
            for (int i = 0; i < r.p; i++) cm[i] = st->c[r.empties[i]];
            SubsetSearch s;
            s.ctx = &r;
            if (!hidden) {
                if (2 * k <= r.p) {
                    s.masks = cm; s.m = r.p; s.k = k; s.cb = cb_naked_direct;
                } else {
                    s.masks = pos; s.m = r.nvals; s.k = r.p - k; s.cb = cb_naked_dual;
                }
            } else {
                if (2 * k <= r.p) {
                    s.masks = pos; s.m = r.nvals; s.k = k; s.cb = cb_hidden_direct;
                } else {
                    s.masks = cm; s.m = r.p; s.k = r.p - k; s.cb = cb_hidden_dual;
                }
            }
            if (s.k <= 0 || s.k > s.m) continue;
            cnt += subset_rec(&s, 0, 0, 0);
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
            if (f->st->c[c] & f->bit) { f->st->c[c] &= ~f->bit; cnt++; }
        }
    }
    return cnt;
}

static int r_fish(const Geo *g, State *st, int k) {
    int n = g->n, cnt = 0;
    for (int v = 1; v <= n; v++) {
        M bit = (M)1 << (v - 1);
        for (int kind = 0; kind < 2; kind++) {
            FishCtx f;
            M masks[MAXN];
            int m = 0;
            f.g = g; f.st = st; f.base_kind = kind; f.bit = bit;
            for (int i = 0; i < n; i++) {
                M mm = 0;
                for (int j = 0; j < n; j++) {
                    int c = kind == 0 ? i * n + j : j * n + i;
                    if (st->c[c] & bit) mm |= (M)1 << j;
                }
                int cc = popc(mm);
                if (cc >= 2 && cc <= k) { f.lines[m] = i; masks[m++] = mm; }
            }
            if (m < k) continue;
            SubsetSearch s;
            s.masks = masks; s.m = m; s.k = k; s.cb = cb_fish; s.ctx = &f;
            cnt += subset_rec(&s, 0, 0, 0);
        }
    }
    return cnt;
}

static int apply_rule(const Geo *g, State *st, const RuleDesc *r) {
    switch (r->fam) {
    case FAM_LINES: return r_lines(g, st);
    case FAM_MULTI: return r_multi(g, st);
    case FAM_NAKED: return r_subsets(g, st, 0, r->p1, r->p2);
    case FAM_HIDDEN: return r_subsets(g, st, 1, r->p1, r->p2);
    case FAM_FISH: return r_fish(g, st, r->p1);
    }
    return 0; /* singles are run by fix() itself */
}

/* fixpoint of singles + the elimination rules of P. 1 on contradiction. */
static int fix(const Geo *g, State *st, const Rules *P) {
    for (;;) {
        if (singles(g, st)) return 1;
        int changed = 0;
        for (int i = 0; i < P->nr; i++) {
            if (apply_rule(g, st, &P->r[i])) { changed = 1; break; }
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

/* Evaluate one pivot (rules/trials.py DisjunctiveConstruction): returns -1 if
   every alternative contradicts, 0 if the branches agree on nothing, 1 with
   *kind (0 place, 1 elim), *tc, *tv = the conclusion: the survivor when all
   the other alternatives contradict, else the first common placement in cell
   order, else the first common elimination.  With apply_all, every common
   conclusion is applied to st instead (for closures). */
static int eval_pivot(const Geo *g, State *st, const Pivot *pv, const Rules *P, int d,
                      const uint8_t *sol, int apply_all, int *kind, int *tc, int *tv) {
    State *br = malloc(sizeof(State) * pv->n);
    int alive[MAXN], nalive = 0, ntrue = -1;
    if (!br) return 0;
    /* Alternatives that disagree with the solution first: if they all end in a
       contradiction, the remaining one is the conclusion and its (costly)
       closure is never computed.  The result does not depend on this order. */
    for (int i = 0; i < pv->n; i++)
        if (is_true(sol, pv->cell[i], pv->val[i])) ntrue = i;
    for (int i = 0; i < pv->n; i++) {
        if (i == ntrue) continue;
        st_copy(g, &br[i], st);
        place(g, &br[i], pv->cell[i], pv->val[i]);
        if (!closure(g, &br[i], P, d, NULL)) alive[nalive++] = i;
    }
    if (ntrue >= 0) {
        if (nalive == 0) {
            alive[nalive++] = ntrue; /* its closure is not needed */
        } else {
            st_copy(g, &br[ntrue], st);
            place(g, &br[ntrue], pv->cell[ntrue], pv->val[ntrue]);
            if (!closure(g, &br[ntrue], P, d, sol)) alive[nalive++] = ntrue;
            /* keep the survivors in alternative order */
            for (int a = nalive - 1; a > 0 && alive[a] < alive[a - 1]; a--) {
                int t = alive[a]; alive[a] = alive[a - 1]; alive[a - 1] = t;
            }
        }
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
            st->c[pv->cell[i]] = 0; /* contradictory position */
        }
        free(br);
        return 1;
    }
    int nc = g->nc, res = 0;
    for (int c = 0; c < nc; c++) {
        if (st->v[c]) continue;
        int v = br[alive[0]].v[c];
        if (!v) continue;
        int all = 1;
        for (int j = 1; j < nalive; j++)
            if (br[alive[j]].v[c] != v) { all = 0; break; }
        if (!all) continue;
        if (!apply_all) {
            *kind = 0; *tc = c; *tv = v;
            free(br);
            return 1;
        }
        res = 1;
        if (st->c[c] & ((M)1 << (v - 1))) place(g, st, c, v);
        else st->c[c] = 0; /* contradictory: leave the cell empty without candidates */
    }
    for (int c = 0; c < nc; c++) {
        M m = st->c[c];
        if (!m) continue;
        for (int j = 0; j < nalive && m; j++) {
            const State *s = &br[alive[j]];
            m &= ~s->c[c];
            if (s->v[c]) m &= ~((M)1 << (s->v[c] - 1));
        }
        if (!m) continue;
        if (!apply_all) {
            *kind = 1; *tc = c; *tv = lowv(m);
            free(br);
            return 1;
        }
        res = 1;
        st->c[c] &= ~m;
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
   applied to st. Returns 1 if something changed, 0 if nothing, -1 if the
   position is contradictory.  Cheap deductions are looked for first; the
   closure does not depend on the order. */
static int trial_pass(const Geo *g, State *st, const Rules *P, int d, const uint8_t *sol) {
    int nc = g->nc;
    State *tmp = malloc(sizeof(State));
    if (!tmp) return 0;
    int progress = 0;
    if (P->has_red) { /* reductio with singles only */
        for (int c = 0; c < nc; c++) {
            if (st->v[c]) continue;
            M m = st->c[c];
            while (m) {
                int v = lowv(m);
                m &= m - 1;
                if (is_true(sol, c, v)) continue;
                st_copy(g, tmp, st);
                place(g, tmp, c, v);
                if (singles(g, tmp)) { st->c[c] &= ~((M)1 << (v - 1)); progress = 1; }
            }
            if (st->c[c] == 0) { free(tmp); return -1; }
        }
        if (progress) { free(tmp); return 1; }
    }
    if (P->has_disj) {
        Pivot *pv;
        int np = pivots_of(g, st, P->max_alt, &pv);
        for (int i = 0; i < np; i++) {
            int r = eval_pivot(g, st, &pv[i], P, d - 1, sol, 1, NULL, NULL, NULL);
            if (r < 0) { free(pv); free(tmp); return -1; }
            if (r > 0) { free(pv); free(tmp); return 1; }
        }
        if (np >= 0) free(pv);
    }
    if (P->has_red) {
        for (int c = 0; c < nc; c++) {
            if (st->v[c]) continue;
            M m = st->c[c];
            while (m) {
                int v = lowv(m);
                m &= m - 1;
                if (is_true(sol, c, v)) continue;
                st_copy(g, tmp, st);
                place(g, tmp, c, v);
                if (closure(g, tmp, P, d - 1, NULL)) {
                    st->c[c] &= ~((M)1 << (v - 1));
                    free(tmp);
                    return st->c[c] ? 1 : -1;
                }
            }
        }
    }
    free(tmp);
    return 0;
}

/* Closure of the rules of P with trials nested to depth d (0: no trials).
   sol, when not NULL, is the solution and agrees with st. 1 on contradiction. */
static int closure(const Geo *g, State *st, const Rules *P, int d, const uint8_t *sol) {
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
    uint8_t *sols; /* limit * nc */
} SolveCtx;

static void solve_rec(SolveCtx *x, State *st) {
    const Geo *g = x->g;
    if (x->count >= x->limit) return;
    if (x->max_nodes >= 0 && x->nodes >= x->max_nodes) { x->nodes++; return; }
    x->nodes++;
    if (singles(g, st)) return;
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
    M m = st->c[best];
    State *child = malloc(sizeof(State));
    if (!child) return;
    while (m && x->count < x->limit) {
        M bit = m & (~m + 1);
        m ^= bit;
        st_copy(g, child, st);
        child->c[best] = bit;
        solve_rec(x, child);
    }
    free(child);
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
    P->nr = 0;
    P->has_disj = P->has_red = 0;
    P->max_alt = 2;
    for (Py_ssize_t i = 0; i < k; i++) {
        int fam, p1, p2;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(f, i), "iii", &fam, &p1, &p2)) {
            Py_DECREF(f);
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
} Call;

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
    return 0;
}

/* closure(geo, values, cands, rules, has_disj, has_red, max_alt, depth, solution)
   -> (conflict, (values, cands)) */
static PyObject *py_closure(PyObject *self, PyObject *args) {
    PyObject *cap, *vals, *cands, *rules, *sol;
    int hd, hr, ma, depth;
    if (!PyArg_ParseTuple(args, "OOOOiiiiO", &cap, &vals, &cands, &rules, &hd, &hr, &ma, &depth, &sol))
        return NULL;
    Call k;
    if (call_init(&k, cap, vals, cands, rules, hd, hr, ma, sol)) return NULL;
    int conflict;
    Py_BEGIN_ALLOW_THREADS
    conflict = closure(k.g, k.st, &k.P, depth, k.sol);
    Py_END_ALLOW_THREADS
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
    PyObject *cap, *vals, *cands, *rules, *sol;
    int hd, hr, ma, depth, start;
    if (!PyArg_ParseTuple(args, "OOOOiiiiOi", &cap, &vals, &cands, &rules, &hd, &hr, &ma, &depth,
                          &sol, &start))
        return NULL;
    Call k;
    if (call_init(&k, cap, vals, cands, rules, hd, hr, ma, sol)) return NULL;
    State *tmp = malloc(sizeof(State));
    if (!tmp) { call_free(&k); return PyErr_NoMemory(); }
    int fc = -1, fv = 0;
    const Geo *g = k.g;
    Py_BEGIN_ALLOW_THREADS
    for (int c = start / 64; c < g->nc && fc < 0; c++) {
        if (k.st->v[c]) continue;
        M m = k.st->c[c];
        while (m) {
            int v = lowv(m);
            m &= m - 1;
            if (c * 64 + v < start) continue;
            if (is_true(k.sol, c, v)) continue;
            st_copy(g, tmp, k.st);
            place(g, tmp, c, v);
            if (closure(g, tmp, &k.P, depth, NULL)) { fc = c; fv = v; break; }
        }
    }
    Py_END_ALLOW_THREADS
    free(tmp);
    call_free(&k);
    if (fc < 0) Py_RETURN_NONE;
    return Py_BuildValue("(ii)", fc, fv);
}

/* disjunction_first(geo, values, cands, rules, hd, hr, ma, depth, solution, start)
   The pivots are those of rules/trials.py (cells with 2..ma candidates, then
   region values with 2..ma positions, by number of alternatives).  Returns
   (index, kind, cell, value, region, alternatives) for the first pivot at or
   after `start` with a conclusion (kind 0 = placement, 1 = elimination;
   region -1 for a cell pivot; alternatives a list of (cell, value)), or None. */
static PyObject *py_disjunction_first(PyObject *self, PyObject *args) {
    PyObject *cap, *vals, *cands, *rules, *sol;
    int hd, hr, ma, depth, start;
    if (!PyArg_ParseTuple(args, "OOOOiiiiOi", &cap, &vals, &cands, &rules, &hd, &hr, &ma, &depth,
                          &sol, &start))
        return NULL;
    Call k;
    if (call_init(&k, cap, vals, cands, rules, hd, hr, ma, sol)) return NULL;
    Pivot *pv;
    int npv = pivots_of(k.g, k.st, k.P.max_alt, &pv);
    if (npv < 0) { call_free(&k); return PyErr_NoMemory(); }
    int found = -1, kind = 0, tc = 0, tv = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int i = start; i < npv; i++) {
        int r = eval_pivot(k.g, k.st, &pv[i], &k.P, depth, k.sol, 0, &kind, &tc, &tv);
        if (r != 0) { found = i; break; }
    }
    Py_END_ALLOW_THREADS
    PyObject *res;
    if (found < 0) {
        Py_INCREF(Py_None);
        res = Py_None;
    } else {
        PyObject *alts = PyList_New(pv[found].n);
        for (int j = 0; j < pv[found].n; j++)
            PyList_SET_ITEM(alts, j, Py_BuildValue("(ii)", pv[found].cell[j], pv[found].val[j]));
        res = Py_BuildValue("(iiiiiN)", found, kind, tc, tv, pv[found].region, alts);
    }
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
            st_copy(g, tmp, st);
            yes = apply_rule(g, tmp, r) > 0;
        }
        if (yes) first = i;
    }
    free(tmp);
    call_free(&k);
    return PyLong_FromLong(first);
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
    SolveCtx x = {g, limit, 0, 0, max_nodes, sols};
    if (!bad) {
        Py_BEGIN_ALLOW_THREADS
        solve_rec(&x, st);
        Py_END_ALLOW_THREADS
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

static PyMethodDef methods[] = {
    {"geometry", py_geometry, METH_VARARGS, "geometry(a, b) -> capsule"},
    {"closure", py_closure, METH_VARARGS, "fixpoint, with trials nested to a depth"},
    {"reductio_first", py_reductio_first, METH_VARARGS, "first contradicting assumption"},
    {"disjunction_first", py_disjunction_first, METH_VARARGS, "first pivot with a conclusion"},
    {"first_progress", py_first_progress, METH_VARARGS, "the first rule that can make progress"},
    {"contradiction", py_contradiction, METH_VARARGS, "the first contradiction, or None"},
    {"solve", py_solve, METH_VARARGS, "count solutions up to a limit"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "grader._native",
    "Native accelerator for trial propagation, rule probes and exact solving.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
