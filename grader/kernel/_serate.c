/* Optional accelerator for Sudoku Explainer's scale (grader.serate), 9x9 only.
 *
 * easy_walk(values, cands): Sudoku Explainer 1.2.1's rating loop over its
 * rules below 4.0 (grader/serate/easy.py).
 * chain_step(values, cands, first, last): the easiest hint of the first
 * dynamic chaining level (0-5) that has one (grader/serate/tiers.py).
 * hints(values, cands, kind, level, pivots): every hint of one search, sorted
 * as Sudoku Explainer sorts them (for the tests against the Python twin).
 *
 * Every piece is a port of its Python twin (the modules of grader/serate) with the same
 * scan orders, so both find the same hints in the same order; docs/se-scale.md
 * says where the rules come from.  Sets of cells are 128-bit masks, a chain's
 * nodes live in arenas (one per nesting depth) and refer to their parents by
 * index.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 cm_t;

#define NC 81
#define NR 27
#define NID (NC * 9 * 2)
#define MAXDEPTH 4

enum { BLOCK = 0, ROW = 1, COLUMN = 2 };
enum { ASSUMED = 0, NAKED = 1, HIDDEN_BLOCK = 2, HIDDEN_ROW = 3, HIDDEN_COLUMN = 4, ADVANCED = 5 };
enum { SH_SINGLE, SH_LOCKING, SH_HIDDEN, SH_NAKED };
enum { HS_CONTRADICTION, HS_DOUBLE, HS_CELL, HS_REGION, HS_FORCING, HS_CYCLE };
enum { SK_DOUBLE = 1, SK_X, SK_Y, SK_XY, SK_CELL, SK_REGION, SK_CONTRADICTION };

static int REG[NR][9];       /* cells of a region, in order */
static int CR[NC][3];        /* block, row, column of a cell */
static int CI[NC][3];        /* index of the cell inside those */
static cm_t RMASK[NR];
static int HOUSE[NC][20];
static uint8_t HKIND[NC][20];  /* the kind (block, row, column) of the region that first holds it */
static uint16_t INMASK[NR][NR]; /* indexes of r1's cells lying in r2 */
static int CROSS[NR][NR];
static int COMB[5][128][4], NCOMB[5];
static uint16_t COMBM[5][128];
static int ready = 0;

static inline cm_t B(int c) { return (cm_t)1 << c; }
static inline int pc16(unsigned m) { return __builtin_popcount(m); }
static inline int low16(unsigned m) { return __builtin_ctz(m); }

static void init_geo(void) {
    if (ready) return;
    for (int b = 0; b < 9; b++)
        for (int i = 0; i < 9; i++) REG[b][i] = (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3;
    for (int r = 0; r < 9; r++)
        for (int i = 0; i < 9; i++) { REG[9 + r][i] = r * 9 + i; REG[18 + r][i] = i * 9 + r; }
    for (int r = 0; r < NR; r++) {
        RMASK[r] = 0;
        for (int i = 0; i < 9; i++) {
            int c = REG[r][i], k = r / 9;
            RMASK[r] |= B(c);
            CR[c][k] = r;
            CI[c][k] = i;
        }
    }
    for (int c = 0; c < NC; c++) {
        int n = 0;
        cm_t seen = B(c);
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 9; i++) {
                int x = REG[CR[c][k]][i];
                if (!(seen & B(x))) { seen |= B(x); HKIND[c][n] = (uint8_t)k; HOUSE[c][n++] = x; }
            }
    }
    for (int a = 0; a < NR; a++)
        for (int b = 0; b < NR; b++) {
            uint16_t m = 0;
            for (int i = 0; i < 9; i++)
                if (RMASK[b] & B(REG[a][i])) m |= (uint16_t)(1 << i);
            INMASK[a][b] = m;
            CROSS[a][b] = m != 0;
        }
    for (int k = 1; k <= 4; k++) {
        NCOMB[k] = 0;
        for (int m = 0; m < 512; m++) {
            if (pc16((unsigned)m) != k) continue;
            int j = 0;
            for (int i = 0; i < 9; i++)
                if (m >> i & 1) COMB[k][NCOMB[k]][j++] = i;
            COMBM[k][NCOMB[k]++] = (uint16_t)m;
        }
    }
    ready = 1;
}

/* ------------------------------------------------------------------ grids */

typedef struct {
    uint16_t cands[NC];
    uint16_t rp[NR][9];  /* positions of digit d in region r (bit i: REG[r][i]) */
    uint16_t hs[NR];     /* digits with one place in region r */
} G;

typedef struct {         /* what chains never change: the placed values */
    uint8_t values[NC];
    int ecount[NR];
    int placed[10];
} Real;

static void g_build(G *g, const uint16_t *cands) {
    memcpy(g->cands, cands, sizeof g->cands);
    memset(g->rp, 0, sizeof g->rp);
    for (int c = 0; c < NC; c++)
        for (unsigned m = cands[c]; m; m &= m - 1) {
            int d = low16(m);
            for (int k = 0; k < 3; k++) g->rp[CR[c][k]][d] |= (uint16_t)(1 << CI[c][k]);
        }
    for (int r = 0; r < NR; r++) {
        g->hs[r] = 0;
        for (int d = 0; d < 9; d++)
            if (pc16(g->rp[r][d]) == 1) g->hs[r] |= (uint16_t)(1 << d);
    }
}

static void real_build(Real *R, const uint8_t *values) {
    memcpy(R->values, values, NC);
    memset(R->placed, 0, sizeof R->placed);
    for (int c = 0; c < NC; c++) R->placed[values[c]]++;
    for (int r = 0; r < NR; r++) {
        R->ecount[r] = 0;
        for (int i = 0; i < 9; i++) R->ecount[r] += !values[REG[r][i]];
    }
}

static inline void g_remove(G *g, int c, int d) {
    g->cands[c] &= (uint16_t)~(1 << d);
    for (int k = 0; k < 3; k++) {
        int r = CR[c][k];
        unsigned pos = g->rp[r][d] & ~(1u << CI[c][k]);
        g->rp[r][d] = (uint16_t)pos;
        if (pc16(pos) == 1) g->hs[r] |= (uint16_t)(1 << d);
        else g->hs[r] &= (uint16_t)~(1 << d);
    }
}

static void g_place(G *g, Real *R, int c, int d) {
    for (unsigned m = g->cands[c]; m; m &= m - 1) g_remove(g, c, low16(m));
    R->values[c] = (uint8_t)(d + 1);
    R->placed[d + 1]++;
    R->placed[0]--; /* the open cells */
    for (int k = 0; k < 3; k++) R->ecount[CR[c][k]]--;
    for (int i = 0; i < 20; i++) {
        int x = HOUSE[c][i];
        if (g->cands[x] >> d & 1) g_remove(g, x, d);
    }
}

/* ------------------------------------------------------------- easy rules */

#define MAXREM 40
typedef struct {
    int8_t name, tenths, shape, nreg;
    int8_t reg[8];
    int8_t value;        /* 0..8 */
    uint16_t vmask;      /* set values */
    int8_t ncells;
    int8_t cells[4];
    int8_t nrem;
    int8_t rem_cell[MAXREM];
    uint16_t rem_mask[MAXREM];
    int8_t pcell, pval;  /* placement, -1 when none */
} RH;

typedef struct { RH *h; int n, cap, first_only; } RHList;

enum {
    E_FULL, E_HS_BLOCK, E_HS_LINE, E_DPOINT, E_DCLAIM, E_DHPAIR, E_NSINGLE, E_DHTRIPLE, E_POINT,
    E_CLAIM, E_NPAIR, E_XWING, E_HPAIR, E_NTRIPLE, E_SWORD, E_HTRIPLE
};
static const int E_TENTHS[] = {10, 12, 15, 17, 19, 20, 23, 25, 26, 28, 30, 32, 34, 36, 38, 40};

static RH *rh_new(RHList *L) {
    if (L->n == L->cap) {
        int cap = L->cap ? L->cap * 2 : 64;
        RH *h = realloc(L->h, (size_t)cap * sizeof(RH));
        if (!h) return NULL;
        L->h = h;
        L->cap = cap;
    }
    RH *h = &L->h[L->n];
    memset(h, 0, sizeof *h);
    h->pcell = h->pval = -1;
    return h;
}

static void rh_set_rem(RH *h, const uint16_t *rem) { /* rem[81]: masks, emitted in cell order */
    h->nrem = 0;
    for (int c = 0; c < NC; c++)
        if (rem[c] && h->nrem < MAXREM) {
            h->rem_cell[h->nrem] = (int8_t)c;
            h->rem_mask[h->nrem++] = rem[c];
        }
}

/* returns 1 when the list wants no more hints */
static int rh_push(RHList *L, int name, int shape, const uint16_t *rem, int pcell, int pval) {
    RH *h = rh_new(L);
    if (!h) return 1;
    h->name = (int8_t)name;
    h->tenths = (int8_t)E_TENTHS[name];
    h->shape = (int8_t)shape;
    if (rem) rh_set_rem(h, rem);
    h->pcell = (int8_t)pcell;
    h->pval = (int8_t)pval;
    L->n++;
    return L->first_only;
}

static int hidden_singles(const G *g, const Real *R, RHList *L) {
    static const int kinds[3] = {BLOCK, COLUMN, ROW};
    for (int alone = 1; alone >= 0; alone--)
        for (int ki = 0; ki < 3; ki++)
            for (int r = kinds[ki] * 9; r < kinds[ki] * 9 + 9; r++) {
                if ((R->ecount[r] == 1) != alone || !g->hs[r]) continue;
                for (unsigned m = g->hs[r]; m; m &= m - 1) {
                    int d = low16(m);
                    unsigned pos = g->rp[r][d];
                    int name = alone ? E_FULL : kinds[ki] == BLOCK ? E_HS_BLOCK : E_HS_LINE;
                    if (rh_push(L, name, SH_SINGLE, NULL, REG[r][low16(pos)], d)) return 1;
                    L->h[L->n - 1].reg[0] = (int8_t)r;
                    L->h[L->n - 1].nreg = 1;
                }
            }
    return 0;
}

