/* judge.c: judging, the same on every backend. Builds a session's calls from
 * the problem's cases, hands out requests, reads replies back, checks guards
 * and outputs, names mistakes, probes which keys reach which queries, and
 * decides the verdicts. It never runs learner code (see judge.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "att.h"
#include "judge.h"
#include "session.h"

/* ---- names ---- */
const char *judge_verdict_code(judge_verdict v)
{
    switch (v) {
#define JUDGE_V(code, text) case JUDGE_##code: return #code;
        JUDGE_VERDICT_LIST(JUDGE_V)
#undef JUDGE_V
    case JUDGE_SKIPPED: break;
    }
    return "--";
}

const char *judge_verdict_text(judge_verdict v)
{
    switch (v) {
#define JUDGE_V(code, text) case JUDGE_##code: return text;
        JUDGE_VERDICT_LIST(JUDGE_V)
#undef JUDGE_V
    case JUDGE_SKIPPED: break;
    }
    return "not run";
}

const char *judge_strerror(judge_status s)
{
    switch (s) {
#define JUDGE_S(name, msg) case name: return msg;
        JUDGE_STATUS_LIST(JUDGE_S)
#undef JUDGE_S
    }
    return "unknown status";
}

const judge_meta *judge_find(const char *key)
{
    for (int i = 0; i < judge_n_metas; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", judge_metas[i].id);
        if (!strcmp(key, id) || !strcmp(key, judge_metas[i].slug) || !strcmp(key, judge_metas[i].dir))
            return &judge_metas[i];
    }
    return NULL;
}

int judge_param_index(const judge_meta *m, const char *name)
{
    for (int i = 0; i < m->n_params; i++)
        if (!strcmp(m->params[i].name, name)) return i;
    return -1;
}

int judge_int(const judge_args *a, const char *name)
{
    int i = judge_param_index(a->meta, name);
    return i < 0 ? 0 : a->ints[i];
}

size_t judge_elem_size(judge_type t)
{
    static const size_t size[] = {
#define JUDGE_T(name, json, bytes) bytes,
        JUDGE_TYPE_LIST(JUDGE_T)
#undef JUDGE_T
    };
    return size[t];
}

double judge_elem_value(judge_type t, const void *buf, size_t i)
{
    switch (t) {
    case JUDGE_F32: return ((const float *)buf)[i];
    case JUDGE_U8: return ((const unsigned char *)buf)[i];
    case JUDGE_I32: return ((const int *)buf)[i];
    case JUDGE_I64: return (double)((const long long *)buf)[i];
    case JUDGE_INT: break;
    }
    return 0.0;
}

#define elem_size judge_elem_size

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void free_args(judge_args *a)
{
    for (int i = 0; i < JUDGE_MAX_PARAMS; i++) free(a->buf[i]);
}

/* Size and allocate every buffer of a case; NULL for a mask made "none". */
static judge_status alloc_args(judge_args *a, const judge_meta *m, const judge_case *c)
{
    memset(a, 0, sizeof *a);
    a->meta = m;
    for (int i = 0; i < m->n_params; i++)
        if (m->params[i].type == JUDGE_INT) a->ints[i] = c->ints[i];
    for (int i = 0; i < m->n_params; i++) {
        const judge_param *p = &m->params[i];
        if (p->type == JUDGE_INT) continue;
        size_t n = 1;
        for (int d = 0; d < p->rank; d++) {
            if (a->ints[p->dims[d]] <= 0) return JUDGE_EBADCASE;
            n *= (size_t)a->ints[p->dims[d]];
        }
        a->len[i] = n;
        if (p->nullable && !strcmp(c->mask, "none")) continue;
        a->buf[i] = calloc(n, judge_elem_size(p->type));
        if (!a->buf[i]) return JUDGE_ENOMEM;
    }
    return JUDGE_OK;
}

