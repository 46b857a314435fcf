/* speed.c: the speed tier (judge.h, "speed"). The speed runs are a session
 * of their own over a copy of the problem whose cases are the speed cases,
 * each repeated (a warm-up, then JUDGE_SPEED_RUNS timed calls, each with
 * inputs of its own) and whose reference is the core's SIMD kernel. The
 * session is paced: it times the core on each call's inputs when it is made
 * (for the budget) and again right after the learner's call on them (ref_ms),
 * so the core and the learner alternate, on the same inputs in the same run,
 * each timed around its own call only (the learner's by the runner, judge.h's
 * wire format). Timed only when made, the core and the learner were seconds
 * apart, and this VM's speed drifts that fast: the same file's wasm ratio
 * read 0.86 and 1.67 in two runs. Checking the outputs is the session's, as
 * for any case. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "judge.h"
#include "session.h"

/* The tiers, by the ratio of the learner's median time to the core's. */
static const struct {
    const char *name;
    double within;
    int msg;
} tiers[] = {
    { "gold", 1.25, JUDGE_MSG_SPEED_TIER_GOLD },
    { "silver", 2.0, JUDGE_MSG_SPEED_TIER_SILVER },
    { "bronze", 4.0, JUDGE_MSG_SPEED_TIER_BRONZE },
};
enum { N_TIERS = sizeof tiers / sizeof tiers[0], CALLS = 1 + JUDGE_SPEED_RUNS };

struct judge_speed {
    judge_meta meta;        /* the problem with the speed runs as its cases */
    judge_case *cases;
    judge_ops ops;          /* the problem's, the core as the reference */
    judge_session *runs;    /* NULL: not run, reason says why */
    int reason;             /* a speed_ message, or -1 */
    char reason_arg[3][160];
    int settled;
    double fma_gflops, read_gbs;
    float ceiling_sink;     /* the ceiling loops' results, kept */
};

/* Its name in the JSON, and the message that tells it in a report. */
#ifdef __EMSCRIPTEN__
static const char backend[] = "wasm";
enum { BACKEND_TOLD = JUDGE_MSG_BACKEND_WASM };
#else
static const char backend[] = "native";
enum { BACKEND_TOLD = JUDGE_MSG_BACKEND_NATIVE };
#endif

/* The core's vector width, as the JSON names it. */
static const char *simd_name(void) { return att_simd_native() ? att_simd_name() : "scalar"; }

/* The ceilings, multiply-adds at the core's width and reads at the best
 * width, in tens of milliseconds (core/att_ceil.c: the best of short tries). */
static void measure_ceilings(struct judge_speed *sp)
{
    float sink = 0.0f;
    sp->fma_gflops = att_ceil_fma_gflops(ATT_SIMD_AUTO, 1, 100000, 12, &sink);
    size_t n = (size_t)16 << 20;   /* 64 MiB: past the caches of most machines */
    float *x = malloc(n * sizeof *x);
    if (x) {
        memset(x, 0, n * sizeof *x);   /* every page touched before timing */
        sp->read_gbs = att_ceil_read_gbs(ATT_SIMD_AUTO, 1, x, n, 3, &sink);
        free(x);
    }
    sp->ceiling_sink = sink;
}

void judge_session_want_speed(judge_session *s) { s->want_speed = 1; }

judge_session *judge_session_speed(judge_session *s)
{
    if (!s->want_speed || s->speed) return NULL;
    judge_session_finish(s);
    struct judge_speed *sp = calloc(1, sizeof *sp);
    if (!sp) {
        s->lost = 1;
        return NULL;
    }
    s->speed = sp;
    sp->reason = -1;
    const judge_meta *m = s->m;
    if (s->verdict != JUDGE_AC) {
        sp->reason = JUDGE_MSG_SPEED_NOT_ACCEPTED;
        snprintf(sp->reason_arg[0], sizeof sp->reason_arg[0], "%s", judge_verdict_code(s->verdict));
        return NULL;
    }
    if (!m->n_speed) {
        sp->reason = JUDGE_MSG_SPEED_NO_CASES;
        return NULL;
    }
    sp->cases = calloc((size_t)m->n_speed * CALLS, sizeof *sp->cases);
    if (!sp->cases) {
        s->lost = 1;
        return NULL;
    }
    for (int i = 0; i < m->n_speed; i++)
        for (int r = 0; r < CALLS; r++) sp->cases[i * CALLS + r] = m->speed[i].c;
    sp->meta = *m;
    sp->meta.cases = sp->cases;
    sp->meta.n_cases = m->n_speed * CALLS;
    sp->meta.n_mistakes = 0;   /* a wrong result is told, not diagnosed: the shapes are large */
    sp->ops = judge_speed_ops(s->ops);
    judge_status st = judge_session_new_ops(&sp->runs, &sp->meta, &sp->ops, s->seed);
    if (st) {
        sp->reason = JUDGE_MSG_SPEED_JUDGE_FAULT;
        snprintf(sp->reason_arg[0], sizeof sp->reason_arg[0], "%s", judge_strerror(st));
        return NULL;
    }
    judge_session_set_lang(sp->runs, s->lang);
    sp->runs->paced = 1;
    double core_ms = 0;   /* the session has timed the core on every call */
    for (int k = 0; k < sp->runs->n_calls; k++) core_ms += sp->runs->calls[k].ref_ms;
    sp->meta.time_ms = (int)fmin(JUDGE_SPEED_BUDGET_TIMES * core_ms + JUDGE_SPEED_BUDGET_MS, 600000);
    measure_ceilings(sp);
    return sp->runs;
}