static int naked_singles(const G *g, const Real *R, RHList *L) {
    (void)R;
    for (int c = 0; c < NC; c++) {
        unsigned m = g->cands[c];
        if (m && !(m & (m - 1)))
            if (rh_push(L, E_NSINGLE, SH_SINGLE, NULL, c, low16(m))) return 1;
    }
    return 0;
}

static const int LOCK_KINDS[4][2] = {{BLOCK, COLUMN}, {BLOCK, ROW}, {COLUMN, BLOCK}, {ROW, BLOCK}};

static int locking_hint(const G *g, RHList *L, int r1, int r2, int d, int hcell) {
    uint16_t rem[NC] = {0};
    unsigned m = g->rp[r2][d] & ~INMASK[r2][r1];
    if (!m) return 0;
    for (; m; m &= m - 1) rem[REG[r2][low16(m)]] = (uint16_t)(1 << d);
    int pointing = r1 / 9 == BLOCK;
    int name = hcell >= 0 ? (pointing ? E_DPOINT : E_DCLAIM) : (pointing ? E_POINT : E_CLAIM);
    int stop = rh_push(L, name, SH_LOCKING, rem, hcell, hcell >= 0 ? d : -1);
    RH *h = &L->h[L->n - 1];
    h->nreg = 2;
    h->reg[0] = (int8_t)r1;
    h->reg[1] = (int8_t)r2;
    h->value = (int8_t)d;
    return stop;
}

static int locking(const G *g, const Real *R, RHList *L, int direct) {
    (void)R;
    for (int kk = 0; kk < 4; kk++) {
        int k1 = LOCK_KINDS[kk][0], k2 = LOCK_KINDS[kk][1];
        for (int r1 = k1 * 9; r1 < k1 * 9 + 9; r1++) {
            int target[9]; /* the region of kind k2 holding every place of d, if any */
            unsigned any = 0;
            for (int d = 0; d < 9; d++) {
                unsigned pos = g->rp[r1][d];
                target[d] = -1;
                if (pc16(pos) <= 1) continue;
                int r2 = CR[REG[r1][low16(pos)]][k2];
                if (!(pos & ~INMASK[r1][r2])) { target[d] = r2; any = 1; }
            }
            if (!any) continue;
            for (int r2 = k2 * 9; r2 < k2 * 9 + 9; r2++) {
                if (!CROSS[r1][r2]) continue;
                for (int d = 0; d < 9; d++) {
                    if (target[d] != r2) continue;
                    if (!direct) {
                        if (locking_hint(g, L, r1, r2, d, -1)) return 1;
                        continue;
                    }
                    for (int r3 = k1 * 9; r3 < k1 * 9 + 9; r3++) {
                        if (r3 == r1 || !CROSS[r3][r2]) continue;
                        unsigned p3 = g->rp[r3][d];
                        if (pc16(p3) <= 1) continue;
                        unsigned out = p3 & ~INMASK[r3][r2];
                        if (pc16(out) == 1 && locking_hint(g, L, r1, r2, d, REG[r3][low16(out)]))
                            return 1;
                    }
                }
            }
        }
    }
    return 0;
}

static unsigned common_tuple(const unsigned *sets, int k) {
    unsigned u = 0;
    for (int i = 0; i < k; i++) {
        if (pc16(sets[i]) <= 1) return 0;
        u |= sets[i];
    }
    return pc16(u) == k ? u : 0;
}

static const int SUBSET_KINDS[3] = {BLOCK, COLUMN, ROW};

static int hidden_sets(const G *g, const Real *R, RHList *L, int k, int direct) {
    for (int ki = 0; ki < 3; ki++)
        for (int r = SUBSET_KINDS[ki] * 9; r < SUBSET_KINDS[ki] * 9 + 9; r++) {
            int empty = R->ecount[r];
            if (!(empty > 2 * k || (direct && empty > k))) continue;
            unsigned allowed = 0; /* values with 2 to k places: the only ones a set can hold */
            for (int d = 0; d < 9; d++) {
                int n = pc16(g->rp[r][d]);
                if (n >= 2 && n <= k) allowed |= 1u << d;
            }
            if (pc16(allowed) < k) continue;
            for (int ci = 0; ci < NCOMB[k]; ci++) {
                if (COMBM[k][ci] & ~allowed) continue;
                unsigned sets[4];
                for (int j = 0; j < k; j++) sets[j] = g->rp[r][COMB[k][ci][j]];
                unsigned common = common_tuple(sets, k);
                if (!common) continue;
                unsigned vmask = COMBM[k][ci];
                uint16_t rem[NC] = {0};
                int any = 0;
                for (unsigned m = common; m; m &= m - 1) {
                    int c = REG[r][low16(m)];
                    unsigned o = g->cands[c] & ~vmask;
                    if (o) { rem[c] = (uint16_t)o; any = 1; }
                }
                int pcell = -1, pval = -1;
                if (direct) {
                    for (int w = 0; w < 9 && pcell < 0; w++) {
                        if (vmask >> w & 1) continue;
                        unsigned pos = g->rp[r][w];
                        if (pc16(pos) > 1 && pc16(pos & ~common) == 1) {
                            pcell = REG[r][low16(pos & ~common)];
                            pval = w;
                        }
                    }
                    if (pcell < 0) continue;
                } else if (!any) continue;
                int name = direct ? (k == 2 ? E_DHPAIR : E_DHTRIPLE) : (k == 2 ? E_HPAIR : E_HTRIPLE);
                int stop = rh_push(L, name, SH_HIDDEN, rem, pcell, pval);
                RH *h = &L->h[L->n - 1];
                h->nreg = 1;
                h->reg[0] = (int8_t)r;
                h->vmask = (uint16_t)vmask;
                if (stop) return 1;
            }
        }
    return 0;
}

static int naked_sets(const G *g, const Real *R, RHList *L, int k) {
    for (int ki = 0; ki < 3; ki++)
        for (int r = SUBSET_KINDS[ki] * 9; r < SUBSET_KINDS[ki] * 9 + 9; r++) {
            if (R->ecount[r] < 2 * k) continue;
            unsigned allowed = 0; /* cells with 2 to k candidates */
            for (int i = 0; i < 9; i++) {
                int n = pc16(g->cands[REG[r][i]]);
                if (n >= 2 && n <= k) allowed |= 1u << i;
            }
            if (pc16(allowed) < k) continue;
            for (int ci = 0; ci < NCOMB[k]; ci++) {
                if (COMBM[k][ci] & ~allowed) continue;
                unsigned sets[4];
                for (int j = 0; j < k; j++) sets[j] = g->cands[REG[r][COMB[k][ci][j]]];
                unsigned common = common_tuple(sets, k);
                if (!common) continue;
                uint16_t rem[NC] = {0};
                int any = 0;
                for (int i = 0; i < 9; i++) {
                    if (COMBM[k][ci] >> i & 1) continue;
                    int c = REG[r][i];
                    if (g->cands[c] & common) { rem[c] = (uint16_t)(g->cands[c] & common); any = 1; }
                }
                if (!any) continue;
                int stop = rh_push(L, k == 2 ? E_NPAIR : E_NTRIPLE, SH_NAKED, rem, -1, -1);
                RH *h = &L->h[L->n - 1];
                h->nreg = 1;
                h->reg[0] = (int8_t)r;
                h->vmask = (uint16_t)common;
                h->ncells = (int8_t)k;
                for (int j = 0; j < k; j++) h->cells[j] = (int8_t)REG[r][COMB[k][ci][j]];
                if (stop) return 1;
            }
        }
    return 0;
}

static int fish(const G *g, const Real *R, RHList *L, int k) {
    static const int kinds[2][2] = {{COLUMN, ROW}, {ROW, COLUMN}};
    for (int kk = 0; kk < 2; kk++) {
        int bk = kinds[kk][0], ck = kinds[kk][1];
        for (int ci = 0; ci < NCOMB[k]; ci++) {
            unsigned bmask = COMBM[k][ci];
            for (int d = 0; d < 9; d++) {
                if (R->placed[d + 1] + 2 * k > 9) continue;
                int fits = 1;
                for (int j = 0; j < k && fits; j++) {
                    int n = pc16(g->rp[bk * 9 + COMB[k][ci][j]][d]);
                    fits = n >= 2 && n <= k;
                }
                if (!fits) continue;
                unsigned sets[4];
                for (int j = 0; j < k; j++) sets[j] = g->rp[bk * 9 + COMB[k][ci][j]][d];
                unsigned common = common_tuple(sets, k);
                if (!common) continue;
                uint16_t rem[NC] = {0};
                int any = 0;
                for (unsigned m = common; m; m &= m - 1) {
                    int cover = ck * 9 + low16(m);
                    for (unsigned p = g->rp[cover][d] & ~bmask; p; p &= p - 1) {
                        rem[REG[cover][low16(p)]] = (uint16_t)(1 << d);
                        any = 1;
                    }
                }
                if (!any) continue;
                int stop = rh_push(L, k == 2 ? E_XWING : E_SWORD, SH_LOCKING, rem, -1, -1);
                RH *h = &L->h[L->n - 1];
                h->value = (int8_t)d;
                h->nreg = 0;
                unsigned cm = common;
                for (int j = 0; j < k; j++) {
                    h->reg[h->nreg++] = (int8_t)(bk * 9 + COMB[k][ci][j]);
                    h->reg[h->nreg++] = (int8_t)(ck * 9 + low16(cm));
                    cm &= cm - 1;
                }
                if (stop) return 1;
            }
        }
    }
    return 0;
}

