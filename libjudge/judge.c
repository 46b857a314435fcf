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
#include "form.h"
#include "session.h"

/* ---- names ---- */
const char *judge_verdict_code(judge_verdict v)
{
    switch (v) {
#define JUDGE_V(code) case JUDGE_##code: return #code;
        JUDGE_VERDICT_LIST(JUDGE_V)
#undef JUDGE_V
    case JUDGE_SKIPPED: break;
    }
    return "--";
}

const char *judge_verdict_text(judge_verdict v, judge_lang lang)
{
    switch (v) {
#define JUDGE_V(code) case JUDGE_##code: return judge_msg_text(JUDGE_MSG_VERDICT_##code, lang);
        JUDGE_VERDICT_LIST(JUDGE_V)
#undef JUDGE_V
    case JUDGE_SKIPPED: break;
    }
    return judge_msg_text(JUDGE_MSG_VERDICT_SKIPPED, lang);
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
    case JUDGE_I8: return ((const signed char *)buf)[i];
    case JUDGE_INT: break;
    }
    return 0.0;
}

void judge_coord(char *buf, size_t n, judge_lang lang, int msg, ...)
{
    size_t used = strlen(buf);
    if (used && used + 2 < n) {
        memcpy(buf + used, ", ", 3);
        used += 2;
    }
    if (used >= n) return;
    va_list ap;
    va_start(ap, msg);
    vsnprintf(buf + used, n - used, judge_msg_text(msg, lang), ap);
    va_end(ap);
}

void judge_fill_mask(unsigned char *mask, int B, int n, const char *kind, uint64_t seed,
                     uint64_t stream, int first_empty)
{
    for (int b = 0; b < B; b++) {
        int pad = (b + 1) * n / (B + 2);
        for (int j = 0; j < n; j++) {
            unsigned char real = 1;
            if (!strcmp(kind, "right")) real = j < n - pad;
            else if (!strcmp(kind, "left")) real = j >= pad;
            else if (!strcmp(kind, "random"))
                real = !(first_empty && b == 0) && (att_rng_u64(seed, stream, (uint64_t)(b * n + j)) & 3) != 0;
            mask[b * n + j] = real;
        }
    }
}

void judge_sign(float *x, size_t n, int sign)
{
    float top = 0.0f;
    for (size_t i = 0; i < n; i++) top = fmaxf(top, fabsf(x[i]));
    if (top == 0.0f) return;
    /* A power-of-2 step of top/128 to top/64: at most 8 significant bits per
     * value, so the products of two and their sums over a head are exact in
     * float, in any order. Scores this large would otherwise be rounded by
     * about 1e-5, a tenth of some problems' tolerance, in correct code. */
    float step = ldexpf(1.0f, ilogbf(top) - 6);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)sign * step * roundf(0.5f * (fabsf(x[i]) + top) / step);
}

double judge_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void free_args(judge_args *a)
{
    for (int i = 0; i < JUDGE_MAX_PARAMS; i++) free(a->buf[i]);
}

/* The elements of buffer param p by its shape, with a's ints; 0 when a
 * dimension is not positive. */
static size_t shape_len(const judge_param *p, const judge_args *a)
{
    size_t n = 1;
    for (int d = 0; d < p->rank; d++) {
        int len = a->ints[p->dims[d]] + p->dims_plus[d];
        if (len <= 0) return 0;
        n *= (size_t)len;
    }
    return n;
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
        size_t n = shape_len(p, a);
        if (!n) return JUDGE_EBADCASE;
        a->len[i] = n;
        if (p->nullable && !strcmp(c->mask, "none")) continue;
        a->buf[i] = calloc(n, judge_elem_size(p->type));
        if (!a->buf[i]) return JUDGE_ENOMEM;
    }
    return JUDGE_OK;
}