static judge_status copy_args(judge_args *dst, const judge_args *src)
{
    *dst = *src;
    for (int i = 0; i < JUDGE_MAX_PARAMS; i++) {
        dst->buf[i] = NULL;
        if (!src->buf[i]) continue;
        size_t bytes = src->len[i] * judge_elem_size(src->meta->params[i].type);
        dst->buf[i] = malloc(bytes);
        if (!dst->buf[i]) return JUDGE_ENOMEM;
        memcpy(dst->buf[i], src->buf[i], bytes);
    }
    return JUDGE_OK;
}

static void put_u32(unsigned char **p, uint32_t v)
{
    memcpy(*p, &v, 4);
    *p += 4;
}

static void fill_canary(unsigned char *p, size_t n, judge_type t)
{
    if (t != JUDGE_F32) {
        memset(p, CANARY_BYTE, n * judge_elem_size(t));
        return;
    }
    uint32_t c = CANARY_F32;
    for (size_t i = 0; i < n; i++) memcpy(p + 4 * i, &c, 4);
}

/* Buffers for the outputs of a call: an output that is also an input starts
 * as a copy of it, as the function will see it. */
static judge_status alloc_outputs(void **outs, const judge_args *a)
{
    for (int i = 0; i < a->meta->n_params; i++) {
        const judge_param *p = &a->meta->params[i];
        if (!p->is_out) continue;
        size_t bytes = a->len[i] * judge_elem_size(p->type);
        if (!(outs[i] = calloc(a->len[i] ? a->len[i] : 1, judge_elem_size(p->type)))) return JUDGE_ENOMEM;
        if (p->is_in && a->buf[i]) memcpy(outs[i], a->buf[i], bytes);
    }
    return JUDGE_OK;
}

static void free_outputs(void **outs)
{
    for (int i = 0; i < JUDGE_MAX_PARAMS; i++) {
        free(outs[i]);
        outs[i] = NULL;
    }
}

/* Compute the expected outputs (timing the reference) and build the request. */
static judge_status prepare_call(judge_session *s, call *c)
{
    const judge_meta *m = s->m;
    if (alloc_outputs(c->expect, &c->args)) return JUDGE_ENOMEM;
    double t0 = now_ms();
    s->ops->reference(c->expect, &c->args);
    c->ref_ms = now_ms() - t0;

    size_t len = 12 + 16 * (size_t)m->n_params, reply = 16;
    for (int i = 0; i < m->n_params; i++)
        if (c->args.buf[i]) {
            size_t region = (c->args.len[i] + 2 * GUARD) * judge_elem_size(m->params[i].type);
            len += region;
            reply += region;
        }
    unsigned char *q = malloc(len), *p = q;
    if (!q) return JUDGE_ENOMEM;
    put_u32(&p, JUDGE_WIRE_REQUEST);
    put_u32(&p, (uint32_t)(c - s->calls));
    put_u32(&p, (uint32_t)m->n_params);
    for (int i = 0; i < m->n_params; i++) {
        const judge_param *pa = &m->params[i];
        put_u32(&p, pa->type);
        put_u32(&p, pa->type != JUDGE_INT && !c->args.buf[i]);
        put_u32(&p, pa->type == JUDGE_INT ? (uint32_t)c->args.ints[i] : (uint32_t)c->args.len[i]);
        put_u32(&p, pa->type == JUDGE_INT ? 0 : GUARD);
    }
    for (int i = 0; i < m->n_params; i++) {
        if (!c->args.buf[i]) continue;
        judge_type t = m->params[i].type;
        size_t es = judge_elem_size(t), n = c->args.len[i];
        fill_canary(p, GUARD, t);
        if (m->params[i].is_in) memcpy(p + GUARD * es, c->args.buf[i], n * es);
        else fill_canary(p + GUARD * es, n, t);
        fill_canary(p + (GUARD + n) * es, GUARD, t);
        p += (n + 2 * GUARD) * es;
    }
    c->input_hash = att_hash_bytes(q, len);
    c->request = q;
    c->request_len = len;
    c->reply_len = reply;
    return JUDGE_OK;
}