/* the rule parents of a hint below the chains: (cell, digit) pairs */
static int rh_parents(const RH *h, const G *init, const G *cur, int *out) {
    int n = 0;
    if (h->shape == SH_LOCKING) {
        int d = h->value;
        cm_t cover = 0;
        for (int i = 1; i < h->nreg; i += 2) cover |= RMASK[h->reg[i]];
        for (int i = 0; i < h->nreg; i += 2)
            for (int j = 0; j < 9; j++) {
                int c = REG[h->reg[i]][j];
                if ((init->cands[c] >> d & 1) && !(cur->cands[c] >> d & 1) && !(cover & B(c)))
                    out[n++] = c * 9 + d;
            }
    } else if (h->shape == SH_HIDDEN) {
        int r = h->reg[0];
        unsigned mine = 0;
        for (int d = 0; d < 9; d++)
            if (h->vmask >> d & 1) mine |= cur->rp[r][d];
        for (int i = 0; i < 9; i++) {
            if (mine >> i & 1) continue;
            int c = REG[r][i];
            for (int d = 0; d < 9; d++)
                if ((h->vmask >> d & 1) && (init->cands[c] >> d & 1)) out[n++] = c * 9 + d;
        }
    } else if (h->shape == SH_NAKED) {
        for (int j = 0; j < h->ncells; j++) {
            int c = h->cells[j];
            for (int d = 0; d < 9; d++)
                if ((init->cands[c] >> d & 1) && !(h->vmask >> d & 1)) out[n++] = c * 9 + d;
        }
    }
    return n;
}

typedef int (*Producer)(const G *, const Real *, RHList *);
static int p_dlock(const G *g, const Real *R, RHList *L) { return locking(g, R, L, 1); }
static int p_dhp(const G *g, const Real *R, RHList *L) { return hidden_sets(g, R, L, 2, 1); }
static int p_dht(const G *g, const Real *R, RHList *L) { return hidden_sets(g, R, L, 3, 1); }
static int p_lock(const G *g, const Real *R, RHList *L) { return locking(g, R, L, 0); }
static int p_np(const G *g, const Real *R, RHList *L) { return naked_sets(g, R, L, 2); }
static int p_xw(const G *g, const Real *R, RHList *L) { return fish(g, R, L, 2); }
static int p_hp(const G *g, const Real *R, RHList *L) { return hidden_sets(g, R, L, 2, 0); }
static int p_nt(const G *g, const Real *R, RHList *L) { return naked_sets(g, R, L, 3); }
static int p_sw(const G *g, const Real *R, RHList *L) { return fish(g, R, L, 3); }
static int p_ht(const G *g, const Real *R, RHList *L) { return hidden_sets(g, R, L, 3, 0); }

static const Producer PRODUCERS[] = {hidden_singles, p_dlock, p_dhp, naked_singles, p_dht, p_lock,
                                     p_np, p_xw, p_hp, p_nt, p_sw, p_ht};
#define NPRODUCERS ((int)(sizeof PRODUCERS / sizeof PRODUCERS[0]))
/* the helpers of the nested chains (level >= 1): pointing/claiming, hidden pair, naked pair, X-Wing */
static const Producer HELPERS[] = {p_lock, p_hp, p_np, p_xw};

static void rh_apply(G *g, Real *R, const RH *h) {
    for (int i = 0; i < h->nrem; i++)
        for (unsigned m = h->rem_mask[i] & g->cands[h->rem_cell[i]]; m; m &= m - 1)
            g_remove(g, h->rem_cell[i], low16(m));
    if (h->pcell >= 0 && !R->values[h->pcell]) g_place(g, R, h->pcell, h->pval);
}

/* the rating loop below 4.0: returns steps; *top, *name: the largest step */
/* ... and its diamond (the first step, tenths; 0: none) and pearl (the
 * largest step up to the first that places a value; 0: none placed) */
static int easy_loop(G *g, Real *R, int *top, int *name, int *diamond, int *pearl) {
    RHList L = {NULL, 0, 0, 1};
    int steps = 0;
    *top = 0;
    *name = -1;
    *diamond = *pearl = 0;
    while (R->placed[0] > 0) {
        L.n = 0;
        for (int p = 0; p < NPRODUCERS && !L.n; p++) PRODUCERS[p](g, R, &L);
        if (!L.n) break;
        RH *h = &L.h[0];
        if (h->tenths > *top) { *top = h->tenths; *name = h->name; }
        if (!steps) *diamond = *top;
        if (!*pearl && h->pcell >= 0) *pearl = *top;
        rh_apply(g, R, h);
        steps++;
    }
    free(L.h);
    return steps;
}

/* ------------------------------------------------------------ chain nodes */

typedef struct {
    int32_t par;     /* first parent in the pool */
    uint16_t npar;
    uint16_t id;     /* (cell * 9 + digit) * 2 + on */
    uint8_t cause;
    int32_t nested;  /* a Nest of this depth, -1 none */
} Rec;

typedef struct {
    int32_t rec0, nrec;        /* its nodes (a contradiction's new node follows them) */
    int32_t conf_on, conf_off; /* the contradiction, -1 when none */
    uint64_t mem[(NID + 63) / 64];
} Prop;

typedef struct { int complexity; uint64_t sig; } Nest;

typedef struct {
    uint8_t shape, sortkey;
    int8_t region, pcell, pval;
    int nt;
    int32_t t[9];        /* targets (recs) */
    double base, difficulty;
    int flat, complexity, disc;
    int rem0, nrem;      /* removables: (cell, mask) in the pool */
    int use0, nuse;      /* uses (see hr_uses), when computed */
    uint64_t sig;
} HR;

#define GROW(ptr, n, cap, need)                                                   \
    do {                                                                          \
        if ((n) + (need) > (cap)) {                                               \
            int nc_ = (cap) ? (cap) : 256;                                        \
            while (nc_ < (n) + (need)) nc_ *= 2;                                  \
            void *p_ = realloc((ptr), (size_t)nc_ * sizeof(*(ptr)));              \
            if (!p_) { fprintf(stderr, "_serate: out of memory\n"); abort(); }   \
            (ptr) = p_;                                                           \
            (cap) = nc_;                                                          \
        }                                                                         \
    } while (0)

typedef struct {
    Rec *recs; int nrecs, caprecs;
    int32_t *pars; int npars, cappars;
    Prop *props; int nprops, capprops;
    Nest *nests; int nnests, capnests;
    HR *hrs; int nhrs, caphrs;
    int32_t *remc; uint16_t *remm; int nrem, caprem, capremm;
    int32_t *uses; int nuses, capuses;
    int32_t memo[NC * 9];
    int32_t sidx[NID];
    uint32_t sgen[NID], gen;
    /* the node list a stall's helpers give */
    int32_t *tid, *tnest, *tpar0, *tnpar; int nt, capt, capt2, capt3, capt4;
    int32_t *tpars; int ntpars, captpars;
    G g, src;
    const Real *R;
    int dynamic, level, nishio;
    double base;
    int all_pivots;
    cm_t pivots;
} Ctx;

static Ctx *CTX[MAXDEPTH];

/* counters since the module was loaded (see stats()) */
static long long ST_PROPS, ST_SEARCHES[8], ST_HITS[8], ST_STALLS;

static Ctx *ctx_at(int depth) {
    if (!CTX[depth]) {
        CTX[depth] = calloc(1, sizeof(Ctx));
        if (!CTX[depth]) abort();
    }
    return CTX[depth];
}

static void ctx_reset(Ctx *X) {
    X->nrecs = X->npars = X->nprops = X->nnests = X->nhrs = X->nrem = X->nuses = 0;
    for (int i = 0; i < NC * 9; i++) X->memo[i] = -1;
}

static inline int32_t look(const Ctx *X, int id) { return X->sgen[id] == X->gen ? X->sidx[id] : -1; }

static int add_rec(Ctx *X, int id, int cause, const int32_t *pars, int npar, int nested, int index) {
    GROW(X->recs, X->nrecs, X->caprecs, 1);
    GROW(X->pars, X->npars, X->cappars, npar);
    Rec *r = &X->recs[X->nrecs];
    r->id = (uint16_t)id;
    r->cause = (uint8_t)cause;
    r->par = X->npars;
    r->npar = (uint16_t)npar;
    r->nested = nested;
    memcpy(X->pars + X->npars, pars, (size_t)npar * sizeof(int32_t));
    X->npars += npar;
    if (index) { X->sgen[id] = X->gen; X->sidx[id] = X->nrecs; }
    return X->nrecs++;
}

/* ---------------------------------------------------- helper hint cache */

typedef struct {
    int complexity, sortkey;
    double difficulty;
    uint64_t sig;
    int rem0, nrem, use0, nuse;
} HH;

typedef struct { uint64_t h; int kind, hh0, nhh, used; uint16_t cands[NC]; } CacheEntry;

#define CACHE_SIZE 8192
static CacheEntry *CACHE;
static int CACHE_N;
static HH *HHS; static int NHH, CAPHH;
static int32_t *HREMC; static uint16_t *HREMM; static int NHREM, CAPHREMC, CAPHREMM;
static int32_t *HUSES; static int NHUSES, CAPHUSES;

static void cache_clear(void) {
    if (CACHE) memset(CACHE, 0, CACHE_SIZE * sizeof(CacheEntry));
    CACHE_N = NHH = NHREM = NHUSES = 0;
}

static uint64_t grid_hash(const uint16_t *cands, int kind) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)kind;
    for (int c = 0; c < NC; c++) h = (h ^ cands[c]) * 1099511628211ULL;
    return h;
}

static CacheEntry *cache_find(const uint16_t *cands, int kind, uint64_t h) {
    if (!CACHE) {
        CACHE = calloc(CACHE_SIZE, sizeof(CacheEntry));
        if (!CACHE) abort();
    }
    for (int i = 0; i < CACHE_SIZE; i++) {
        CacheEntry *e = &CACHE[(h + (uint64_t)i) & (CACHE_SIZE - 1)];
        if (!e->used) return e;
        if (e->h == h && e->kind == kind && !memcmp(e->cands, cands, sizeof e->cands)) return e;
    }
    return NULL;
}

/* ------------------------------------------------------------ complexity */

static uint32_t *ASTAMP; static uint32_t AGEN;
static int32_t *ASTACK; static int ASCAP;