/* On failure dst holds only what it allocated, for free_args. */
static judge_status copy_args(judge_args *dst, const judge_args *src)
{
    *dst = *src;
    memset(dst->buf, 0, sizeof dst->buf);
    for (int i = 0; i < JUDGE_MAX_PARAMS; i++) {
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

static void fill_canary(unsigned char *p, size_t n, judge_type t, uint32_t f32)
{
    if (t != JUDGE_F32) {
        memset(p, CANARY_BYTE, n * judge_elem_size(t));
        return;
    }
    for (size_t i = 0; i < n; i++) memcpy(p + 4 * i, &f32, 4);
}

/* Whether float element e is the canary c, or its quiet twin. */
static int is_canary(const void *buf, size_t e, uint32_t c)
{
    uint32_t bits;
    memcpy(&bits, (const float *)buf + e, 4);
    return (bits | 0x00400000u) == (c | 0x00400000u);
}

/* Whether output element e is still the canary: never written, or only
 * added to (`+=` into an output never zeroed first). */
static int never_written(judge_type t, const void *buf, size_t e)
{
    if (t == JUDGE_F32) return is_canary(buf, e, CANARY_F32);
    unsigned char canary[8];
    fill_canary(canary, 1, t, 0);
    return !memcmp((const unsigned char *)buf + e * judge_elem_size(t), canary, judge_elem_size(t));
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

/* The reference's outputs for a (in outs, allocated here) and its time. */
static judge_status timed_reference(const judge_ops *ops, void **outs, const judge_args *a, double *ms)
{
    if (alloc_outputs(outs, a)) return JUDGE_ENOMEM;
    double t0 = judge_now_ms();
    judge_status st = ops->reference(outs, a);
    *ms = judge_now_ms() - t0;
    return st;
}

/* The reference timed again on call c's inputs, its outputs dropped. A paced
 * session (speed.c) does it right after each of the learner's calls, so the
 * two alternate and a machine whose speed drifts during the runs slows both
 * alike; the time taken when the session was made stays if this fails. */
static void time_reference_again(judge_session *s, call *c)
{
    void *outs[JUDGE_MAX_PARAMS] = { 0 };
    double ms;
    if (timed_reference(s->ops, outs, &c->args, &ms) == JUDGE_OK) c->ref_ms = ms;
    free_outputs(outs);
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

judge_status judge_time_speed_core(const judge_meta *m, const unsigned char *req, size_t len, double *ms)
{
    const judge_ops *ops = judge_ops_for(m);
    if (!ops) return JUDGE_ENOPROBLEM;
    judge_ops core = judge_speed_ops(ops);
    judge_args a = { .meta = m };
    size_t at = 12 + 16 * (size_t)m->n_params;
    if (len < at || get_u32(req) != JUDGE_WIRE_REQUEST || get_u32(req + 8) != (uint32_t)m->n_params)
        return JUDGE_EPROTOCOL;
    for (int i = 0; i < m->n_params; i++) {
        const unsigned char *d = req + 12 + 16 * (size_t)i;
        if (get_u32(d) != (uint32_t)m->params[i].type) return JUDGE_EPROTOCOL;
        if (m->params[i].type == JUDGE_INT) a.ints[i] = (int)get_u32(d + 8);
    }
    /* Each buffer as long as its shape says with these ints, as the core reads it. */
    for (int i = 0; i < m->n_params; i++) {
        const judge_param *p = &m->params[i];
        const unsigned char *d = req + 12 + 16 * (size_t)i;
        if (p->type == JUDGE_INT) continue;
        if (get_u32(d + 4)) {   /* passed as NULL */
            if (!p->nullable) return JUDGE_EPROTOCOL;
            continue;
        }
        size_t es = judge_elem_size(p->type), n = get_u32(d + 8), guard = get_u32(d + 12);
        if (!n || n != shape_len(p, &a) || ((uint64_t)n + 2 * (uint64_t)guard) * es > len - at)
            return JUDGE_EPROTOCOL;
        a.buf[i] = (void *)(req + at + guard * es);   /* read only: the kernels take const inputs */
        a.len[i] = n;
        at += (n + 2 * guard) * es;
    }
    void *outs[JUDGE_MAX_PARAMS] = { 0 };
    judge_status st = timed_reference(&core, outs, &a, ms);
    free_outputs(outs);
    return st;
}

void judge_session_core_timed(judge_session *s, int k, double ms)
{
    if (k < 0 || k >= s->n_calls) return;
    s->calls[k].ref_ms = ms;
    s->calls[k].core_timed = 1;
}

/* Compute the expected outputs (timing the reference) and build the request. */
static judge_status prepare_call(judge_session *s, call *c)
{
    const judge_meta *m = s->m;
    judge_status st = timed_reference(s->ops, c->expect, &c->args, &c->ref_ms);
    if (st) return st;

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
        fill_canary(p, GUARD, t, CANARY_GUARD_F32);
        if (m->params[i].is_in) memcpy(p + GUARD * es, c->args.buf[i], n * es);
        else fill_canary(p + GUARD * es, n, t, CANARY_F32);
        fill_canary(p + (GUARD + n) * es, GUARD, t, CANARY_GUARD_F32);
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
    return judge_session_new_ops(out, m, ops, seed);
}

judge_session *judge_session_alloc(const judge_meta *m, const judge_ops *ops, uint64_t seed, int n_calls)
{
    judge_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->m = m;
    s->ops = ops;
    s->seed = seed;
    s->compiled = -1;
    s->probe_case = -1;
    s->state_case = s->state_from = -1;
    s->cases = calloc((size_t)m->n_cases, sizeof *s->cases);
    s->calls = calloc((size_t)n_calls, sizeof *s->calls);
    if (!s->cases || !s->calls) {
        judge_session_free(s);
        return NULL;
    }
    return s;
}

judge_status judge_call_copy(call *c, const call *from, const judge_meta *m, int k)
{
    c->case_index = from->case_index;
    c->probe_pos = from->probe_pos;
    c->input_hash = from->input_hash;
    c->ref_ms = from->ref_ms;
    c->request_len = from->request_len;
    c->reply_len = from->reply_len;
    if (copy_args(&c->args, &from->args) || alloc_outputs(c->expect, &c->args) ||
        !(c->request = malloc(from->request_len)))
        return JUDGE_ENOMEM;
    memcpy(c->request, from->request, from->request_len);
    unsigned char *index = c->request + 4;   /* the request names its call, after its magic (prepare_call) */
    put_u32(&index, (uint32_t)k);
    for (int i = 0; i < m->n_params; i++)
        if (c->expect[i]) memcpy(c->expect[i], from->expect[i], c->args.len[i] * judge_elem_size(m->params[i].type));
    return JUDGE_OK;
}

judge_status judge_session_new_ops(judge_session **out, const judge_meta *m, const judge_ops *ops,
                                   uint64_t seed)
{
    *out = NULL;
    /* Room for the calls: one per case, and up to MAX_PROBE more for each
     * probed case (one per position perturbed). */
    int n = 0;
    for (int i = 0; i < m->n_cases; i++)
        n += 1 + (m->cases[i].probe && m->attention ? MAX_PROBE : 0);
    judge_session *s = judge_session_alloc(m, ops, seed, n);
    if (!s) return JUDGE_ENOMEM;
    judge_status st = JUDGE_ENOMEM;
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
            else if (m->params[p].type == JUDGE_I8)
                for (size_t e = 0; e < cs->tensors[t].n; e++)
                    ((signed char *)c->args.buf[p])[e] = (signed char)cs->tensors[t].data[e];
            else
                memcpy(c->args.buf[p], cs->tensors[t].data, cs->tensors[t].n * sizeof(float));
        }
        if (cs->probe && m->attention) form_probe_base(&c->args);
        if ((st = prepare_call(s, c))) goto fail;
        if (!cs->probe || !m->attention) continue;
        s->probe_case = i;
        int len = form_probe_len(&c->args);
        if (len > MAX_PROBE) { st = JUDGE_EBADCASE; goto fail; }
        for (int j = 0; j < len; j++) {
            call *pc = &s->calls[s->n_calls++];
            pc->case_index = i;
            pc->probe_pos = j;
            if ((st = copy_args(&pc->args, &s->calls[s->cases[i].call].args))) goto fail;
            form_probe_perturb(&pc->args, j);
            if ((st = prepare_call(s, pc))) goto fail;
        }
    }
    *out = s;
    return JUDGE_OK;
fail:
    judge_session_free(s);
    return st;
}

/* Everything judge_session_new_ops sets, and nothing judging sets. */
judge_status judge_session_copy(judge_session **out, const judge_session *blank)
{
    *out = NULL;
    if (blank->compiled != -1 || blank->speed || blank->want_speed) return JUDGE_EBADCALL;
    for (int k = 0; k < blank->n_calls; k++)
        if (blank->calls[k].answered || blank->calls[k].fault != JUDGE_AC) return JUDGE_EBADCALL;
    judge_session *s = judge_session_alloc(blank->m, blank->ops, blank->seed, blank->n_calls);
    if (!s) return JUDGE_ENOMEM;
    s->probe_case = blank->probe_case;
    for (int i = 0; i < blank->m->n_cases; i++) s->cases[i].call = blank->cases[i].call;
    for (int k = 0; k < blank->n_calls; k++)   /* each counted first: freed with s if its copy fails */
        if (judge_call_copy(&s->calls[s->n_calls++], &blank->calls[k], blank->m, k)) {
            judge_session_free(s);
            return JUDGE_ENOMEM;
        }
    *out = s;
    return JUDGE_OK;
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
        for (int a = 0; a < c->why.n_args; a++) free(c->why.text[a]);
    }
    free(s->calls);
    free(s->cases);
    free(s->diagnostics);
    free(s->file);
    free(s->output);
    free(s->report.s);
    judge_speed_free(s->speed);
    judge_fresh_free(s->fresh);
    free(s);
}

int judge_session_calls(const judge_session *s) { return s->n_calls; }

int judge_session_paced(const judge_session *s) { return s->paced; }

const judge_meta *judge_session_meta(const judge_session *s) { return s->m; }
judge_lang judge_session_lang(const judge_session *s) { return s->lang; }

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

void judge_session_fault(judge_session *s, int k, judge_verdict v, judge_msg msg,
                         const judge_arg *args, int n_args)
{
    if (k < 0 || k >= s->n_calls || s->calls[k].fault != JUDGE_AC) return;
    call *c = &s->calls[k];
    c->fault = v;
    c->why.msg = msg;
    /* Decided here, so every backend's MLE carries the problem's reason. */
    c->why.mle_hint = v == JUDGE_MLE && s->m->mle_hint[JUDGE_LANG_EN];
    if (n_args > JUDGE_MAX_ARGS) n_args = JUDGE_MAX_ARGS;
    for (int a = 0; a < n_args; a++) {
        c->why.arg_msg[a] = args[a].msg;
        if (args[a].text && !(c->why.text[a] = dup_str(args[a].text))) s->lost = 1;
        c->why.n_args = a + 1;
    }
}

/* The first guard element not left as canary: its index relative to the
 * buffer (negative before it), or 0 with *ok = 1 when both guards are intact. */
static long guard_breach(const unsigned char *region, size_t n, judge_type t, int *ok)
{
    size_t es = judge_elem_size(t);
    unsigned char canary[GUARD * 8];
    fill_canary(canary, GUARD, t, CANARY_GUARD_F32);
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
    if (c->answered || c->fault != JUDGE_AC) return JUDGE_EBADCALL;   /* one reply a call */
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
            char index[24], len[24], last[24];
            snprintf(index, sizeof index, "%ld", at);
            snprintf(len, sizeof len, "%zu", n);
            snprintf(last, sizeof last, "%zu", n - 1);
            judge_arg why[] = { JUDGE_TEXT(pa->name), JUDGE_TEXT(index), JUDGE_TEXT(pa->name),
                                JUDGE_TEXT(len), JUDGE_TEXT(last) };
            /* Only a stray write reaches an input's guard: the learner's code
             * is handed it const. Scratch space (neither in nor out) is the
             * learner's to write, as an output is. */
            judge_msg what = !pa->is_in || pa->is_out
                ? (at < 0 ? JUDGE_MSG_DETAIL_GUARD_BEFORE : JUDGE_MSG_DETAIL_GUARD_AFTER)
                : (at < 0 ? JUDGE_MSG_DETAIL_GUARD_INPUT_BEFORE : JUDGE_MSG_DETAIL_GUARD_INPUT_AFTER);
            judge_session_fault(s, k, JUDGE_RE, what, why, 5);
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
    if (s->paced && !c->core_timed) time_reference_again(s, c);
    return JUDGE_OK;
garbled:
    judge_session_fault(s, k, JUDGE_RE, JUDGE_MSG_DETAIL_GARBLED, NULL, 0);
    return JUDGE_EPROTOCOL;
}

void judge_session_compiled(judge_session *s, int ok, const char *diagnostics)
{
    s->compiled = ok ? 1 : 0;
    free(s->diagnostics);
    if (!(s->diagnostics = dup_str(diagnostics ? diagnostics : ""))) s->lost = 1;
}

void judge_session_output(judge_session *s, const char *text, size_t len)
{
    free(s->output);
    s->output = malloc(len + 1);
    if (!s->output) {
        s->lost = 1;
        return;
    }
    memcpy(s->output, text, len);
    s->output[len] = 0;
    s->output_len = len;
}

void judge_session_set_file(judge_session *s, const char *path)
{
    free(s->file);
    if (!(s->file = dup_str(path))) s->lost = 1;
}

void judge_session_set_lang(judge_session *s, judge_lang lang)
{
    s->lang = lang == JUDGE_LANG_ZH ? JUDGE_LANG_ZH : JUDGE_LANG_EN;
}

/* ---- deciding ---- */

/* Element e of two integer buffers, compared as integers: two int64 values
 * 1 apart above 2^53 are one double. */
static int same_int(judge_type t, const void *a, const void *b, size_t e)
{
    if (t == JUDGE_I64) return ((const long long *)a)[e] == ((const long long *)b)[e];
    return judge_elem_value(t, a, e) == judge_elem_value(t, b, e);
}

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
        double e = judge_elem_value(t, want, i), gap = fabs(judge_elem_value(t, got, i) - e);
        if (same_int(t, got, want, i)) continue;
        if (t == JUDGE_I64) {   /* in integers: two counts near 1e17 that are 8 apart are 0 apart as doubles */
            unsigned long long g = (unsigned long long)((const long long *)got)[i];
            unsigned long long w = (unsigned long long)((const long long *)want)[i];
            gap = (double)(((const long long *)got)[i] > ((const long long *)want)[i] ? g - w : w - g);
        }
        if (r->n_bad++ == 0) r->first_bad = r->worst = i;
        r->max_ratio = INFINITY;
        if (gap > r->max_abs) r->max_abs = gap;
        r->max_rel = e == 0 ? INFINITY : fmax(r->max_rel, gap / fabs(e));
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
        if (isnan(r.max_abs) || r.max_abs > total->max_abs) total->max_abs = r.max_abs;   /* NaN stays */
        if (isnan(r.max_rel) || r.max_rel > total->max_rel) total->max_rel = r.max_rel;
        if (r.max_ratio > total->max_ratio) total->max_ratio = r.max_ratio;
    }
}