void judge_speed_free(struct judge_speed *sp)
{
    if (!sp) return;
    judge_session_free(sp->runs);
    free(sp->cases);
    free(sp);
}

void judge_speed_settle(judge_session *s)
{
    struct judge_speed *sp = s->speed;
    if (!sp || !sp->runs || sp->settled) return;
    sp->settled = 1;
    judge_session *r = sp->runs;
    judge_session_finish(r);
    if (r->verdict == JUDGE_AC) return;
    int ci = r->verdict_case;
    snprintf(sp->reason_arg[0], sizeof sp->reason_arg[0], "%s", ci >= 0 ? r->m->cases[ci].name : "");
    if (r->verdict == JUDGE_TLE) {   /* no tier; the verdict stays the correctness run's */
        sp->reason = JUDGE_MSG_SPEED_TOO_SLOW;
        snprintf(sp->reason_arg[0], sizeof sp->reason_arg[0], "%.1f", sp->meta.time_ms / 1000.0);
        snprintf(sp->reason_arg[1], sizeof sp->reason_arg[1], "%d", JUDGE_SPEED_BUDGET_TIMES);
        return;
    }
    s->verdict = r->verdict;
    s->fault = r->fault;
    if (r->verdict == JUDGE_WA && ci >= 0) {
        const case_result *c = &r->cases[ci];
        sp->reason = JUDGE_MSG_SPEED_WRONG;
        snprintf(sp->reason_arg[1], sizeof sp->reason_arg[1], "%zu", c->cmp.n_bad);
        snprintf(sp->reason_arg[2], sizeof sp->reason_arg[2], "%.3g", c->cmp.max_abs);
    } else {
        sp->reason = JUDGE_MSG_SPEED_FAILED;
        snprintf(sp->reason_arg[1], sizeof sp->reason_arg[1], "%s", judge_verdict_code(r->verdict));
        snprintf(sp->reason_arg[2], sizeof sp->reason_arg[2], "%s", judge_verdict_text(r->verdict, s->lang));
    }
}

const char *judge_speed_failed_case(const judge_session *s)
{
    const struct judge_speed *sp = s->speed;
    if (!sp || (sp->reason != JUDGE_MSG_SPEED_WRONG && sp->reason != JUDGE_MSG_SPEED_FAILED)) return NULL;
    return sp->reason_arg[0];
}

/* One speed case told in numbers. */
typedef struct {
    const char *name, *bound;
    double ms, min_ms, core_ms, ratio, work, rate, core_rate, ceiling, pct;
    int tier;   /* index in tiers[], N_TIERS for none */
} figures;

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A speed case's work (judge.h, judge_speed_case), core/att_work.c's count
 * on its sizes: 1 when reading memory bounds it (then bytes count), 0 when
 * arithmetic does (FLOPs). A B = 1 decode case fills its cache to the end
 * (the sequence's step reads every row; problem_*.c's make_inputs), so the
 * sizes alone say how much is read. */