static void stamp_init(int n) {
    if (!ASTAMP) { ASTAMP = calloc(NID * 6, sizeof(uint32_t)); if (!ASTAMP) abort(); }
    if (ASCAP < n) {
        ASCAP = n * 2;
        ASTACK = realloc(ASTACK, (size_t)ASCAP * sizeof(int32_t));
        if (!ASTACK) abort();
    }
    if (++AGEN == 0) { memset(ASTAMP, 0, NID * 6 * sizeof(uint32_t)); AGEN = 1; }
}

/* distinct potentials reachable from t, t included */
/* The distinct nested chains met on a walk, and the sum of their complexities. */
typedef struct {
    uint64_t seen[64];
    int nseen, total;
} NestSum;

/* Walk record t and every record it descends from, each once (a stack,
   parents in order); add the nested chains met to sum when it is not NULL.
   Returns how many records were walked. */
static int walk_ancestors(const Ctx *X, int t, NestSum *sum) {
    stamp_init(X->nrecs + 2);
    int n = 0, sp = 0;
    ASTAMP[X->recs[t].id] = AGEN;
    ASTACK[sp++] = t;
    while (sp) {
        const Rec *r = &X->recs[ASTACK[--sp]];
        n++;
        if (sum && r->nested >= 0) {
            const Nest *ne = &X->nests[r->nested];
            int dup = 0;
            for (int i = 0; i < sum->nseen && !dup; i++) dup = sum->seen[i] == ne->sig;
            if (!dup) {
                if (sum->nseen < 64) sum->seen[sum->nseen++] = ne->sig;
                sum->total += ne->complexity;
            }
        }
        for (int i = 0; i < r->npar; i++) {
            int q = X->pars[r->par + i];
            if (ASTAMP[X->recs[q].id] != AGEN) {
                ASTAMP[X->recs[q].id] = AGEN;
                GROW(ASTACK, sp, ASCAP, 1);
                ASTACK[sp++] = q;
            }
        }
    }
    return n;
}

static int anc_count(const Ctx *X, int t) { return walk_ancestors(X, t, NULL); }

static int nested_complexity(const Ctx *X, const HR *h) {
    NestSum sum;
    sum.nseen = sum.total = 0;
    for (int ti = 0; ti < h->nt; ti++) walk_ancestors(X, h->t[ti], &sum);
    return sum.total;
}