judge_status judge_session_new(judge_session **out, const judge_meta *m, uint64_t seed)
{
    *out = NULL;
    const judge_ops *ops = judge_ops_for(m);
    if (!ops) return JUDGE_ENOPROBLEM;
    judge_session *s = calloc(1, sizeof *s);
    if (!s) return JUDGE_ENOMEM;
    s->m = m;
    s->ops = ops;
    s->seed = seed;
    s->compiled = -1;
    s->probe_case = -1;
    judge_status st = JUDGE_ENOMEM;
    /* Room for the calls: one per case, and up to MAX_PROBE more for each
     * probed case (one per position perturbed). */
    int n = 0;
    s->cases = calloc((size_t)m->n_cases, sizeof *s->cases);
    if (!s->cases) goto fail;
    for (int i = 0; i < m->n_cases; i++)
        n += 1 + (m->cases[i].probe && ops->probe_len ? MAX_PROBE : 0);
    s->calls = calloc((size_t)n, sizeof *s->calls);
    if (!s->calls) goto fail;
    for (int i = 0; i < m->n_cases; i++) {
        const judge_case *cs = &m->cases[i];
        call *c = &s->calls[s->n_calls];
        s->cases[i].call = s->n_calls++;
        c->case_index = i;
        c->probe_pos = -1;
        if ((st = alloc_args(&c->args, m, cs))) goto fail;
        ops->make_inputs(&c->args, cs, seed, i);
        for (int t = 0; t < cs->n_tensors; t++) {
            int p = judge_param_index(m, cs->tensors[t].param);
            if (p < 0 || cs->tensors[t].n != c->args.len[p]) { st = JUDGE_EBADCASE; goto fail; }
            /* Example values are floats in the table; an int input gets them
             * converted (the generator checked they are exact integers). */
            if (m->params[p].type == JUDGE_I32)
                for (size_t e = 0; e < cs->tensors[t].n; e++)
                    ((int *)c->args.buf[p])[e] = (int)cs->tensors[t].data[e];
            else
                memcpy(c->args.buf[p], cs->tensors[t].data, cs->tensors[t].n * sizeof(float));
        }
        if ((st = prepare_call(s, c))) goto fail;
        if (!cs->probe || !ops->probe_len) continue;
        s->probe_case = i;
        int len = ops->probe_len(&c->args);
        if (len > MAX_PROBE) { st = JUDGE_EBADCASE; goto fail; }
        for (int j = 0; j < len; j++) {
            call *pc = &s->calls[s->n_calls++];
            pc->case_index = i;
            pc->probe_pos = j;
            if ((st = copy_args(&pc->args, &s->calls[s->cases[i].call].args))) goto fail;
            ops->probe_perturb(&pc->args, j);
            if ((st = prepare_call(s, pc))) goto fail;
        }
    }
    *out = s;
    return JUDGE_OK;
fail:
    judge_session_free(s);
    return st;
}

void judge_session_free(judge_session *s)
{
    if (!s) return;
    for (int i = 0; i < s->n_calls; i++) {
        call *c = &s->calls[i];
        free_args(&c->args);
        free_outputs(c->expect);
        free_outputs(c->got);
        free(c->request);
        free(c->detail);
    }
    if (s->cases)
        for (int i = 0; i < s->m->n_cases; i++) free(s->cases[i].detail);
    free(s->calls);
    free(s->cases);
    free(s->diagnostics);
    free(s->file);
    free(s->output);
    free(s->report.s);
    free(s);
}

int judge_session_calls(const judge_session *s) { return s->n_calls; }

judge_status judge_session_request(judge_session *s, int k, const unsigned char **bytes,
                                   size_t *len)
{
    if (k < 0 || k >= s->n_calls) return JUDGE_EBADCALL;
    *bytes = s->calls[k].request;
    *len = s->calls[k].request_len;
    return JUDGE_OK;
}

size_t judge_session_reply_len(const judge_session *s, int k)
{
    return k < 0 || k >= s->n_calls ? 0 : s->calls[k].reply_len;
}

static char *dup_str(const char *t)
{
    size_t n = strlen(t) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, t, n);
    return d;
}