static int count_work(const char *kind, const judge_args *a, att_work *w)
{
    int B = judge_int(a, "B");
    if (!strcmp(kind, "mha")) {
        att_work_mha(w, B, judge_int(a, "T"), judge_int(a, "d"), judge_int(a, "causal"));
        return 0;
    }
    if (!strcmp(kind, "mla")) {
        att_work_mla(w, B, judge_int(a, "S"), judge_int(a, "H"), judge_int(a, "d_c"), judge_int(a, "d_nope"),
                     judge_int(a, "d_r"), judge_int(a, "d_v"));
        return 0;
    }
    if (!strcmp(kind, "paged"))
        att_work_paged(w, B, judge_int(a, "max_blocks") * judge_int(a, "block_size"), judge_int(a, "H"),
                       judge_int(a, "Hkv"), judge_int(a, "D"));
    else if (!strcmp(kind, "int8_decode"))
        att_work_int8_decode(w, B, judge_int(a, "S_max"), judge_int(a, "H"), judge_int(a, "D"));
    else   /* "decode", the only other kind gen_problems.mjs lets through */
        att_work_decode(w, B, judge_int(a, "S_max"), judge_int(a, "H"), judge_int(a, "D"));
    return 1;
}

static void case_figures(const struct judge_speed *sp, int i, figures *f)
{
    const judge_session *r = sp->runs;
    const judge_speed_case *sc = &r->m->speed[i];
    double mine[JUDGE_SPEED_RUNS], core[JUDGE_SPEED_RUNS];
    for (int k = 0; k < JUDGE_SPEED_RUNS; k++) {   /* call 0 of each case warms up */
        const call *c = &r->calls[i * CALLS + 1 + k];
        mine[k] = c->ms;
        core[k] = c->ref_ms;
    }
    f->name = sc->c.name;
    f->ms = median(mine, JUDGE_SPEED_RUNS);
    f->min_ms = mine[0];
    f->core_ms = median(core, JUDGE_SPEED_RUNS);
    f->ratio = f->core_ms > 0 ? f->ms / f->core_ms : INFINITY;
    const judge_args *a = &r->calls[i * CALLS].args;
    att_work w = { 0 };
    int by_bytes = count_work(sc->work, a, &w);
    f->bound = by_bytes ? "bytes" : "flops";
    f->work = by_bytes ? w.bytes : w.flops;
    f->ceiling = by_bytes ? sp->read_gbs : sp->fma_gflops;
    f->rate = f->ms > 0 ? f->work / (f->ms * 1e6) : INFINITY;
    f->core_rate = f->core_ms > 0 ? f->work / (f->core_ms * 1e6) : INFINITY;
    f->pct = f->ceiling > 0 ? f->rate / f->ceiling * 100 : 0;
    f->tier = N_TIERS;
    for (int t = N_TIERS - 1; t >= 0; t--)
        if (f->ratio <= tiers[t].within) f->tier = t;
}

/* The problem's tier: its lowest case's (N_TIERS: none, or not run). */
static int overall(const judge_session *s)
{
    const struct judge_speed *sp = s->speed;
    if (!sp->runs || sp->reason >= 0) return N_TIERS;
    int t = 0;
    for (int i = 0; i < sp->runs->m->n_speed; i++) {
        figures f;
        case_figures(sp, i, &f);
        if (f.tier > t) t = f.tier;
    }
    return t;
}

static void reason_text(const judge_session *s, str *b)
{
    const struct judge_speed *sp = s->speed;
    judge_str_put(b, judge_msg_text(sp->reason, s->lang), sp->reason_arg[0], sp->reason_arg[1],
                  sp->reason_arg[2]);
}