static double length_added(int complexity) {
    double added = 0.0;
    int ceil = 4, odd = 0, length = complexity - 2;
    while (length > ceil) {
        added += 0.1;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

static int tenths_of(double d) { return (int)((d + 0.05) * 10); }

/* FullChain identity: the targets' breadth-first ancestor lists, hashed */
static uint64_t hr_signature(const Ctx *X, const HR *h) {
    uint64_t hash = 1469598103934665603ULL;
    for (int ti = 0; ti < h->nt; ti++) {
        stamp_init(X->nrecs + 2);
        int head = 0, tail = 0;
        GROW(ASTACK, tail, ASCAP, 1);
        ASTACK[tail++] = h->t[ti];
        while (head < tail) {
            const Rec *r = &X->recs[ASTACK[head++]];
            if (ASTAMP[r->id] == AGEN) continue;
            ASTAMP[r->id] = AGEN;
            hash = (hash ^ r->id) * 1099511628211ULL;
            GROW(ASTACK, tail, ASCAP, r->npar);
            for (int i = 0; i < r->npar; i++) ASTACK[tail++] = X->pars[r->par + i];
        }
        hash = (hash ^ 0xFFFFu) * 1099511628211ULL;
    }
    return hash;
}

/* the singles a hint's chains rest on: (cause, cell, digit), first seen first */
static void hr_uses(Ctx *X, HR *h) {
    static uint32_t useen[6 * 729], ugen;
    h->use0 = X->nuses;
    h->nuse = 0;
    if (++ugen == 0) { memset(useen, 0, sizeof useen); ugen = 1; }
    for (int ti = 0; ti < h->nt; ti++) {
        stamp_init(X->nrecs + 2);
        int head = 0, tail = 0;
        ASTACK[tail++] = h->t[ti];
        while (head < tail) {
            const Rec *r = &X->recs[ASTACK[head++]];
            if (ASTAMP[r->id] == AGEN) continue;
            ASTAMP[r->id] = AGEN;
            if (r->id & 1) {
                int cause = r->cause;
                if (cause == ASSUMED)
                    cause = h->shape == HS_CELL ? NAKED
                          : h->shape == HS_REGION ? HIDDEN_BLOCK + h->region / 9 : ASSUMED;
                if (cause != ASSUMED) {
                    int u = cause * 729 + (r->id >> 1);
                    if (useen[u] != ugen) {
                        useen[u] = ugen;
                        GROW(X->uses, X->nuses, X->capuses, 1);
                        X->uses[X->nuses++] = u;
                        h->nuse++;
                    }
                }
            }
            GROW(ASTACK, tail, ASCAP, r->npar);
            for (int i = 0; i < r->npar; i++) ASTACK[tail++] = X->pars[r->par + i];
        }
    }
}

/* ----------------------------------------------------------- propagation */

static int prop_conflict(Ctx *X, Prop *P, int id, int cause, const int32_t *pars, int npar,
                         int stored, int new_is_on) {
    int t = add_rec(X, id, cause, pars, npar, -1, 0);
    if (new_is_on) { P->conf_on = t; P->conf_off = stored; }
    else { P->conf_on = stored; P->conf_off = t; }
    return 1;
}

/* what the node p (on) turns off: the cell's other values, the value in the
 * block, row, column */
static int on_step(Ctx *X, Prop *P, int p) {
    int id = X->recs[p].id, cd = id >> 1, c = cd / 9, d = cd % 9;
    const G *g = &X->g;
    int32_t par = p;
    /* Nishio chains use no links inside a cell */
    for (unsigned m = X->nishio ? 0 : g->cands[c] & ~(1u << d); m; m &= m - 1) {
        int q = (c * 9 + low16(m)) * 2;
        int on = look(X, q | 1);
        if (on >= 0) return prop_conflict(X, P, q, NAKED, &par, 1, on, 0);
        if (look(X, q) < 0) add_rec(X, q, NAKED, &par, 1, -1, 1);
    }
    unsigned bit = 1u << d;
    for (int i = 0; i < 20; i++) {
        int x = HOUSE[c][i];
        if (!(g->cands[x] & bit)) continue;
        int q = (x * 9 + d) * 2, k = HKIND[c][i];
        int on = look(X, q | 1);
        if (on >= 0) return prop_conflict(X, P, q, HIDDEN_BLOCK + k, &par, 1, on, 0);
        if (look(X, q) < 0) add_rec(X, q, HIDDEN_BLOCK + k, &par, 1, -1, 1);
    }
    return 0;
}

/* What the node (c, d) off turns on in g: the other value of c when it is
 * bivalue (y), the other place of d in each region of c where d has two (x),
 * each once; their ids (on nodes) and causes; returns how many (4 at most). */
static int off_to_on(const G *g, int c, int d, int y, int x, int *ids, int *causes) {
    int n = 0;
    unsigned m = g->cands[c];
    if (y && pc16(m) == 2) {
        ids[n] = (c * 9 + low16(m & ~(1u << d))) * 2 + 1;
        causes[n++] = NAKED;
    }
    if (x)
        for (int k = 0; k < 3; k++) {
            int r = CR[c][k];
            unsigned pos = g->rp[r][d];
            if (pc16(pos) != 2) continue;
            int i = low16(pos);
            if (REG[r][i] == c) i = low16(pos & ~(1u << i));
            int q = (REG[r][i] * 9 + d) * 2 + 1, dup = 0;
            for (int j = 0; j < n; j++) dup |= ids[j] == q;
            if (dup) continue;
            ids[n] = q;
            causes[n++] = HIDDEN_BLOCK + k;
        }
    return n;
}

/* what the node p (off, still a candidate) turns on: the other value of a
 * bivalue cell, the other place of a value with two places in a region; the
 * removals from the search grid that the cell or region shows are hidden
 * parents.  A dynamic chain then removes p. */
static int off_step(Ctx *X, Prop *P, int p) {
    int id = X->recs[p].id, cd = id >> 1, c = cd / 9, d = cd % 9;
    G *g = &X->g;
    const G *s = &X->src;
    int qs[4], causes[4];
    int32_t pars[4][10];
    int npars[4];
    int nq = off_to_on(g, c, d, !X->nishio, 1, qs, causes); /* Nishio: no links inside a cell */
    for (int j = 0; j < nq; j++) {
        pars[j][0] = p;
        npars[j] = 1;
        if (causes[j] == NAKED) {
            for (unsigned h = s->cands[c] & ~g->cands[c]; h; h &= h - 1) {
                int32_t q = look(X, (c * 9 + low16(h)) * 2);
                if (q >= 0) pars[j][npars[j]++] = q;
            }
        } else {
            int r = CR[c][causes[j] - HIDDEN_BLOCK];
            for (unsigned h = s->rp[r][d] & ~g->rp[r][d]; h; h &= h - 1) {
                int32_t o = look(X, (REG[r][low16(h)] * 9 + d) * 2);
                if (o >= 0) pars[j][npars[j]++] = o;
            }
        }
    }
    if (X->dynamic) g_remove(g, c, d);
    for (int j = 0; j < nq; j++) {
        int off = look(X, qs[j] & ~1);
        if (off >= 0) return prop_conflict(X, P, qs[j], causes[j], pars[j], npars[j], off, 1);
        if (look(X, qs[j]) < 0) add_rec(X, qs[j], causes[j], pars[j], npars[j], -1, 1);
    }
    return 0;
}

static int stall(Ctx *X, int depth);

/* Chaining.doChaining from one assumption; the prop's index */
static int prop_run(Ctx *X, int depth, int id) {
    GROW(X->props, X->nprops, X->capprops, 1);
    int pi = X->nprops++;
    ST_PROPS++;
    Prop *P = &X->props[pi];
    if (++X->gen == 0) { memset(X->sgen, 0, sizeof X->sgen); X->gen = 1; }
    P->rec0 = X->nrecs;
    P->conf_on = P->conf_off = -1;
    add_rec(X, id, ASSUMED, NULL, 0, -1, 1);
    int con = P->rec0, coff = P->rec0, conflict = 0;
    for (;;) { /* on nodes first; the helpers when nothing is pending */
        while (con < X->nrecs && !(X->recs[con].id & 1)) con++;
        while (coff < X->nrecs && (X->recs[coff].id & 1)) coff++;
        if (con < X->nrecs) conflict = on_step(X, &X->props[pi], con++);
        else if (coff < X->nrecs) conflict = off_step(X, &X->props[pi], coff++);
        else if (X->level <= 0 || !stall(X, depth)) break;
        if (conflict) break;
    }
    P = &X->props[pi];
    P->nrec = X->nrecs - P->rec0 - (conflict ? 1 : 0);
    memset(P->mem, 0, sizeof P->mem);
    for (int i = P->rec0; i < P->rec0 + P->nrec; i++) {
        int q = X->recs[i].id;
        P->mem[q >> 6] |= 1ULL << (q & 63);
    }
    X->g = X->src;
    return pi;
}

static inline int in_prop(const Prop *P, int id) { return (int)(P->mem[id >> 6] >> (id & 63) & 1); }

static int find_rec(const Ctx *X, const Prop *P, int id) {
    for (int i = P->rec0; i < P->rec0 + P->nrec; i++)
        if (X->recs[i].id == id) return i;
    return -1;
}

static int on_branch(Ctx *X, int depth, int c, int d) {
    int k = c * 9 + d;
    if (X->memo[k] < 0) X->memo[k] = prop_run(X, depth, k * 2 + 1);
    return X->memo[k];
}

/* ------------------------------------------------------------------ hints */

static int hr_new(Ctx *X, int shape, int sortkey, double base, const int32_t *t, int nt,
                  int region) {
    GROW(X->hrs, X->nhrs, X->caphrs, 1);
    HR *h = &X->hrs[X->nhrs];
    memset(h, 0, sizeof *h);
    h->shape = (uint8_t)shape;
    h->sortkey = (uint8_t)sortkey;
    h->base = base;
    h->region = (int8_t)region;
    h->pcell = h->pval = -1;
    h->nt = nt;
    memcpy(h->t, t, (size_t)nt * sizeof(int32_t));
    h->rem0 = X->nrem;
    h->disc = X->nhrs;
    h->complexity = -1;
    return X->nhrs++;
}

static void hr_rem(Ctx *X, HR *h, int c, unsigned mask) {
    GROW(X->remc, X->nrem, X->caprem, 1);
    GROW(X->remm, X->nrem, X->capremm, 1);
    X->remc[X->nrem] = c;
    X->remm[X->nrem++] = (uint16_t)mask;
    h->nrem++;
}

/* a hint concluding the node t: its cell's other values (t on) or t */
static int removable_of(const Ctx *X, int id, int *c, unsigned *mask) {
    int cd = id >> 1, d = cd % 9;
    *c = cd / 9;
    *mask = (id & 1) ? (X->src.cands[*c] & ~(1u << d)) : (1u << d);
    return *mask != 0;
}

static void target_hint(Ctx *X, int shape, int sortkey, const int32_t *t, int nt, int region,
                        int result) {
    int c;
    unsigned mask;
    int id = X->recs[result].id;
    if (!removable_of(X, id, &c, &mask)) return;
    int hi = hr_new(X, shape, sortkey, X->base, t, nt, region);
    HR *h = &X->hrs[hi];
    hr_rem(X, h, c, mask);
    if (id & 1) { h->pcell = (int8_t)c; h->pval = (int8_t)((id >> 1) % 9); }
}

static void binary(Ctx *X, int depth, int cell, int d, int k, int pon) {
    Prop *P = &X->props[pon];
    if (P->conf_on >= 0) {
        int32_t t[2] = {P->conf_on, P->conf_off};
        int hi = hr_new(X, HS_CONTRADICTION, SK_CONTRADICTION, X->base, t, 2, -1);
        hr_rem(X, &X->hrs[hi], cell, 1u << d);
    }
    int poff = prop_run(X, depth, (cell * 9 + d) * 2);
    Prop *Q = &X->props[poff];
    P = &X->props[pon];
    if (Q->conf_on >= 0) {
        unsigned others = X->src.cands[cell] & ~(1u << d);
        if (others) {
            int32_t t[2] = {Q->conf_on, Q->conf_off};
            int hi = hr_new(X, HS_CONTRADICTION, SK_CONTRADICTION, X->base, t, 2, -1);
            HR *h = &X->hrs[hi];
            hr_rem(X, h, cell, others);
            h->pcell = (int8_t)cell;
            h->pval = (int8_t)d;
        }
    }
    if (k < 3 || X->nishio) return;
    for (int side = 1; side >= 0; side--)
        for (int i = P->rec0; i < P->rec0 + P->nrec; i++) {
            int id = X->recs[i].id;
            if ((id & 1) != side || !in_prop(Q, id)) continue;
            int32_t t[2] = {i, find_rec(X, Q, id)};
            target_hint(X, HS_DOUBLE, SK_DOUBLE, t, 2, -1, side ? t[0] : t[1]);
        }
}

/* The facts every branch props[0..np-1] reaches, on ones first: a hint of
 * kind (hs, sk) for each, in region r (-1: the branches of a cell). */
static void common_targets(Ctx *X, const int *props, int np, int hs, int sk, int r) {
    if (X->nishio || np == 0) return; /* Nishio: contradictions only */
    for (int side = 1; side >= 0; side--) {
        const Prop *P0 = &X->props[props[0]];
        for (int i = P0->rec0; i < P0->rec0 + P0->nrec; i++) {
            int id = X->recs[i].id, all = 1;
            if ((id & 1) != side) continue;
            for (int j = 1; j < np && all; j++) all = in_prop(&X->props[props[j]], id);
            if (!all) continue;
            int32_t t[9];
            t[0] = i;
            for (int j = 1; j < np; j++) t[j] = find_rec(X, &X->props[props[j]], id);
            target_hint(X, hs, sk, t, np, r, i);
            P0 = &X->props[props[0]]; /* target_hint may grow X->props */
        }
    }
}

static void regions(Ctx *X, int depth, int cell, int d, int pon) {
    for (int k = 0; k < 3; k++) {
        int r = CR[cell][k];
        unsigned pos = X->src.rp[r][d];
        if (pc16(pos) < 2 || REG[r][low16(pos)] != cell) continue;
        int props[9], np = 0;
        for (unsigned m = pos; m; m &= m - 1) {
            int x = REG[r][low16(m)];
            props[np++] = x == cell ? pon : on_branch(X, depth, x, d);
        }
        common_targets(X, props, np, HS_REGION, SK_REGION, r);
    }
}

/* getMultipleChainsHintList: dynamic (or static multiple) chains on X->src */
static void search_multiple(Ctx *X, int depth) {
    for (int cell = 0; cell < NC; cell++) {
        unsigned m = X->src.cands[cell];
        int k = pc16(m);
        if (X->R->values[cell] || !(k > 2 || (k > 1 && X->dynamic))) continue;
        if (!X->all_pivots && !(X->pivots & B(cell))) continue;
        int props[9], np = 0;
        for (unsigned mm = m; mm; mm &= mm - 1) {
            int d = low16(mm);
            int pon = on_branch(X, depth, cell, d);
            if (X->dynamic) binary(X, depth, cell, d, k, pon);
            if (X->nishio) continue; /* contradictions only */
            regions(X, depth, cell, d, pon);
            props[np++] = pon;
        }
        if (X->nishio) continue; /* contradictions only: no common targets */
        common_targets(X, props, np, HS_CELL, SK_CELL, -1);
    }
}

/* ---------------------------------------- static forcing chains and cycles */

typedef struct { int32_t *a; int n, cap; } Vec;
static void vpush(Vec *v, int32_t x) { GROW(v->a, v->n, v->cap, 1); v->a[v->n++] = x; }

static int st_on_to_off(const Ctx *X, int p, int y, int *ids, int *causes) {
    int id = X->recs[p].id, cd = id >> 1, c = cd / 9, d = cd % 9, n = 0;
    const G *g = &X->g;
    if (y)
        for (unsigned m = g->cands[c] & ~(1u << d); m; m &= m - 1) {
            ids[n] = (c * 9 + low16(m)) * 2;
            causes[n++] = NAKED;
        }
    unsigned bit = 1u << d;
    for (int i = 0; i < 20; i++) {
        int x = HOUSE[c][i];
        if (g->cands[x] & bit) {
            ids[n] = (x * 9 + d) * 2;
            causes[n++] = HIDDEN_BLOCK + HKIND[c][i];
        }
    }
    return n;
}

static int st_off_to_on(const Ctx *X, int p, int y, int x, int *ids, int *causes) {
    int cd = X->recs[p].id >> 1;
    return off_to_on(&X->g, cd / 9, cd % 9, y, x, ids, causes);
}

static int is_parent(const Ctx *X, int child, int id) {
    const Rec *r = &X->recs[child];
    while (r->npar) {
        r = &X->recs[X->pars[r->par]];
        if (r->id == id) return 1;
    }
    return 0;
}

static inline int marked(Ctx *X, int id) { return X->sgen[id] == X->gen; }
static inline void mark(Ctx *X, int id) { X->sgen[id] = X->gen; }

static void chains_add(Ctx *X, Vec *chains, int r);

/* doCycles from the "on" source; with chains, doForcingChains from it too:
 * both searches grow the same breadth-first tree (with x links), so one
 * search records both */
static void do_cycles(Ctx *X, int src_id, int y, int x, Vec *cycles, Vec *chains) {
    static Vec pon, poff;
    int ids[32], causes[32];
    if (++X->gen == 0) { memset(X->sgen, 0, sizeof X->sgen); X->gen = 1; }
    int s = add_rec(X, src_id, ASSUMED, NULL, 0, -1, 0);
    mark(X, src_id);
    pon.n = poff.n = 0;
    vpush(&pon, s);
    /* the off nodes that turn the source on: a second copy of an off node
     * already queued adds nothing but, for these, another cycle */
    int closers[4], ncl = 0;
    {
        int c = (src_id >> 1) / 9, d = (src_id >> 1) % 9;
        unsigned m = X->g.cands[c];
        if (y && pc16(m) == 2) closers[ncl++] = (c * 9 + low16(m & ~(1u << d))) * 2;
        if (x)
            for (int k = 0; k < 3; k++) {
                int r = CR[c][k];
                unsigned pos = X->g.rp[r][d];
                if (pc16(pos) == 2) closers[ncl++] = (REG[r][low16(pos & ~(1u << CI[c][k]))] * 9 + d) * 2;
            }
    }
    int length = 0;
    while (pon.n || poff.n) {
        length++;
        for (int i = 0; i < pon.n; i++) {
            int32_t p = pon.a[i];
            int n = st_on_to_off(X, p, y, ids, causes);
            for (int j = 0; j < n; j++) {
                int q = ids[j], r = -1;
                if (chains && (q | 1) == src_id) chains_add(X, chains, r = add_rec(X, q, causes[j], &p, 1, -1, 0));
                if (marked(X, q)) {
                    int closer = 0;
                    for (int t = 0; t < ncl; t++) closer |= closers[t] == q;
                    if (!closer) continue;
                }
                if (!is_parent(X, p, q)) {
                    mark(X, q);
                    vpush(&poff, r >= 0 ? r : add_rec(X, q, causes[j], &p, 1, -1, 0));
                }
            }
        }
        pon.n = 0;
        length++;
        for (int i = 0; i < poff.n; i++) {
            int32_t p = poff.a[i];
            int n = st_off_to_on(X, p, y, x, ids, causes);
            for (int j = 0; j < n; j++) {
                int cyc = length >= 4 && ids[j] == src_id, fresh = !marked(X, ids[j]);
                if (!cyc && !fresh) continue;
                int r = add_rec(X, ids[j], causes[j], &p, 1, -1, 0);
                if (cyc) vpush(cycles, r);
                if (fresh) { mark(X, ids[j]); vpush(&pon, r); }
            }
        }
        poff.n = 0;
    }
}

static void chains_add(Ctx *X, Vec *chains, int r) {
    for (int i = 0; i < chains->n; i++)
        if (X->recs[chains->a[i]].id == X->recs[r].id) return;
    vpush(chains, r);
}

static void do_forcing(Ctx *X, int src_id, int y, Vec *chains) {
    static Vec pon, poff;
    int ids[32], causes[32];
    if (++X->gen == 0) { memset(X->sgen, 0, sizeof X->sgen); X->gen = 1; }
    int s = add_rec(X, src_id, ASSUMED, NULL, 0, -1, 0);
    mark(X, src_id);
    pon.n = poff.n = 0;
    vpush((src_id & 1) ? &pon : &poff, s);
    while (pon.n || poff.n) {
        for (int i = 0; i < pon.n; i++) {
            int32_t p = pon.a[i];
            int n = st_on_to_off(X, p, y, ids, causes);
            for (int j = 0; j < n; j++) {
                int q = ids[j], r = -1;
                if ((q | 1) == src_id) chains_add(X, chains, r = add_rec(X, q, causes[j], &p, 1, -1, 0));
                if (!marked(X, q) && !is_parent(X, p, q)) {
                    if (r < 0) r = add_rec(X, q, causes[j], &p, 1, -1, 0);
                    mark(X, q);
                    vpush(&poff, r);
                }
            }
        }
        pon.n = 0;
        for (int i = 0; i < poff.n; i++) {
            int32_t p = poff.a[i];
            int n = st_off_to_on(X, p, y, 1, ids, causes);
            for (int j = 0; j < n; j++) {
                int q = ids[j], r = -1;
                if ((q & ~1) == src_id) chains_add(X, chains, r = add_rec(X, q, causes[j], &p, 1, -1, 0));
                if (!marked(X, q)) {
                    if (r < 0) r = add_rec(X, q, causes[j], &p, 1, -1, 0);
                    mark(X, q);
                    vpush(&pon, r);
                }
            }
        }
        poff.n = 0;
    }
}

/* the finished hint: complexity, difficulty, uses and identity, computed at
 * once (a static chain's nodes are dropped after its start) */
static void hr_eager(Ctx *X, HR *h) {
    h->flat = anc_count(X, h->t[0]);
    if (h->shape != HS_CYCLE)
        for (int i = 1; i < h->nt; i++) h->flat += anc_count(X, h->t[i]);
    h->complexity = h->flat;
    h->difficulty = h->base + length_added(h->complexity);
    hr_uses(X, h);
    h->sig = hr_signature(X, h);
    h->nt = 0;
}

static void cycle_hint(Ctx *X, int dst, int sortkey, double base) {
    const G *g = &X->g;
    cm_t cells = 0, forw[9] = {0}, back[9] = {0};
    int path[NID], np = 0, p = dst;
    while (X->recs[p].npar) { cells |= B((X->recs[p].id >> 1) / 9); path[np++] = p; p = X->pars[X->recs[p].par]; }
    path[np++] = p;
    for (int i = 0; i < np - 1; i++) {
        int id = X->recs[path[i]].id, c = (id >> 1) / 9, d = (id >> 1) % 9;
        for (int j = 0; j < 20; j++) {
            int x = HOUSE[c][j];
            if (!(cells & B(x)) && (g->cands[x] >> d & 1)) {
                if (id & 1) forw[d] |= B(x);
                else back[d] |= B(x);
            }
        }
    }
    cm_t any = 0;
    for (int d = 0; d < 9; d++) any |= forw[d] & back[d];
    if (!any) return; /* removes nothing: no hint */
    int32_t t[2] = {dst, -1};
    int hi = -1;
    for (int c = 0; c < NC; c++) {
        if (!(any & B(c))) continue;
        unsigned mask = 0;
        for (int d = 0; d < 9; d++)
            if ((forw[d] & back[d]) & B(c)) mask |= 1u << d;
        if (!mask) continue;
        if (hi < 0) hi = hr_new(X, HS_CYCLE, sortkey, base, t, 1, -1);
        hr_rem(X, &X->hrs[hi], c, mask);
    }
    if (hi < 0) return;
    int prev = -1;
    for (int i = 0; i < np; i++) { /* the reversed cycle, from dst's end */
        const Rec *o = &X->recs[path[i]];
        int32_t par = prev;
        prev = add_rec(X, o->id ^ 1, o->cause, &par, prev >= 0, -1, 0);
    }
    X->hrs[hi].t[1] = prev;
    X->hrs[hi].nt = 2;
    hr_eager(X, &X->hrs[hi]);
}

static void loop_hints(Ctx *X, int y, int x) {
    static Vec cycles, chains;
    int xy = x && y, sortkey = xy ? SK_XY : y ? SK_Y : SK_X;
    for (int cell = 0; cell < NC; cell++) {
        unsigned m = X->g.cands[cell];
        if (X->R->values[cell] || pc16(m) <= 1 || (pc16(m) > 2 && !x)) continue;
        for (unsigned mm = m; mm; mm &= mm - 1) {
            int d = low16(mm), mark0 = X->nrecs, pmark = X->npars;
            int src_id = (cell * 9 + d) * 2 + 1;
            cycles.n = chains.n = 0;
            do_cycles(X, src_id, y, x, &cycles, x ? &chains : NULL);
            if (x) do_forcing(X, src_id - 1, y, &chains);
            for (int i = 0; i < cycles.n; i++) cycle_hint(X, cycles.a[i], sortkey, xy ? 7.0 : 6.5);
            for (int i = 0; i < chains.n; i++) {
                int before = X->nhrs;
                target_hint(X, HS_FORCING, sortkey, &chains.a[i], 1, -1, chains.a[i]);
                if (X->nhrs > before) {
                    X->hrs[before].base = xy ? 7.0 : 6.6;
                    hr_eager(X, &X->hrs[before]);
                }
            }
            X->nrecs = mark0;
            X->npars = pmark;
        }
    }
}

static int UNARY_FIRST; /* only the easiest hint is asked for (see py_hints) */

static void search_unary(Ctx *X) {
    loop_hints(X, 0, 1);
    loop_hints(X, 1, 0);
    if (UNARY_FIRST) {
        /* the XY pass's hints rate 7.0 and more: they cannot come first
         * after an X or Y hint rated below 7.0 */
        double best = 99;
        for (int i = 0; i < X->nhrs; i++)
            if (X->hrs[i].difficulty < best) best = X->hrs[i].difficulty;
        if (best < 7.0 - 1e-9) return;
    }
    loop_hints(X, 1, 1);
}

/* ------------------------------------------------ sorting, helpers, stalls */

static const Ctx *SORT_X;
static int hr_cmp(const void *a, const void *b) {
    const HR *x = &SORT_X->hrs[*(const int *)a], *y = &SORT_X->hrs[*(const int *)b];
    if (x->difficulty != y->difficulty) return x->difficulty < y->difficulty ? -1 : 1;
    if (x->complexity != y->complexity) return x->complexity < y->complexity ? -1 : 1;
    if (x->sortkey != y->sortkey) return x->sortkey < y->sortkey ? -1 : 1;
    return x->disc < y->disc ? -1 : x->disc > y->disc;
}

static void hr_finish(Ctx *X, HR *h) {
    if (h->complexity >= 0) return;
    h->flat = 0;
    for (int i = 0; i < h->nt; i++) h->flat += anc_count(X, h->t[i]);
    h->complexity = h->flat + (X->level > 0 ? nested_complexity(X, h) : 0);
    h->difficulty = h->base + length_added(h->complexity);
}

static int same_rem(const Ctx *X, const HR *a, const HR *b) {
    if (a->nrem != b->nrem) return 0;
    for (int i = 0; i < a->nrem; i++)
        if (X->remc[a->rem0 + i] != X->remc[b->rem0 + i] || X->remm[a->rem0 + i] != X->remm[b->rem0 + i])
            return 0;
    return 1;
}

static uint64_t rem_hash(const Ctx *X, const HR *h) {
    uint64_t v = 1469598103934665603ULL;
    for (int i = 0; i < h->nrem; i++)
        v = (v ^ (uint64_t)(X->remc[h->rem0 + i] * 1024 + X->remm[h->rem0 + i])) * 1099511628211ULL;
    return v;
}

/* every hint finished and sorted; hints with the eliminations of an earlier
 * one dropped.  Returns the count; the order is in *out (malloc'ed). */
static int hr_sorted(Ctx *X, int **out) {
    int n = X->nhrs;
    int *ord = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!ord) abort();
    for (int i = 0; i < n; i++) { hr_finish(X, &X->hrs[i]); ord[i] = i; }
    SORT_X = X;
    qsort(ord, (size_t)n, sizeof(int), hr_cmp);
    int tsize = 1;
    while (tsize < 2 * n + 2) tsize *= 2;
    int *table = malloc((size_t)tsize * sizeof(int));
    if (!table) abort();
    for (int i = 0; i < tsize; i++) table[i] = -1;
    int m = 0;
    for (int i = 0; i < n; i++) {
        const HR *h = &X->hrs[ord[i]];
        uint64_t slot = rem_hash(X, h) & (uint64_t)(tsize - 1);
        int dup = 0;
        while (table[slot] >= 0 && !dup) {
            dup = same_rem(X, &X->hrs[table[slot]], h);
            slot = (slot + 1) & (uint64_t)(tsize - 1);
        }
        if (dup) continue;
        table[slot] = ord[i];
        ord[m++] = ord[i];
    }
    free(table);
    *out = ord;
    return m;
}

static double tier_base(int dynamic, int level) {
    if (level >= 2) return 9.5 + 0.5 * (level - 2);
    if (level > 0) return 8.5 + 0.5 * level;
    return dynamic ? 8.5 : 8.0;
}

/* K_DFC + n: dynamic chains of level n; K_NISHIO: Nishio forcing chains
 * (dynamic, X links only, contradictions only, base 7.5) */
enum { K_FCC = 0, K_MFC = 1, K_DFC = 2, K_NISHIO = 100 };

static void run_search(Ctx *X, int depth, int kind, const G *g, const Real *R, cm_t pivots,
                       int all) {
    ctx_reset(X);
    X->src = *g;
    X->g = *g;
    X->R = R;
    X->all_pivots = all;
    X->pivots = pivots;
    X->nishio = 0;
    if (kind == K_NISHIO) {
        X->dynamic = 1;
        X->nishio = 1;
        X->level = 0;
        X->base = 7.5;
        search_multiple(X, depth);
        return;
    }
    if (kind == K_FCC) {
        X->dynamic = 0;
        X->level = 0;
        X->base = 0;
        search_unary(X);
        return;
    }
    X->dynamic = kind >= K_DFC;
    X->level = kind >= K_DFC ? kind - K_DFC : 0;
    X->base = tier_base(X->dynamic, X->level);
    search_multiple(X, depth);
}

/* the sorted hints of a chaining helper on grid g (cached) */
static void helper_hints(int kind, int depth, const G *g, const Real *R, int *hh0, int *nhh) {
    uint64_t h = grid_hash(g->cands, kind);
    CacheEntry *e = cache_find(g->cands, kind, h);
    if (e && e->used) { *hh0 = e->hh0; *nhh = e->nhh; ST_HITS[kind < 8 ? kind : 7]++; return; }
    ST_SEARCHES[kind < 8 ? kind : 7]++;
    Ctx *Y = ctx_at(depth);
    run_search(Y, depth, kind, g, R, 0, 1);
    int *ord;
    int n = hr_sorted(Y, &ord);
    if (CACHE_N > CACHE_SIZE / 2 || NHH > 1 << 20 || NHUSES > 1 << 23) cache_clear();
    e = cache_find(g->cands, kind, h);
    *hh0 = NHH;
    for (int i = 0; i < n; i++) {
        HR *x = &Y->hrs[ord[i]];
        if (x->nt) { hr_uses(Y, x); x->sig = hr_signature(Y, x); }
        GROW(HHS, NHH, CAPHH, 1);
        HH *o = &HHS[NHH++];
        o->complexity = x->complexity;
        o->sortkey = x->sortkey;
        o->difficulty = x->difficulty;
        o->sig = x->sig;
        o->rem0 = NHREM;
        o->nrem = x->nrem;
        GROW(HREMC, NHREM, CAPHREMC, x->nrem);
        GROW(HREMM, NHREM, CAPHREMM, x->nrem);
        for (int j = 0; j < x->nrem; j++) {
            HREMC[NHREM] = Y->remc[x->rem0 + j];
            HREMM[NHREM++] = Y->remm[x->rem0 + j];
        }
        o->use0 = NHUSES;
        o->nuse = x->nuse;
        GROW(HUSES, NHUSES, CAPHUSES, x->nuse);
        memcpy(HUSES + NHUSES, Y->uses + x->use0, (size_t)x->nuse * sizeof(int32_t));
        NHUSES += x->nuse;
    }
    *nhh = n;
    free(ord);
    if (e) {
        e->used = 1;
        e->h = h;
        e->kind = kind;
        e->hh0 = *hh0;
        e->nhh = n;
        memcpy(e->cands, g->cands, sizeof e->cands);
        CACHE_N++;
    }
}

/* the removed candidates a helper chain rests on, from its uses */
static int uses_parents(const HH *o, const G *init, const G *cur, int *out) {
    static uint32_t seen[729], gen;
    if (++gen == 0) { memset(seen, 0, sizeof seen); gen = 1; }
    int n = 0;
    for (int i = 0; i < o->nuse; i++) {
        int u = HUSES[o->use0 + i], cause = u / 729, cd = u % 729, c = cd / 9, d = cd % 9;
        if (cause == NAKED) {
            for (int w = 0; w < 9; w++)
                if ((init->cands[c] >> w & 1) && !(cur->cands[c] >> w & 1) && seen[c * 9 + w] != gen) {
                    seen[c * 9 + w] = gen;
                    out[n++] = c * 9 + w;
                }
        } else {
            int r = CR[c][cause - HIDDEN_BLOCK];
            for (int i2 = 0; i2 < 9; i2++) {
                int x = REG[r][i2];
                if ((init->cands[x] >> d & 1) && !(cur->cands[x] >> d & 1) && seen[x * 9 + d] != gen) {
                    seen[x * 9 + d] = gen;
                    out[n++] = x * 9 + d;
                }
            }
        }
    }
    return n;
}

static void tmp_node(Ctx *X, int id, int nest, const int *pars, int np) {
    GROW(X->tid, X->nt, X->capt, 1);
    GROW(X->tnest, X->nt, X->capt2, 1);
    GROW(X->tpar0, X->nt, X->capt3, 1);
    GROW(X->tnpar, X->nt, X->capt4, 1);
    X->tid[X->nt] = id;
    X->tnest[X->nt] = nest;
    X->tpar0[X->nt] = X->ntpars;
    X->tnpar[X->nt++] = np;
    GROW(X->tpars, X->ntpars, X->captpars, np);
    memcpy(X->tpars + X->ntpars, pars, (size_t)np * sizeof(int32_t));
    X->ntpars += np;
}

static int helper_kinds(int level, int *kinds) {
    int n = 0;
    if (level == 2 || level == 3) kinds[n++] = K_FCC;
    if (level == 3) kinds[n++] = K_MFC;
    if (level >= 4) kinds[n++] = K_DFC;
    if (level >= 5) kinds[n++] = K_DFC + level - 3;
    return n;
}

/* getAdvancedPotentials: the first helper with hints resting on the chain's
 * removals gives their eliminations as new off nodes */
static int stall(Ctx *X, int depth) {
    static RHList L[MAXDEPTH];
    int pars[729];
    ST_STALLS++;
    X->nt = X->ntpars = 0;
    for (int hi = 0; hi < 4 && !X->nt; hi++) {
        RHList *l = &L[depth];
        l->n = 0;
        l->first_only = 0;
        HELPERS[hi](&X->g, X->R, l);
        for (int i = 0; i < l->n; i++) {
            const RH *h = &l->h[i];
            int np = rh_parents(h, &X->src, &X->g, pars);
            if (!np) continue;
            for (int j = 0; j < h->nrem; j++)
                for (unsigned m = h->rem_mask[j]; m; m &= m - 1)
                    tmp_node(X, (h->rem_cell[j] * 9 + low16(m)) * 2, -1, pars, np);
        }
    }
    int kinds[2], nk = helper_kinds(X->level, kinds);
    for (int ki = 0; ki < nk && !X->nt && depth + 1 < MAXDEPTH; ki++) {
        int hh0, nhh;
        G cur = X->g;
        helper_hints(kinds[ki], depth + 1, &cur, X->R, &hh0, &nhh);
        for (int i = 0; i < nhh; i++) {
            const HH *o = &HHS[hh0 + i];
            int np = uses_parents(o, &X->src, &X->g, pars);
            if (!np) continue;
            GROW(X->nests, X->nnests, X->capnests, 1);
            X->nests[X->nnests].complexity = o->complexity;
            X->nests[X->nnests].sig = o->sig;
            int nest = X->nnests++;
            for (int j = 0; j < o->nrem; j++)
                for (unsigned m = HREMM[o->rem0 + j]; m; m &= m - 1)
                    tmp_node(X, (HREMC[o->rem0 + j] * 9 + low16(m)) * 2, nest, pars, np);
        }
    }
    int added = 0;
    for (int i = 0; i < X->nt; i++) {
        int id = X->tid[i];
        if (look(X, id) >= 0) continue;
        int32_t real[729];
        int nr = 0;
        for (int j = 0; j < X->tnpar[i]; j++) {
            int32_t q = look(X, X->tpars[X->tpar0[i] + j] * 2);
            if (q >= 0) real[nr++] = q;
        }
        add_rec(X, id, ADVANCED, real, nr, X->tnest[i], 1);
        added++;
    }
    return added;
}

/* ---------------------------------------------------------------- Python */

static int read_grid(PyObject *values, PyObject *cands, Real *R, G *g) {
    uint8_t vs[NC];
    uint16_t cs[NC];
    PyObject *sv = PySequence_Fast(values, "values must be a sequence");
    if (!sv) return -1;
    PyObject *sc = PySequence_Fast(cands, "cands must be a sequence");
    if (!sc) { Py_DECREF(sv); return -1; }
    if (PySequence_Fast_GET_SIZE(sv) != NC || PySequence_Fast_GET_SIZE(sc) != NC) {
        PyErr_SetString(PyExc_ValueError, "a 9x9 grid has 81 cells");
        Py_DECREF(sv);
        Py_DECREF(sc);
        return -1;
    }
    for (int c = 0; c < NC; c++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(sv, c));
        long m = PyLong_AsLong(PySequence_Fast_GET_ITEM(sc, c));
        vs[c] = (uint8_t)(v < 0 || v > 9 ? 0 : v);
        cs[c] = (uint16_t)(vs[c] ? 0 : (m & 0x1FF));
    }
    Py_DECREF(sv);
    Py_DECREF(sc);
    if (PyErr_Occurred()) return -1;
    init_geo();
    real_build(R, vs);
    g_build(g, cs);
    return 0;
}