/* An element within the tolerance, as att_compare has it. */
static int within(double got, double want, double atol, double rtol)
{
    if (!isfinite(want)) return got == want || (isnan(got) && isnan(want));
    return fabs(got - want) <= atol + rtol * fabs(want);
}

static void check_case(judge_session *s, int ci)
{
    case_result *r = &s->cases[ci];
    const call *c = &s->calls[r->call];
    r->ms = c->ms;
    if (c->fault != JUDGE_AC) {
        r->verdict = c->fault;
        r->why = &c->why;
        return;
    }
    if (!c->answered) {
        r->verdict = JUDGE_SKIPPED;
        return;
    }
    compare_outputs(s, c, c->expect, &r->cmp, &r->bad_param, &r->bad_index);
    for (int i = 0; i < s->m->n_params; i++) {
        const judge_param *p = &s->m->params[i];
        if (!p->is_out) continue;
        /* Where its wrong elements lie, for an output with some. */
        size_t n[N_SLICES] = { 0 }, w[N_SLICES] = { 0 }, wrong = 0;
        for (size_t e = 0; e < c->args.len[i] && r->cmp.n_bad; e++) {
            int slice = form_slice(&c->args, i, e), bad = p->type == JUDGE_F32
                ? !within(judge_elem_value(p->type, c->got[i], e), judge_elem_value(p->type, c->expect[i], e),
                          s->m->atol, s->m->rtol)
                : !same_int(p->type, c->got[i], c->expect[i], e);
            slice = slice < 0 ? SLICE_NO_AXES : slice;
            n[slice]++;
            w[slice] += bad;
            wrong += bad;
        }
        for (int k = 0; k < N_SLICES && wrong; k++) {
            r->slice_n[k] += n[k];
            r->slice_wrong[k] += w[k];
        }
        for (size_t e = 0; e < c->args.len[i] && !p->is_in; e++) {
            r->unwritten += never_written(p->type, c->got[i], e);
            r->read_outside += p->type == JUDGE_F32 && is_canary(c->got[i], e, CANARY_GUARD_F32);
        }
    }
    r->verdict = r->cmp.n_bad ? JUDGE_WA : JUDGE_AC;
}