void judge_speed_json(const judge_session *s, str *b)
{
    const struct judge_speed *sp = s->speed;
    if (!sp) {   /* asked for, never run (the backend stopped before) */
        judge_str_put(b, "null");
        return;
    }
    int t = overall(s);
    judge_str_put(b, "{\"backend\":\"%s\",\"simd\":\"%s\",\"tier\":\"%s\",\"tiers\":{", backend, simd_name(),
                  t < N_TIERS ? tiers[t].name : "none");
    for (int i = 0; i < N_TIERS; i++)   /* so a reader knows what a tier means without the README */
        judge_str_put(b, "%s\"%s\":%g", i ? "," : "", tiers[i].name, tiers[i].within);
    judge_str_put(b, "},\"cases\":[");
    for (int i = 0; sp->runs && sp->reason < 0 && i < sp->runs->m->n_speed; i++) {
        figures f;
        case_figures(sp, i, &f);
        const judge_args *a = &sp->runs->calls[i * CALLS].args;
        judge_str_put(b, "%s{\"name\":", i ? "," : "");
        judge_str_json(b, f.name);
        judge_str_put(b, ",\"sizes\":{");
        for (int p = 0, first = 1; p < a->meta->n_params; p++) {
            if (a->meta->params[p].type != JUDGE_INT) continue;
            judge_str_put(b, "%s", first ? "" : ",");
            judge_str_json(b, a->meta->params[p].name);
            judge_str_put(b, ":%d", a->ints[p]);
            first = 0;
        }
        judge_str_put(b, "},\"runs\":%d,\"ms\":", JUDGE_SPEED_RUNS);
        const double v[] = { f.ms, f.min_ms, f.core_ms, f.ratio };
        const char *const k[] = { "min_ms", "core_ms", "ratio" };
        judge_str_json_num(b, v[0]);
        for (int j = 0; j < 3; j++) {
            judge_str_put(b, ",\"%s\":", k[j]);
            judge_str_json_num(b, v[j + 1]);
        }
        judge_str_put(b, ",\"bound\":\"%s\",\"work\":%.0f,\"rate\":", f.bound, f.work);
        judge_str_json_num(b, f.rate);
        judge_str_put(b, ",\"core_rate\":");
        judge_str_json_num(b, f.core_rate);
        judge_str_put(b, ",\"ceiling\":");
        judge_str_json_num(b, f.ceiling);
        judge_str_put(b, ",\"pct_ceiling\":");
        judge_str_json_num(b, f.pct);
        judge_str_put(b, ",\"tier\":\"%s\"}", f.tier < N_TIERS ? tiers[f.tier].name : "none");
    }
    judge_str_put(b, "],\"skipped\":");
    if (sp->reason < 0) {
        judge_str_put(b, "null}");
        return;
    }
    str why = { 0 };
    reason_text(s, &why);
    judge_str_put(b, "{\"reason\":");
    judge_str_json(b, why.s ? why.s : "");
    judge_str_put(b, "}}");
    b->failed |= why.failed;
    free(why.s);
}

void judge_speed_text(const judge_session *s, str *b)
{
    const struct judge_speed *sp = s->speed;
    if (!sp) return;
    judge_lang lang = s->lang;
    judge_str_put(b, judge_msg_text(JUDGE_MSG_SPEED_HEAD, lang), judge_msg_text(BACKEND_TOLD, lang), simd_name(), tiers[0].within,
                  tiers[1].within, tiers[2].within);
    if (sp->reason >= 0) {
        reason_text(s, b);
        judge_str_put(b, "\n");
        return;
    }
    const int head[] = { JUDGE_MSG_SPEED_COL_CASE, JUDGE_MSG_SPEED_COL_MS, JUDGE_MSG_SPEED_COL_RATE,
                         JUDGE_MSG_SPEED_COL_CORE, JUDGE_MSG_SPEED_COL_CEILING, JUDGE_MSG_SPEED_COL_TIER };
    const int width[] = { 18, 11, 16, 9, 12, 8 };
    judge_str_put(b, "  ");
    for (int c = 0; c < 6; c++) {
        char h[64];   /* a message is a format: its %% is one percent sign */
        snprintf(h, sizeof h, judge_msg_text(head[c], lang), 0);
        judge_str_cell(b, h, width[c], c > 0 && c < 5);
        judge_str_put(b, c == 4 ? "  " : "");
    }
    judge_str_put(b, "\n");
    for (int i = 0; i < sp->runs->m->n_speed; i++) {
        figures f;
        case_figures(sp, i, &f);
        char cell[5][40];
        snprintf(cell[0], sizeof cell[0], "%.3f", f.ms);
        snprintf(cell[1], sizeof cell[1], "%.1f %s", f.rate, !strcmp(f.bound, "bytes") ? "GB/s" : "GFLOP/s");
        snprintf(cell[2], sizeof cell[2], "%.2f×", f.ratio);
        snprintf(cell[3], sizeof cell[3], "%.1f%%", f.pct);
        judge_str_put(b, "  ");
        judge_str_cell(b, f.name, width[0], 0);
        for (int c = 0; c < 4; c++) judge_str_cell(b, cell[c], width[c + 1], 1);
        judge_str_put(b, "  ");
        judge_str_cell(b, judge_msg_text(f.tier < N_TIERS ? tiers[f.tier].msg : JUDGE_MSG_SPEED_TIER_NONE, lang),
                       width[5], 0);
        judge_str_put(b, "\n");
    }
    int t = overall(s);
    judge_str_put(b, judge_msg_text(JUDGE_MSG_SPEED_TIER, lang),
                  judge_msg_text(t < N_TIERS ? tiers[t].msg : JUDGE_MSG_SPEED_TIER_NONE, lang));
}