static PyObject *list_of(const int *xs, int n) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(l, i, PyLong_FromLong(xs[i]));
    return l;
}

/* the candidates the givens allow */
static void givens_cands(const uint8_t *vs, uint16_t *cs) {
    unsigned used[NR] = {0};
    for (int c = 0; c < NC; c++)
        if (vs[c])
            for (int k = 0; k < 3; k++) used[CR[c][k]] |= 1u << (vs[c] - 1);
    for (int c = 0; c < NC; c++)
        cs[c] = (uint16_t)(vs[c] ? 0 : 0x1FF & ~(used[CR[c][0]] | used[CR[c][1]] | used[CR[c][2]]));
}

static PyObject *py_easy_walk(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *values, *cands = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &values, &cands)) return NULL;
    Real R;
    G g;
    if (cands == Py_None) {
        uint8_t vs[NC];
        uint16_t cs[NC];
        PyObject *sv = PySequence_Fast(values, "values must be a sequence");
        if (!sv) return NULL;
        if (PySequence_Fast_GET_SIZE(sv) != NC) {
            Py_DECREF(sv);
            PyErr_SetString(PyExc_ValueError, "a 9x9 grid has 81 cells");
            return NULL;
        }
        for (int c = 0; c < NC; c++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(sv, c));
            vs[c] = (uint8_t)(v < 0 || v > 9 ? 0 : v);
        }
        Py_DECREF(sv);
        if (PyErr_Occurred()) return NULL;
        init_geo();
        givens_cands(vs, cs);
        real_build(&R, vs);
        g_build(&g, cs);
    } else if (read_grid(values, cands, &R, &g) < 0) return NULL;
    int top, name, dia, pearl, steps = easy_loop(&g, &R, &top, &name, &dia, &pearl), open = 0;
    for (int c = 0; c < NC; c++) open |= !R.values[c];
    if (!open) return Py_BuildValue("iiiOOii", top, name, steps, Py_None, Py_None, dia, pearl);
    int vs[NC], cs[NC];
    for (int c = 0; c < NC; c++) { vs[c] = R.values[c]; cs[c] = g.cands[c]; }
    return Py_BuildValue("iiiNNii", top, name, steps, list_of(vs, NC), list_of(cs, NC), dia,
                         pearl);
}