void judge_session_fault(judge_session *s, int k, judge_verdict v, const char *detail)
{
    if (k < 0 || k >= s->n_calls || s->calls[k].fault != JUDGE_AC) return;
    s->calls[k].fault = v;
    if (v == JUDGE_MLE && s->m->mle_hint) {
        /* Said here, so every backend's MLE carries the problem's reason. */
        size_t n = strlen(detail) + strlen(s->m->mle_hint) + 3;
        if ((s->calls[k].detail = malloc(n)))
            snprintf(s->calls[k].detail, n, "%s. %s", detail, s->m->mle_hint);
        return;
    }
    s->calls[k].detail = dup_str(detail);
}

/* The first guard element not left as canary: its index relative to the
 * buffer (negative before it), or 0 with *ok = 1 when both guards are intact. */
static long guard_breach(const unsigned char *region, size_t n, judge_type t, int *ok)
{
    size_t es = judge_elem_size(t);
    unsigned char canary[GUARD * 8];
    fill_canary(canary, GUARD, t);
    *ok = 0;
    for (size_t g = 0; g < GUARD; g++)   /* nearest to the buffer first */
        if (memcmp(region + (GUARD - 1 - g) * es, canary, es)) return -(long)g - 1;
    for (size_t g = 0; g < GUARD; g++)
        if (memcmp(region + (GUARD + n + g) * es, canary, es)) return (long)(n + g);
    *ok = 1;
    return 0;
}

judge_status judge_session_reply(judge_session *s, int k, const unsigned char *bytes, size_t len)
{
    if (k < 0 || k >= s->n_calls) return JUDGE_EBADCALL;
    call *c = &s->calls[k];
    uint32_t magic, idx;
    uint64_t ns;
    if (len != c->reply_len) goto garbled;
    memcpy(&magic, bytes, 4);
    memcpy(&idx, bytes + 4, 4);
    memcpy(&ns, bytes + 8, 8);
    if (magic != JUDGE_WIRE_REPLY || idx != (uint32_t)k) goto garbled;
    c->ms = (double)ns / 1e6;
    const unsigned char *p = bytes + 16;
    for (int i = 0; i < s->m->n_params; i++) {
        if (!c->args.buf[i]) continue;
        const judge_param *pa = &s->m->params[i];
        size_t es = judge_elem_size(pa->type), n = c->args.len[i];
        int ok;
        long at = guard_breach(p, n, pa->type, &ok);
        if (!ok) {
            char why[256];
            snprintf(why, sizeof why, "wrote %s[%ld], %s: %s has %zu elements, indices 0 to %zu",
                     pa->name, at, at < 0 ? "before its start" : "past its end",
                     pa->name, n, n - 1);
            judge_session_fault(s, k, JUDGE_RE, why);
            return JUDGE_OK;
        }
        if (pa->is_out) {
            c->got[i] = malloc(n ? n * es : 1);
            if (!c->got[i]) return JUDGE_ENOMEM;
            memcpy(c->got[i], p + GUARD * es, n * es);
        }
        p += (n + 2 * GUARD) * es;
    }
    c->answered = 1;
    return JUDGE_OK;
garbled:
    judge_session_fault(s, k, JUDGE_RE, "the program's reply to the judge was garbled "
                        "(did the code write to file descriptor 3?)");
    return JUDGE_EPROTOCOL;
}

void judge_session_compiled(judge_session *s, int ok, const char *diagnostics)
{
    s->compiled = ok ? 1 : 0;
    free(s->diagnostics);
    s->diagnostics = dup_str(diagnostics ? diagnostics : "");
}

void judge_session_output(judge_session *s, const char *text, size_t len)
{
    free(s->output);
    s->output = malloc(len + 1);
    if (!s->output) return;
    memcpy(s->output, text, len);
    s->output[len] = 0;
    s->output_len = len;
}

void judge_session_set_file(judge_session *s, const char *path)
{
    free(s->file);
    s->file = dup_str(path);
}

/* ---- deciding ---- */