static int degenerate(const judge_session *s, const call *c);

/* Whether call c returned bit for bit what call e did (both answered), in
 * the outputs it writes afresh (an inout, such as a cache, moves on anyway). */
static int same_answer(const judge_session *s, const call *c, const call *e)
{
    for (int i = 0; i < s->m->n_params; i++)
        if (s->m->params[i].is_out && !s->m->params[i].is_in &&
            (c->args.len[i] != e->args.len[i] ||
             memcmp(c->got[i], e->got[i], c->args.len[i] * judge_elem_size(s->m->params[i].type))))
            return 0;
    return 1;
}

/* Whether any output is written fresh, not over an input. */
static int fresh_outputs(const judge_meta *m)
{
    for (int i = 0; i < m->n_params; i++)
        if (m->params[i].is_out && !m->params[i].is_in) return 1;
    return 0;
}

/* State kept between calls: a wrong case that returned, bit for bit, what an
 * earlier call of the same shape returned, although its inputs differ. Each
 * problem has such a repeat among its cases (a test holds them to it). Where
 * outputs are written fresh, their bits say it all, and a call of another
 * shape with outputs of the same sizes will do: code that keys what it keeps
 * on too little of the shape. */
static void check_state(judge_session *s)
{
    int any_shape = fresh_outputs(s->m);
    for (int ci = 0; ci < s->m->n_cases; ci++) {
        const call *c = &s->calls[s->cases[ci].call];
        if (s->cases[ci].verdict != JUDGE_WA) continue;
        for (int e = 0; e < ci; e++) {
            const call *ce = &s->calls[s->cases[e].call];
            if (!ce->answered || ce->fault != JUDGE_AC) continue;
            if (!any_shape && memcmp(c->args.ints, ce->args.ints, sizeof c->args.ints)) continue;
            /* All zeros is no memory, nor is noise that ignores the inputs:
             * what is remembered was right when it was computed. */
            if (s->cases[e].verdict != JUDGE_AC || !same_answer(s, c, ce) || degenerate(s, c)) continue;
            s->cases[ci].explained = 1;
            if (s->state_case < 0) {
                s->state_case = ci;
                s->state_from = e;
            }
            break;
        }
    }
}