static PyObject *rem_tuple(const int32_t *cells, const uint16_t *masks, int n) {
    int count = 0;
    for (int i = 0; i < n; i++) count += pc16(masks[i]);
    PyObject *t = PyTuple_New(count);
    if (!t) return NULL;
    int k = 0;
    for (int i = 0; i < n; i++)
        for (unsigned m = masks[i]; m; m &= m - 1)
            PyTuple_SET_ITEM(t, k++, Py_BuildValue("(ii)", cells[i], low16(m) + 1));
    return t;
}

static PyObject *hr_tuple(const Ctx *X, const HR *h) {
    PyObject *pl = h->pcell >= 0 ? Py_BuildValue("(ii)", h->pcell, h->pval + 1) : Py_NewRef(Py_None);
    return Py_BuildValue("(iidiiNN)", h->shape, tenths_of(h->difficulty), h->difficulty,
                         h->complexity, h->sortkey, rem_tuple(X->remc + h->rem0, X->remm + h->rem0, h->nrem),
                         pl);
}

static PyObject *py_chain_step(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *values, *cands;
    int first, last;
    if (!PyArg_ParseTuple(args, "OOii", &values, &cands, &first, &last)) return NULL;
    Real R;
    G g;
    if (read_grid(values, cands, &R, &g) < 0) return NULL;
    cache_clear();
    for (int level = first; level <= last; level++) {
        Ctx *X = ctx_at(0);
        run_search(X, 0, K_DFC + level, &g, &R, 0, 1);
        if (!X->nhrs) continue;
        int best = -1;
        for (int i = 0; i < X->nhrs; i++) {
            hr_finish(X, &X->hrs[i]);
            if (best < 0) { best = i; continue; }
            int a = i;
            SORT_X = X;
            if (hr_cmp(&a, &best) < 0) best = i;
        }
        return Py_BuildValue("(iN)", level, hr_tuple(X, &X->hrs[best]));
    }
    Py_RETURN_NONE;
}