/* One buffer: floats with the problem's tolerance, integers exactly. */
static void compare_buffer(att_cmp *r, judge_type t, const void *got, const void *want,
                           size_t n, double atol, double rtol)
{
    if (t == JUDGE_F32) {
        att_compare(r, got, want, n, atol, rtol);
        return;
    }
    memset(r, 0, sizeof *r);
    r->n = n;
    r->first_bad = r->worst = n;
    for (size_t i = 0; i < n; i++) {
        double g = judge_elem_value(t, got, i), e = judge_elem_value(t, want, i);
        /* As integers: two int64 values 1 apart above 2^53 are one double. */
        if (t == JUDGE_I64 ? ((const long long *)got)[i] == ((const long long *)want)[i] : g == e)
            continue;
        if (r->n_bad++ == 0) r->first_bad = r->worst = i;
        r->max_ratio = INFINITY;
        if (fabs(g - e) > r->max_abs) r->max_abs = fabs(g - e);
        if (e != 0 && fabs(g - e) / fabs(e) > r->max_rel) r->max_rel = fabs(g - e) / fabs(e);
    }
}

/* Compare a call's outputs with `want` (per out param); fills cmp over all
 * outputs together and where the first bad element is. */
static void compare_outputs(const judge_session *s, const call *c, void *const *want,
                            att_cmp *total, int *bad_param, size_t *bad_index)
{
    memset(total, 0, sizeof *total);
    *bad_param = -1;
    *bad_index = 0;
    for (int i = 0; i < s->m->n_params; i++) {
        if (!s->m->params[i].is_out) continue;
        att_cmp r;
        compare_buffer(&r, s->m->params[i].type, c->got[i], want[i], c->args.len[i],
                       s->m->atol, s->m->rtol);
        if (r.n_bad && *bad_param < 0) {
            *bad_param = i;
            *bad_index = r.first_bad;
        }
        total->n += r.n;
        total->n_bad += r.n_bad;
        if (r.max_abs > total->max_abs) total->max_abs = r.max_abs;
        if (r.max_rel > total->max_rel) total->max_rel = r.max_rel;
        if (r.max_ratio > total->max_ratio) total->max_ratio = r.max_ratio;
    }
}

static void check_case(judge_session *s, int ci)
{
    case_result *r = &s->cases[ci];
    const call *c = &s->calls[r->call];
    r->ms = c->ms;
    if (c->fault != JUDGE_AC) {
        r->verdict = c->fault;
        r->detail = dup_str(c->detail);
        return;
    }
    if (!c->answered) {
        r->verdict = JUDGE_SKIPPED;
        return;
    }
    compare_outputs(s, c, c->expect, &r->cmp, &r->bad_param, &r->bad_index);
    for (int i = 0; i < s->m->n_params; i++) {
        const judge_param *p = &s->m->params[i];
        if (!p->is_out || p->is_in) continue;
        size_t es = judge_elem_size(p->type);
        unsigned char canary[8];
        fill_canary(canary, 1, p->type);
        for (size_t e = 0; e < c->args.len[i]; e++)
            r->unwritten += !memcmp((unsigned char *)c->got[i] + e * es, canary, es);
    }
    r->verdict = r->cmp.n_bad ? JUDGE_WA : JUDGE_AC;
}

/* Which output rows moved when each position was perturbed: yours from the
 * learner's outputs, expected from the reference's. */