/* Which output rows moved when each position was perturbed: yours from the
 * learner's outputs, expected from the reference's. */
static void check_probe(judge_session *s)
{
    int ci = s->probe_case;
    if (ci < 0) return;
    case_result *r = &s->cases[ci];
    const call *base = &s->calls[r->call];
    int out = 0, n = 0;
    while (r->call + 1 + n < s->n_calls && s->calls[r->call + 1 + n].case_index == ci) {
        const call *pc = &s->calls[r->call + 1 + n];
        /* A probe's call is one of the case's: a fault there (a crash, a
         * write out of bounds, a loop) is the case's, where the run ended. */
        if (pc->fault != JUDGE_AC && r->verdict == JUDGE_AC) {
            r->verdict = pc->fault;
            r->why = &pc->why;
        }
        if (!pc->answered || pc->fault != JUDGE_AC) return;   /* the run ended early */
        n++;
    }
    if (!base->answered || base->fault != JUDGE_AC) return;
    probe_picture *pp = &s->probe;
    pp->n = n;
    pp->rows = n;
    for (int i = 0; i < n; i++) {    /* the rows stop where the queries do (T < S) */
        size_t start, len;
        ptrdiff_t step;
        form_probe_row(&base->args, i, &out, &start, &len, &step);
        if (!len) { pp->rows = i; break; }
        /* A NaN stays NaN whatever moves (an output never set, say): such
         * rows cannot show which keys a query sees, so there is no picture. */
        for (size_t e = 0; e < len; e++)
            if (isnan(((const float *)base->got[out])[start + e])) {
                memset(pp, 0, sizeof *pp);
                return;
            }
    }
    for (int j = 0; j < n; j++) {
        const call *pc = &s->calls[r->call + 1 + j];
        for (int i = 0; i < pp->rows; i++) {
            size_t start, len;
            ptrdiff_t step;
            form_probe_row(&pc->args, i, &out, &start, &len, &step);
            att_cmp a, b;
            const float *yours = pc->got[out], *yours0 = base->got[out];
            const float *want = pc->expect[out], *want0 = base->expect[out];
            att_compare(&a, yours + start, yours0 + start, len, s->m->atol, s->m->rtol);
            att_compare(&b, want + start, want0 + start, len, s->m->atol, s->m->rtol);
            /* A weight row is its own picture: a query with one key gives it
             * weight 1 however that key moves, yet sees it. */
            size_t at = start + (size_t)j * (size_t)step;
            pp->yours[i][j] = a.n_bad > 0 || (step && yours0[at] != 0);
            pp->expected[i][j] = b.n_bad > 0 || (step && want0[at] != 0);
            pp->differs |= pp->yours[i][j] != pp->expected[i][j];
        }
    }
    if (pp->differs && r->verdict == JUDGE_AC) {
        r->verdict = JUDGE_WA;
        static const told moved = { .msg = JUDGE_MSG_DETAIL_PROBE_MOVED };
        r->why = &moved;
    }
}

/* ---- naming: which mistake explains the learner's wrong outputs ----
 * A mistake's simulation explains a wrong case when, on every element the
 * learner got wrong, it gives what the learner gave: within 4 tolerances (the
 * learner's float code sums in its own order), or NaN where the learner
 * guarded the same 0/0 with a zero; a few misses are allowed where an
 * overflowing mistake tips over at a slightly different place. Elements the
 * learner got right do not have to match (the learner's own guards), but the
 * fewer the simulation gets wrong there, the better it explains. Never from
 * degenerate output alone: a case whose outputs are all one value (zeros,
 * NaN) counts only if the learner computes something real somewhere. */
typedef struct {
    int wrong;            /* wrong cases compared */
    int explained;        /* of which explained */
    int real;             /* an explained case with non-degenerate output */
    size_t excess;        /* elements the simulation gets wrong that the learner got right */
    size_t matched;       /* wrong elements of the explained cases */
    size_t guarded;       /* elements matched only as a guard (below): the weaker, the more */
} fit;

/* A NaN (a 0/0, an exp(-inf - -inf)) one side guards and the other does
 * not: the guard writes 0, or -INFINITY for a log. */
static int guarded(double got, double want)
{
    return isnan(got) != isnan(want) && (got == 0.0 || want == 0.0 || got == -INFINITY || want == -INFINITY);
}

static int close_to(double got, double want, double atol, double rtol)
{
    if (isnan(got) || isnan(want)) return (isnan(got) && isnan(want)) || guarded(got, want);
    if (isinf(want)) return got == want;
    return fabs(got - want) <= 4 * (atol + rtol * fabs(want));
}