static PyObject *py_hints(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *values, *cands, *pivots;
    int kind, level, first = 0;
    if (!PyArg_ParseTuple(args, "OOiiO|p", &values, &cands, &kind, &level, &pivots, &first))
        return NULL;
    Real R;
    G g;
    if (read_grid(values, cands, &R, &g) < 0) return NULL;
    cm_t pv = 0;
    int all = pivots == Py_None;
    if (!all) {
        PyObject *it = PyObject_GetIter(pivots), *x;
        if (!it) return NULL;
        while ((x = PyIter_Next(it))) { pv |= B((int)PyLong_AsLong(x)); Py_DECREF(x); }
        Py_DECREF(it);
        if (PyErr_Occurred()) return NULL;
    }
    cache_clear();
    Ctx *X = ctx_at(0);
    UNARY_FIRST = first;
    run_search(X, 0, kind == 0 ? K_FCC : kind == 1 ? K_MFC : kind == 3 ? K_NISHIO : K_DFC + level,
               &g, &R, pv, all);
    UNARY_FIRST = 0;
    int *ord;
    int n = hr_sorted(X, &ord);
    if (first && n > 1) n = 1;
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) PyList_SET_ITEM(out, i, hr_tuple(X, &X->hrs[ord[i]]));
    free(ord);
    return out;
}

static PyObject *py_rule_hints(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *values, *cands;
    int producer;
    if (!PyArg_ParseTuple(args, "OOi", &values, &cands, &producer)) return NULL;
    if (producer < 0 || producer >= NPRODUCERS) {
        PyErr_SetString(PyExc_ValueError, "no such producer");
        return NULL;
    }
    Real R;
    G g;
    if (read_grid(values, cands, &R, &g) < 0) return NULL;
    RHList L = {NULL, 0, 0, 0};
    PRODUCERS[producer](&g, &R, &L);
    PyObject *out = PyList_New(L.n);
    for (int i = 0; out && i < L.n; i++) {
        const RH *h = &L.h[i];
        int32_t cells[MAXREM];
        for (int j = 0; j < h->nrem; j++) cells[j] = h->rem_cell[j];
        PyObject *pl = h->pcell >= 0 ? Py_BuildValue("(ii)", h->pcell, h->pval + 1) : Py_NewRef(Py_None);
        PyList_SET_ITEM(out, i, Py_BuildValue("(iiNN)", h->name, h->tenths,
                                              rem_tuple(cells, h->rem_mask, h->nrem), pl));
    }
    free(L.h);
    return out;
}

static PyObject *py_stats(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    PyObject *s = PyList_New(8), *h = PyList_New(8);
    for (int i = 0; i < 8; i++) {
        PyList_SET_ITEM(s, i, PyLong_FromLongLong(ST_SEARCHES[i]));
        PyList_SET_ITEM(h, i, PyLong_FromLongLong(ST_HITS[i]));
    }
    return Py_BuildValue("{s:L,s:L,s:N,s:N}", "propagations", ST_PROPS, "stalls", ST_STALLS,
                         "helper_searches", s, "helper_cache_hits", h);
}

static PyMethodDef methods[] = {
    {"stats", py_stats, METH_NOARGS,
     "stats() -> counters since loading: propagations, stalls, helper searches by kind "
     "(0 forcing chains and cycles, 1 multiple chains, 2 + n dynamic chains of level n) and "
     "cache hits"},
    {"easy_walk", py_easy_walk, METH_VARARGS,
     "easy_walk(values, cands=None) -> (top, name, steps, values, cands, diamond, pearl): the "
     "rating loop below 4.0 (cands None: what the givens allow; values and cands None when "
     "solved; diamond: the first step, pearl: the largest up to the first placement, 0: none)"},
    {"chain_step", py_chain_step, METH_VARARGS,
     "chain_step(values, cands, first, last) -> (level, hint) or None"},
    {"hints", py_hints, METH_VARARGS,
     "hints(values, cands, kind, level, pivots, first=False) -> sorted hints of one search "
     "(first: the first only; 0: forcing "
     "chains and cycles, 1: multiple chains, 2: dynamic chains of the level, 3: Nishio forcing "
     "chains)"},
    {"rule_hints", py_rule_hints, METH_VARARGS,
     "rule_hints(values, cands, producer) -> every hint of one producer below 4.0"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_serate",
                                    "Sudoku Explainer's scale (see grader.serate)", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__serate(void) { return PyModule_Create(&module); }