static void check_probe(judge_session *s)
{
    int ci = s->probe_case;
    if (ci < 0) return;
    case_result *r = &s->cases[ci];
    const call *base = &s->calls[r->call];
    int out = 0;   /* probes watch the first output, a float one */
    while (!s->m->params[out].is_out) out++;
    if (s->m->params[out].type != JUDGE_F32) return;
    int n = 0;
    while (r->call + 1 + n < s->n_calls && s->calls[r->call + 1 + n].case_index == ci) {
        if (!s->calls[r->call + 1 + n].answered) return;   /* the run ended early */
        n++;
    }
    if (!base->answered) return;
    probe_picture *pp = &s->probe;
    pp->n = n;
    pp->rows = n;
    for (int i = 0; i < n; i++) {    /* the rows stop where the queries do (T < S) */
        size_t start, len;
        s->ops->probe_row(&base->args, i, &start, &len);
        if (!len) { pp->rows = i; break; }
    }
    for (int j = 0; j < n; j++) {
        const call *pc = &s->calls[r->call + 1 + j];
        for (int i = 0; i < pp->rows; i++) {
            size_t start, len;
            s->ops->probe_row(&pc->args, i, &start, &len);
            att_cmp a, b;
            const float *yours = pc->got[out], *yours0 = base->got[out];
            const float *want = pc->expect[out], *want0 = base->expect[out];
            att_compare(&a, yours + start, yours0 + start, len, s->m->atol, s->m->rtol);
            att_compare(&b, want + start, want0 + start, len, s->m->atol, s->m->rtol);
            pp->yours[i][j] = a.n_bad > 0;
            pp->expected[i][j] = b.n_bad > 0;
            pp->differs |= pp->yours[i][j] != pp->expected[i][j];
        }
    }
    if (pp->differs && r->verdict == JUDGE_AC) {
        r->verdict = JUDGE_WA;
        r->detail = dup_str("every output here is right, yet changing one token moves outputs "
                            "it must not (or fails to move ones it must): see the mask picture");
    }
}

/* A mistake explains the submission when its outputs match the learner's on
 * every answered case (a few elements apart at most: overflowing mistakes
 * tip over at slightly different places) and it is wrong somewhere. */
static int mistake_mismatch(judge_session *s, const judge_mistake *mk, size_t *mismatch)
{
    int wrong_somewhere = 0;
    *mismatch = 0;
    for (int ci = 0; ci < s->m->n_cases; ci++) {
        const call *c = &s->calls[s->cases[ci].call];
        if (!c->answered || c->fault != JUDGE_AC) continue;
        void *sim[JUDGE_MAX_PARAMS] = { 0 };
        int ok = alloc_outputs(sim, &c->args) == JUDGE_OK;
        if (ok) {
            mk->run(sim, &c->args);
            att_cmp r;
            int bp;
            size_t bi;
            compare_outputs(s, c, sim, &r, &bp, &bi);
            if (r.n_bad * 100 > r.n) ok = 0;
            *mismatch += r.n_bad;
            if (s->cases[ci].verdict == JUDGE_WA) wrong_somewhere = 1;
        }
        free_outputs(sim);
        if (!ok) return 0;
    }
    return wrong_somewhere;
}

static void name_mistake(judge_session *s)
{
    size_t best = (size_t)-1;
    for (int i = 0; i < s->ops->n_mistakes; i++) {
        size_t mismatch;
        if (mistake_mismatch(s, &s->ops->mistakes[i], &mismatch) && mismatch < best) {
            best = mismatch;
            s->mistake = &s->ops->mistakes[i];
        }
    }
}

void judge_session_finish(judge_session *s)
{
    if (s->finished) return;
    s->finished = 1;
    s->verdict = JUDGE_AC;
    s->verdict_case = -1;
    if (s->compiled == 0) {
        s->verdict = JUDGE_CE;
        return;
    }
    for (int ci = 0; ci < s->m->n_cases; ci++) check_case(s, ci);
    check_probe(s);
    for (int ci = 0; ci < s->m->n_cases; ci++) {
        judge_verdict v = s->cases[ci].verdict;
        if (v != JUDGE_AC && v != JUDGE_SKIPPED) {
            s->verdict = v;
            s->verdict_case = ci;
            break;
        }
    }
    if (s->verdict == JUDGE_AC) {
        /* Nothing wrong, but was everything run? (A judge that stopped early
         * must never say AC.) */
        for (int ci = 0; ci < s->m->n_cases; ci++)
            if (s->cases[ci].verdict == JUDGE_SKIPPED) {
                s->verdict = JUDGE_RE;
                s->verdict_case = ci;
                s->cases[ci].detail = dup_str("the run ended before this case");
                break;
            }
    }
    if (s->verdict == JUDGE_WA) name_mistake(s);
}

judge_verdict judge_session_verdict(const judge_session *s) { return s->verdict; }