/* Is each of call c's outputs one value throughout (zeros, NaN, ...)? */
static int degenerate(const judge_session *s, const call *c)
{
    for (int p = 0; p < s->m->n_params; p++) {
        const judge_param *pa = &s->m->params[p];
        if (!pa->is_out) continue;
        double v0 = judge_elem_value(pa->type, c->got[p], 0);
        for (size_t e = 1; e < c->args.len[p]; e++) {
            double v = judge_elem_value(pa->type, c->got[p], e);
            if (!(v == v0 || (isnan(v) && isnan(v0)))) return 0;
        }
    }
    return 1;
}

/* Case ci against sim; 1 if the simulation explains its wrong outputs. */
static int explains_case(const judge_session *s, int ci, void *const *sim, fit *f)
{
    const call *c = &s->calls[s->cases[ci].call];
    size_t wrong = 0, misses = 0, guards = 0;
    for (int p = 0; p < s->m->n_params; p++) {
        const judge_param *pa = &s->m->params[p];
        if (!pa->is_out) continue;
        int exact = pa->type != JUDGE_F32;
        for (size_t e = 0; e < c->args.len[p]; e++) {
            double g = judge_elem_value(pa->type, c->got[p], e);
            double x = judge_elem_value(pa->type, c->expect[p], e);
            double m = judge_elem_value(pa->type, sim[p], e);
            if (exact ? same_int(pa->type, c->got[p], c->expect[p], e)
                      : within(g, x, s->m->atol, s->m->rtol)) {
                /* A 0/0 of the simulation the learner guarded is no excess. */
                if (exact) f->excess += !same_int(pa->type, sim[p], c->expect[p], e);
                else if (!within(m, x, s->m->atol, s->m->rtol)) {
                    f->excess += !guarded(g, m);
                    f->guarded += guarded(g, m);
                }
                continue;
            }
            wrong++;
            /* An element never written (still the canary) is explained by
             * nothing. Integers: exact, but for the last bits of a count past
             * 2^53 that a double rounded in another order than the
             * simulation's. */
            misses += (!exact && never_written(pa->type, c->got[p], e)) ||
                      !(exact ? g == m || fabs(g - m) <= 1e-15 * fabs(m)
                              : close_to(g, m, s->m->atol, s->m->rtol));
            guards += !exact && guarded(g, m);
        }
    }
    if (!(wrong > 0 && misses <= wrong / 50)) return 0;
    f->matched += wrong;
    f->guarded += guards;
    return 1;
}

static judge_status simulate(const judge_session *s, void *const *outs, const judge_args *a,
                             const judge_changes *ch, int variant)
{
    return s->ops->simulate ? s->ops->simulate(outs, a, ch, variant) : form_simulate(outs, a, ch, variant);
}

int judge_variants(const judge_ops *ops, const judge_changes *ch)
{
    if (!ops->simulate) return form_variants(ch);
    return ops->variants ? ops->variants(ch) : 1;
}

/* Every wrong case explained, and nothing wrong where the learner is right. */
static int perfect(const fit *f)
{
    return f->explained && f->explained == f->wrong && !f->excess && !f->guarded;
}

/* Wrong in more places the learner got right than it matches where the
 * learner is wrong: no explanation, however it goes on. */
static int refuted(const fit *f)
{
    return f->excess > 2 * f->matched;
}

/* May an explanation of `explained` of `wrong` cases be named? A whole one;
 * a partial one of a single mistake only, of half the wrong cases and two at
 * least (small cases agree with many wrong codes by chance); a pair only
 * partly explaining is too weak a claim to make. */
static int nameable(int explained, int wrong, int pair)
{
    if (explained == wrong) return explained > 0;
    return !pair && explained >= 2 && 2 * explained >= wrong;
}

/* Can f, its wrong cases done, no longer better b (as many mistakes)? Its
 * excess and guards only grow from here, and a tie is no better. */
static int behind(const fit *f, const fit *b)
{
    return f->explained < b->explained ||
           (f->explained == b->explained &&
            (f->excess > b->excess || (f->excess == b->excess && f->guarded >= b->guarded)));
}

volatile sig_atomic_t judge_stop;

/* The search's time limit. Code whose only wrong case is the problem's
 * largest has every way of every mistake simulate that case first: for a
 * last key tile of S % BC keys (wrong only on 55's S = 2048) that took more
 * than ten minutes, on 66 more than two. Past the limit, the best
 * explanation found so far stands and the report says the search was cut
 * short. The corpus's slowest file, 55's lse-last-tile-max, is judged in
 * 1.8 s natively (heap.h) and 7 s in wasm (at rest, search and all); a
 * count of simulated work would name the same mistake on both backends
 * everywhere, but no count tried (case sizes, their squares, passes over
 * the cases) tracked the time across problems: the searches of
 * every_mistake_names_itself spend up to 260 passes. */
enum { SEARCH_MS = 20000 };

/* May the search simulate one more case? */
static int search_goes_on(judge_session *s)
{
    if (judge_stop || judge_now_ms() > s->search_end) s->search_cut = 1;
    return !s->search_cut;
}

/* How well changes ch explain the wrong cases; explained[] marks them. The
 * verdict's case comes first (no explanation that misses it is of any use),
 * then the other wrong cases, then the right ones (counted for excess only).
 * A `pair` of mistakes is tried in the form's common ways alone, and only an
 * explanation of every wrong case is of use, so its first miss ends a way:
 * most end before a long case is simulated. `bound`: the best fit so far of
 * as many mistakes, if any, which a way must be able to better. */
static judge_status fit_changes(judge_session *s, const int *order, const judge_changes *ch, int pair,
                                const fit *bound, fit *best, unsigned char *explained_best)
{
    int nc = s->m->n_cases;
    unsigned char *explained = calloc((size_t)nc, 1);
    if (!explained) return JUDGE_ENOMEM;
    memset(best, 0, sizeof *best);
    judge_status st = JUDGE_OK;
    int n_wrong = 0;   /* the wrong cases a fit compares */
    for (int ci = 0; ci < nc; ci++) {
        const call *c = &s->calls[s->cases[ci].call];
        n_wrong += s->cases[ci].verdict == JUDGE_WA && c->answered && c->fault == JUDGE_AC;
    }
    for (int v = 0; v < judge_variants(s->ops, ch) && !st && !s->search_cut; v++) {
        if (pair && !form_common(v % form_variants(ch))) continue;
        fit f = { 0 };
        int missed = 0;
        memset(explained, 0, (size_t)nc);
        for (int k = 0; k < nc && !st && !missed; k++) {
            int ci = order[k];
            const call *c = &s->calls[s->cases[ci].call];
            if (!c->answered || c->fault != JUDGE_AC) continue;
            int wrong = s->cases[ci].verdict == JUDGE_WA;
            /* Past the wrong cases, a way that cannot better the best so far,
             * or that is already no explanation (name_mistake), is done. */
            if (!wrong && (behind(&f, best) || (bound && behind(&f, bound)) || refuted(&f))) {
                missed = 1;
                break;
            }
            if (!search_goes_on(s)) {   /* this way, unfinished, counts for nothing */
                missed = 1;
                break;
            }
            void *sim[JUDGE_MAX_PARAMS] = { 0 };
            if ((st = alloc_outputs(sim, &c->args)) == JUDGE_OK &&
                (st = simulate(s, sim, &c->args, ch, v)) == JUDGE_OK) {
                if (!wrong)   /* right here: count what it gets wrong */
                    explains_case(s, ci, sim, &f);
                else if (f.wrong++, explains_case(s, ci, sim, &f)) {
                    f.explained++;
                    explained[ci] = 1;
                    f.real |= !degenerate(s, c);
                } else {   /* a way that can no longer be named, or explain as many as the best, is done */
                    int most = f.explained + n_wrong - f.wrong;
                    missed = ci == s->verdict_case || !nameable(most, n_wrong, pair) ||
                             most < (bound ? bound->explained : 0) || most < best->explained;
                }
            }
            free_outputs(sim);
        }
        if (missed) continue;
        if (f.explained > best->explained ||
            (f.explained == best->explained && (f.excess < best->excess ||
                                                (f.excess == best->excess && f.guarded < best->guarded)))) {
            *best = f;
            memcpy(explained_best, explained, (size_t)nc);
        }
        if (perfect(best)) break;   /* no later way can be better */
    }
    free(explained);
    return st;
}

/* Does the learner compute something real in a case it got right (verdict
 * AC), or in one it got wrong that a mistake could explain (WA)? */
static int real_in(const judge_session *s, judge_verdict verdict)
{
    for (int ci = 0; ci < s->m->n_cases; ci++) {
        const call *c = &s->calls[s->cases[ci].call];
        if (s->cases[ci].verdict == verdict && c->answered && (verdict == JUDGE_AC || c->fault == JUDGE_AC) &&
            !degenerate(s, c))
            return 1;
    }
    return 0;
}

/* A case's size: its elements, every param's. */
static size_t case_size(const judge_session *s, int ci)
{
    const judge_args *a = &s->calls[s->cases[ci].call].args;
    size_t n = 0;
    for (int p = 0; p < s->m->n_params; p++) n += a->len[p];
    return n;
}

/* Does case a come after case b in fit_changes' order: the wrong cases
 * before the right ones, the smaller first (the cheaper to simulate, and
 * most tries end on a small one)? */
static int fits_after(const judge_session *s, int a, int b)
{
    int wa = s->cases[a].verdict == JUDGE_WA, wb = s->cases[b].verdict == JUDGE_WA;
    return wa != wb ? wb : case_size(s, a) > case_size(s, b);
}

/* fit_changes' order of the cases: the verdict's case, then the rest by
 * fits_after (an insertion sort: a dozen cases). */
static void fit_order(const judge_session *s, int *order)
{
    int n = 0;
    order[n++] = s->verdict_case;
    for (int ci = 0; ci < s->m->n_cases; ci++) {
        if (ci == s->verdict_case) continue;
        int k = n++;
        for (; k > 1 && fits_after(s, order[k - 1], ci); k--) order[k] = order[k - 1];
        order[k] = ci;
    }
}

typedef struct {
    const judge_mistake *m[2];
    fit f;
    unsigned char *explained;
} candidate;

/* Is `f` a better explanation than the best so far? Whole before partial,
 * one mistake before a pair, then fewer elements wrong where the learner is
 * right, then fewer that only a guard matches. */
static int better(const fit *f, int size, const candidate *best, int best_size)
{
    if (!best->m[0]) return 1;
    int whole = f->explained == f->wrong, best_whole = best->f.explained == best->f.wrong;
    if (whole != best_whole) return whole;
    if (!whole && f->explained != best->f.explained) return f->explained > best->f.explained;
    if (size != best_size) return size < best_size;
    if (f->excess != best->f.excess) return f->excess < best->f.excess;
    return f->guarded < best->f.guarded;
}

static judge_status name_mistake(judge_session *s)
{
    const judge_meta *m = s->m;
    int nc = m->n_cases, evidence = real_in(s, JUDGE_AC), best_size = 0, done = 0;
    /* An explanation must rest on something real the learner computed (see
     * the test below): with none anywhere (all zeros, as a starter writes)
     * there is nothing to search, and mistakes that drop every key of a
     * small case would otherwise take every way of every pair to all cases. */
    if (!evidence && !real_in(s, JUDGE_WA)) return JUDGE_OK;
    unsigned char *explained = malloc((size_t)nc);
    int *order = malloc((size_t)nc * sizeof *order);
    candidate best = { { NULL, NULL }, { 0 }, malloc((size_t)nc) };
    judge_status st = explained && order && best.explained ? JUDGE_OK : JUDGE_ENOMEM;
    if (!st) fit_order(s, order);
    s->search_end = judge_now_ms() + SEARCH_MS;
    /* Each mistake alone, each of its ways; then pairs, where no single one
     * explains every wrong case. */
    for (int size = 1; size <= 2 && !st && !done && !s->search_cut; size++) {
        if (size == 2 && best.m[0] && best.f.explained == best.f.wrong) break;
        for (int i = 0; i < m->n_mistakes && !st && !done && !s->search_cut; i++)
            for (int j = size == 1 ? i : i + 1; j < (size == 1 ? i + 1 : m->n_mistakes) && !st && !done; j++)
                for (int ai = 0; ai < m->mistakes[i].n_alts && !st && !done; ai++)
                    for (int aj = 0; aj < (size == 1 ? 1 : m->mistakes[j].n_alts) && !st && !done; aj++) {
                        judge_changes ch = m->mistakes[i].alts[ai];
                        if (size == 2 && !form_combine(&ch, &m->mistakes[i].alts[ai], &m->mistakes[j].alts[aj]))
                            continue;
                        fit f;
                        const fit *bound = best.m[0] && best_size == size ? &best.f : NULL;
                        if ((st = fit_changes(s, order, &ch, size == 2, bound, &f, explained))) break;
                        if (!f.explained || !explained[s->verdict_case] || !(f.real || evidence)) continue;
                        if (refuted(&f)) continue;
                        if (!better(&f, size, &best, best_size)) continue;
                        best.m[0] = &m->mistakes[i];
                        best.m[1] = size == 2 ? &m->mistakes[j] : NULL;
                        best.f = f;
                        best_size = size;
                        memcpy(best.explained, explained, (size_t)nc);
                        done = perfect(&f);   /* nothing later can be better (better()) */
                    }
    }
    int partial = best.f.explained < best.f.wrong;
    if (!st && best.m[0] && nameable(best.f.explained, best.f.wrong, best_size == 2)) {
        s->named[0] = best.m[0];
        s->named[1] = best.m[1];
        s->partial = partial;
        for (int ci = 0; ci < nc; ci++) s->cases[ci].explained = best.explained[ci];
    }
    free(explained);
    free(order);
    free(best.explained);
    return st;
}

/* Where the wrong outputs of the wrong cases lie (SPREAD_*): what an
 * offset that misses a term or a factor leaves, the first slice right and
 * most of the others wrong (a mistake that shows only on some inputs leaves
 * a few wrong, and is no offset). */
static int spread(const judge_session *s)
{
    size_t n[N_SLICES] = { 0 }, w[N_SLICES] = { 0 };
    for (int ci = 0; ci < s->m->n_cases; ci++)
        for (int k = 0; k < N_SLICES && s->cases[ci].verdict == JUDGE_WA; k++) {
            n[k] += s->cases[ci].slice_n[k];
            w[k] += s->cases[ci].slice_wrong[k];
        }
    size_t nb = n[SLICE_LATER_BATCH], nh = n[SLICE_LATER_HEAD], n2 = n[SLICE_BOTH_LATER];
    size_t wb = w[SLICE_LATER_BATCH], wh = w[SLICE_LATER_HEAD], w2 = w[SLICE_BOTH_LATER];
    if (w[SLICE_FIRST] || w[SLICE_NO_AXES]) return SPREAD_NONE;
    if (!wh) return 2 * (wb + w2) >= nb + n2 ? SPREAD_BATCH : SPREAD_NONE;
    if (!wb) return 2 * (wh + w2) >= nh + n2 ? SPREAD_HEAD : SPREAD_NONE;
    return 2 * (wb + wh + w2) >= nb + nh + n2 ? SPREAD_SLICE : SPREAD_NONE;
}

void judge_session_finish(judge_session *s)
{
    if (s->finished) {
        judge_speed_settle(s);   /* once the speed runs, if any, are done */
        judge_fresh_settle(s);   /* and the fresh run */
        return;
    }
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
                static const told ended = { .msg = JUDGE_MSG_DETAIL_RUN_ENDED };
                s->cases[ci].why = &ended;
                break;
            }
    }
    if (s->verdict != JUDGE_WA) return;
    check_state(s);
    if (s->state_case >= 0) {
        /* Answers from memory move with no key: the picture would lie. */
        memset(&s->probe, 0, sizeof s->probe);
        s->named[0] = &judge_state_kept;
        /* Partly, if another case has wrong values (not just a mask picture
         * that answers from memory spoilt). */
        for (int ci = 0; ci < s->m->n_cases; ci++) {
            case_result *r = &s->cases[ci];
            if (r->verdict != JUDGE_WA || r->explained) continue;
            if (r->cmp.n_bad) s->partial = 1;
            else r->explained = 1;
        }
        /* Tell the case where it shows, not a picture the memory spoilt. */
        if (!s->cases[s->verdict_case].cmp.n_bad) s->verdict_case = s->state_case;
        return;
    }
    s->fault = name_mistake(s);
    if (!s->fault && !s->named[0]) s->spread = spread(s);
}

judge_verdict judge_session_verdict(const judge_session *s) { return s->verdict; }

judge_status judge_session_error(const judge_session *s) { return s->fault; }
