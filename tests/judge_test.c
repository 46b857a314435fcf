/* judge_test.c: the judge's diagnosis held to its promises, with no learner
 * code: sessions are answered by the test itself (through the session's
 * inside, session.h) with what a mistake's simulation returns, with
 * degenerate outputs, or with the reference, and the test checks what the
 * judge then names and draws. The corpus (tests/corpus) does the same with
 * real C files; this covers every mistake of every problem's data. */
#include <math.h>
#include "check.h"
#include "form.h"
#include "heap.h"
#include "session.h"

typedef void (*answer_fn)(judge_session *s, call *c, void *ctx);

/* Answer every call of s with `fn`. */
static void answered(judge_session *s, answer_fn fn, void *ctx)
{
    const judge_meta *m = s->m;
    for (int k = 0; k < s->n_calls; k++) {
        call *c = &s->calls[k];
        for (int i = 0; i < m->n_params; i++) {
            if (!m->params[i].is_out) continue;
            size_t bytes = c->args.len[i] * judge_elem_size(m->params[i].type);
            c->got[i] = xmalloc(bytes);
            memcpy(c->got[i], c->expect[i], bytes);   /* an inout param arrives so */
        }
        fn(s, c, ctx);
        c->answered = 1;
    }
}

/* Open a session of problem m, answer every call with `fn`, decide. */
static judge_session *judged(const judge_meta *m, answer_fn fn, void *ctx)
{
    judge_session *s;
    if (judge_session_new(&s, m, JUDGE_DEFAULT_SEED) != JUDGE_OK) return NULL;
    judge_session_compiled(s, 1, "");
    answered(s, fn, ctx);
    judge_session_finish(s);
    return s;
}

typedef struct {
    const judge_changes *ch;
    int variant;
    judge_status st;
} sim_ctx;

/* Answer as code with the mistake's changes would: its simulation. */
static void answer_sim(judge_session *s, call *c, void *ctx)
{
    sim_ctx *x = ctx;
    for (int i = 0; i < s->m->n_params; i++)   /* inouts start from their inputs */
        if (s->m->params[i].is_out && s->m->params[i].is_in && c->args.buf[i])
            memcpy(c->got[i], c->args.buf[i], c->args.len[i] * judge_elem_size(s->m->params[i].type));
    judge_status st = s->ops->simulate ? s->ops->simulate(c->got, &c->args, x->ch, x->variant)
                                       : form_simulate(c->got, &c->args, x->ch, x->variant);
    if (st) x->st = st;
}

static void answer_reference(judge_session *s, call *c, void *ctx)
{
    (void)s, (void)c, (void)ctx;   /* judged() already copied the expected outputs */
}

/* Degenerate outputs: every element 0, or NaN, or hash noise in [-1, 1). */
static void answer_constant(judge_session *s, call *c, void *ctx)
{
    int kind = *(int *)ctx;
    for (int i = 0; i < s->m->n_params; i++) {
        const judge_param *p = &s->m->params[i];
        if (!p->is_out) continue;
        for (size_t e = 0; e < c->args.len[i]; e++) {
            double v = kind == 0 ? 0.0 : kind == 1 ? NAN
                     : (double)(att_rng_u64((uint64_t)(c - s->calls), (uint64_t)i, e) >> 40) / (1 << 23) - 1.0;
            switch (p->type) {
            case JUDGE_F32: ((float *)c->got[i])[e] = (float)v; break;
            case JUDGE_I32: ((int *)c->got[i])[e] = isnan(v) ? 0 : (int)(v * 1000); break;
            case JUDGE_I64: ((long long *)c->got[i])[e] = isnan(v) ? 0 : (long long)(v * 1e6); break;
            case JUDGE_U8: ((unsigned char *)c->got[i])[e] = 0; break;
            case JUDGE_I8: ((signed char *)c->got[i])[e] = isnan(v) ? 0 : (signed char)(v * 100); break;
            case JUDGE_INT: break;
            }
        }
    }
}

/* The most keys a row of any case of s has. */
static int most_keys(const judge_session *s)
{
    int most = 0;
    for (int ci = 0; ci < s->m->n_cases; ci++) {
        const judge_args *a = &s->calls[s->cases[ci].call].args;
        int z[JUDGE_N_SIZES] = { 0 };
        if (s->m->attention) form_sizes(a, z);
        else   /* a decode step's form is made in its code: its cache's rows */
            z[JUDGE_SIZE_S] = judge_int(a, "S_max");
        if (z[JUDGE_SIZE_S] > most) most = z[JUDGE_SIZE_S];
    }
    return most;
}

/* Every mistake of every problem's data: its simulation is wrong somewhere
 * (no knob the problem's code ignores), and a session answered by it names
 * it, on every case it is wrong on. But for an online softmax tiled at
 * least half as wide as every case's rows: a row then has at most one tile
 * edge, and no case need have its max grow just past it (at least as wide,
 * the code is right on every size the statement promises). So tiled, a
 * row that starts from a learned sink (exercise 62) is rescaled from it
 * once, at its first tile, where no case need show more: l's rescale
 * missing (no_rescale_sum) and both missing (no_rescale) are one code
 * there, and the second name is right too. */
static void every_mistake_names_itself(void)
{
    for (int p = 0, item = 0; p < judge_n_metas; p++) {
        const judge_meta *m = &judge_metas[p];
        for (int k = 0; k < m->n_mistakes; k++)
            for (int alt = 0; alt < m->mistakes[k].n_alts; alt++) {
                if (!check_mine(item++)) continue;
                const judge_changes *ch = &m->mistakes[k].alts[alt];
                int variants = judge_variants(judge_ops_for(m), ch);
                for (int v = 0; v < variants; v++) {
                    sim_ctx x = { ch, v, JUDGE_OK };
                    judge_session *s = judged(m, answer_sim, &x);
                    CHECK(s && x.st == JUDGE_OK, "%d: %s could not be simulated", m->id, m->mistakes[k].id);
                    if (!s) continue;
                    if (form_tile(ch, v) && s->verdict == JUDGE_AC && 2 * form_tile(ch, v) >= most_keys(s)) {
                        judge_session_free(s);
                        continue;
                    }
                    const judge_mistake *got = s->named[0];
                    int sink = m->attention && m->attention->view[JUDGE_VIEW_SINK_LOGIT].param >= 0;
                    if (sink && 2 * form_tile(ch, v) >= most_keys(s) && ch->online == FORM_ONLINE_NO_RESCALE_SUM &&
                        got && got->alts[0].online == FORM_ONLINE_NO_RESCALE && !s->named[1] && !s->partial) {
                        judge_session_free(s);
                        continue;
                    }
                    CHECK(s->verdict == JUDGE_WA, "%d %s (way %d, variant %d): verdict %s: the cases never show it",
                          m->id, m->mistakes[k].id, alt, v, judge_verdict_code(s->verdict));
                    CHECK(got == &m->mistakes[k] && !s->named[1] && !s->partial,
                          "%d %s (way %d, variant %d): named %s%s%s%s", m->id, m->mistakes[k].id, alt, v,
                          got ? got->id : "nothing", s->named[1] ? " + " : "",
                          s->named[1] ? s->named[1]->id : "", s->partial ? " (partly)" : "");
                    judge_session_free(s);
                }
            }
    }
}

/* Two mistakes at once, the pairs learners make: named as the pair. */
static void pairs_are_named(void)
{
    static const struct { int id; const char *a, *b; } pairs[] = {
        { 49, "no_scale", "no_causal_mask" },
        { 47, "causal_no_offset", "softmax_overflow" },
        { 51, "kv_head_modulo", "no_scale" },
        { 54, "padding_ignored", "no_scale" },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char id[8];
        snprintf(id, sizeof id, "%d", pairs[i].id);
        const judge_meta *m = judge_find(id);
        const judge_mistake *a = NULL, *b = NULL;
        for (int k = 0; k < m->n_mistakes; k++) {
            if (!strcmp(m->mistakes[k].id, pairs[i].a)) a = &m->mistakes[k];
            if (!strcmp(m->mistakes[k].id, pairs[i].b)) b = &m->mistakes[k];
        }
        CHECK(a && b, "%d has no %s or no %s", pairs[i].id, pairs[i].a, pairs[i].b);
        if (!a || !b) continue;
        judge_changes both;
        CHECK(form_combine(&both, &a->alts[0], &b->alts[0]), "%s and %s turn one knob", a->id, b->id);
        sim_ctx x = { &both, 0, JUDGE_OK };
        judge_session *s = judged(m, answer_sim, &x);
        const judge_mistake *n0 = s->named[0], *n1 = s->named[1];
        CHECK((n0 == a && n1 == b) || (n0 == b && n1 == a), "%d %s + %s: named %s + %s", pairs[i].id,
              a->id, b->id, n0 ? n0->id : "nothing", n1 ? n1->id : "nothing");
        judge_session_free(s);
    }
}

/* All zeros, all NaN, noise: wrong, and no mistake explains them. */
static void degenerate_outputs_name_nothing(void)
{
    static const char *const kinds[] = { "zeros", "NaN", "noise" };
    for (int p = 0; p < judge_n_metas; p++)
        for (int kind = 0; kind < 3; kind++) {
            judge_session *s = judged(&judge_metas[p], answer_constant, &kind);
            CHECK(s->verdict == JUDGE_WA, "%d, %s: %s", judge_metas[p].id, kinds[kind],
                  judge_verdict_code(s->verdict));
            CHECK(!s->named[0], "%d, %s: named %s", judge_metas[p].id, kinds[kind], s->named[0]->id);
            judge_session_free(s);
        }
}

/* Float outputs with a canary added in: the output's own (a learner's
 * `out[i] += ...` into an output never zeroed), or a guard's (a value read
 * from outside an array). */
static void answer_added_to(judge_session *s, call *c, void *ctx)
{
    for (int i = 0; i < s->m->n_params; i++) {
        const judge_param *p = &s->m->params[i];
        if (!p->is_out || p->is_in || p->type != JUDGE_F32) continue;
        volatile float canary;
        memcpy((void *)&canary, ctx, 4);
        for (size_t e = 0; e < c->args.len[i]; e++) ((float *)c->got[i])[e] += canary;
    }
}

/* Such outputs are told apart, as never set or as read out of bounds, and
 * are no mistake's. */
static void nan_outputs_tell_where_they_came_from(void)
{
    for (int p = 0; p < judge_n_metas; p++) {
        const judge_meta *m = &judge_metas[p];
        int floats = 0;
        for (int i = 0; i < m->n_params; i++) floats += m->params[i].is_out && !m->params[i].is_in && m->params[i].type == JUDGE_F32;
        if (!floats) continue;
        for (int guard = 0; guard < 2; guard++) {
            uint32_t bits = guard ? CANARY_GUARD_F32 : CANARY_F32;
            judge_session *s = judged(m, answer_added_to, &bits);
            CHECK(s->verdict == JUDGE_WA, "%d: %s", m->id, judge_verdict_code(s->verdict));
            const case_result *r = &s->cases[s->verdict_case];
            size_t told = guard ? r->read_outside : r->unwritten, other = guard ? r->unwritten : r->read_outside;
            CHECK(told > 0 && told == r->cmp.n_bad && other == 0, "%d, %s: %zu of %zu wrong told so, %zu otherwise", m->id,
                  guard ? "a guard's NaN" : "never set", told, r->cmp.n_bad, other);
            CHECK(!s->named[0], "%d: named %s", m->id, s->named[0]->id);
            judge_session_free(s);
        }
    }
}

/* The answer of a case given again for its repeat (same shape, new data). */
static void answer_stale(judge_session *s, call *c, void *ctx)
{
    (void)ctx;
    int ci = c->case_index, k = (int)(c - s->calls);
    if (c->probe_pos >= 0 || s->cases[ci].call != k) return;
    for (int e = 0; e < ci; e++) {
        const call *ce = &s->calls[s->cases[e].call];
        if (memcmp(ce->args.ints, c->args.ints, sizeof c->args.ints)) continue;
        for (int i = 0; i < s->m->n_params; i++)
            if (s->m->params[i].is_out)
                memcpy(c->got[i], ce->got[i], c->args.len[i] * judge_elem_size(s->m->params[i].type));
        return;
    }
}

/* Every problem calls the function again with a shape it has seen, and an
 * answer kept from the earlier call is named as state kept, on that case. */
static void state_kept_is_named(void)
{
    for (int p = 0; p < judge_n_metas; p++) {
        const judge_meta *m = &judge_metas[p];
        int repeat = -1;
        judge_session *s = judged(m, answer_stale, NULL);
        for (int ci = 0; ci < m->n_cases && repeat < 0; ci++)
            for (int e = 0; e < ci; e++)
                if (!memcmp(s->calls[s->cases[ci].call].args.ints, s->calls[s->cases[e].call].args.ints,
                            sizeof(int) * JUDGE_MAX_PARAMS)) repeat = ci;
        CHECK(repeat >= 0, "%d: no case repeats an earlier case's shape", m->id);
        CHECK(s->named[0] == &judge_state_kept && s->state_case == repeat,
              "%d: named %s on case %d", m->id, s->named[0] ? s->named[0]->id : "nothing", s->state_case);
        judge_session_free(s);
    }
}

/* Right on the first case, noise after it. */
static void answer_first_only(judge_session *s, call *c, void *ctx)
{
    if (c->case_index > 0) answer_constant(s, c, ctx);
}

/* Noise that no mistake names, after a right first case: the first wrong
 * case runs again alone (the fresh run). Right there, the result depends on
 * the calls before it, and that is named; wrong there, nothing is. A wrong
 * first case, or a right session, has no fresh run. */
static void a_fresh_run_names_earlier_calls(void)
{
    int noise = 2;
    for (int p = 0; p < judge_n_metas; p++) {
        const judge_meta *m = &judge_metas[p];
        for (int right = 0; right < 2; right++) {
            judge_session *s = judged(m, answer_first_only, &noise);
            CHECK(s && s->verdict == JUDGE_WA && !s->named[0] && s->verdict_case == 1, "%d: not a plain WA on case 1", m->id);
            if (!s) continue;
            judge_session *f = judge_session_fresh(s);
            CHECK(f && judge_session_calls(f) == 1 && !judge_session_fresh(s), "%d: no fresh run of one call, once", m->id);
            if (f) {
                answered(f, right ? answer_reference : answer_constant, &noise);
                CHECK(!memcmp(f->calls[0].args.ints, s->calls[s->cases[1].call].args.ints, sizeof f->calls[0].args.ints),
                      "%d: the fresh run is not case 1's call", m->id);
            }
            judge_session_finish(s);
            CHECK(s->named[0] == (right ? &judge_earlier_calls : NULL) && !s->partial,
                  "%d: a fresh run answered %s named %s", m->id, right ? "right" : "wrong",
                  s->named[0] ? s->named[0]->id : "nothing");
            judge_session_free(s);
        }
        judge_session *s = judged(m, answer_constant, &noise);
        CHECK(s && !judge_session_fresh(s), "%d: a fresh run of the first case", m->id);
        judge_session_free(s);
        s = judged(m, answer_reference, NULL);
        CHECK(s && s->verdict == JUDGE_AC && !judge_session_fresh(s), "%d: a fresh run of a right session", m->id);
        judge_session_free(s);
    }
}

/* The mask rule of each probed problem, written from its statement, apart
 * from form.c: does query i of batch 0 see key j? */
static int statement_rule(const judge_args *a, int i, int j)
{
    const char *slug = a->meta->slug;
    int S = judge_int(a, "S"), T = judge_int(a, "T");
    const unsigned char *mask = a->buf[judge_param_index(a->meta, "mask")];
    if (!strcmp(slug, "causal-mha")) return (!judge_int(a, "causal") || j <= i) && (!mask || mask[j]);
    if (!strcmp(slug, "sdpa")) return (!judge_int(a, "causal") || j <= i + S - T) && (!mask || mask[j]);
    if (!strcmp(slug, "cross-attention")) {
        const unsigned char *enc = a->buf[judge_param_index(a->meta, "enc_mask")];
        return !enc || enc[j];
    }
    if (!strcmp(slug, "sliding-window")) return j <= i && j > i - judge_int(a, "W");
    if (!strcmp(slug, "attention-sinks"))
        return j <= i && (j < judge_int(a, "n_sink") || j > i - judge_int(a, "window"));
    if (!strcmp(slug, "learned-sinks")) return j <= i && (!judge_int(a, "W") || j > i - judge_int(a, "W"));
    if (!strcmp(slug, "alibi-softcap")) return j <= i + S - T;
    /* attention-weights, gqa, flash-attention: causal with the cache offset */
    return !judge_int(a, "causal") || j <= i + S - T;
}

static void mask_picture_follows_the_rule(void)
{
    for (int p = 0; p < judge_n_metas; p++) {
        const judge_meta *m = &judge_metas[p];
        judge_session *s = judged(m, answer_reference, NULL);
        if (s->probe_case >= 0) {
            const judge_args *a = &s->calls[s->cases[s->probe_case].call].args;
            CHECK(s->probe.n > 0 && s->probe.rows > 0, "%d: no picture", m->id);
            for (int i = 0; i < s->probe.rows; i++)
                for (int j = 0; j < s->probe.n; j++)
                    CHECK(s->probe.expected[i][j] == statement_rule(a, i, j),
                          "%d: query %d, key %d: the picture says %d", m->id, i, j, s->probe.expected[i][j]);
            CHECK(s->verdict == JUDGE_AC, "%d: the reference is %s", m->id, judge_verdict_code(s->verdict));
            /* A wrong scale hides no key: the picture must not say it does
             * (a sharper softmax once made a seen key's weight too small
             * for the probe to see it move). */
            for (int k = 0; k < m->n_mistakes; k++) {
                judge_changes ch = m->mistakes[k].alts[0], none = { 0 };
                ch.scale = 0;
                if (!m->mistakes[k].alts[0].scale || memcmp(&ch, &none, sizeof ch)) continue;
                sim_ctx x = { &m->mistakes[k].alts[0], 0, JUDGE_OK };
                judge_session *w = judged(m, answer_sim, &x);
                CHECK(w && !w->probe.differs, "%d %s: the picture shows a mask mistake", m->id, m->mistakes[k].id);
                judge_session_free(w);
            }
            /* Code that drops the cache offset sees keys j <= i, and the
             * picture says so, even of a query left with one key: its
             * output does not move with that key (48's weight is 1). */
            for (int k = 0; k < m->n_mistakes; k++) {
                judge_changes ch = m->mistakes[k].alts[0], none = { 0 };
                ch.offset = 0;
                if (m->mistakes[k].alts[0].offset != FORM_OFFSET_ZERO || memcmp(&ch, &none, sizeof ch)) continue;
                sim_ctx x = { &m->mistakes[k].alts[0], 0, JUDGE_OK };
                judge_session *w = judged(m, answer_sim, &x);
                int causal = judge_param_index(m, "causal") < 0 || judge_int(a, "causal");
                for (int i = 0; w && i < w->probe.rows; i++)
                    for (int j = 0; j < w->probe.n; j++)
                        CHECK(w->probe.yours[i][j] == (statement_rule(a, i, j) && (!causal || j <= i)),
                              "%d %s: query %d, key %d: the picture says %d", m->id, m->mistakes[k].id, i, j,
                              w->probe.yours[i][j]);
                judge_session_free(w);
            }
        }
        judge_session_free(s);
    }
}

/* The statements promise large scores where a softmax without the max
 * overflows, and scores far below 0 where a max that starts at 0
 * underflows: the mistakes that need them are wrong on the case that
 * promises them (scale > 1), not only somewhere. */
static void large_scores_keep_their_promise(void)
{
    for (int p = 0; p < judge_n_metas; p++) {
        const judge_meta *m = &judge_metas[p];
        for (int k = 0; k < m->n_mistakes; k++) {
            const judge_changes *ch = &m->mistakes[k].alts[0];
            if (ch->softmax != FORM_SOFTMAX_NO_MAX && ch->softmax != FORM_SOFTMAX_MAX_FROM_ZERO) continue;
            sim_ctx x = { ch, 0, JUDGE_OK };
            judge_session *s = judged(m, answer_sim, &x);
            int wrong_large = 0, large = 0;
            for (int ci = 0; ci < m->n_cases; ci++)
                if (m->cases[ci].scale > 1) {
                    large = 1;
                    wrong_large |= s->cases[ci].verdict == JUDGE_WA;
                }
            CHECK(large && wrong_large, "%d %s: no large-scores case shows it", m->id, m->mistakes[k].id);
            judge_session_free(s);
        }
    }
}

/* Sizes that straddle the vector widths: every problem has a case with a
 * size above 8 that is not a multiple of 4. */
static void cases_are_ragged(void)
{
    for (int p = 0; p < judge_n_metas; p++) {
        const judge_meta *m = &judge_metas[p];
        int ragged = 0;
        for (int ci = 0; ci < m->n_cases; ci++)
            for (int i = 0; i < m->n_params; i++)
                if (m->params[i].type == JUDGE_INT && m->cases[ci].ints[i] > 8 && m->cases[ci].ints[i] % 4)
                    ragged = 1;
        CHECK(ragged, "%d: every size is a multiple of 4 or small", m->id);
    }
}

/* The reply the runner would send for call k: the request's regions, with
 * the expected outputs where the function writes. */
static unsigned char *good_reply(judge_session *s, int k, size_t *len)
{
    const unsigned char *req;
    size_t req_len;
    judge_session_request(s, k, &req, &req_len);
    const call *c = &s->calls[k];
    *len = judge_session_reply_len(s, k);
    unsigned char *r = xmalloc(*len), *p = r + 16;
    uint32_t head[2] = { JUDGE_WIRE_REPLY, (uint32_t)k };
    memcpy(r, head, 8);
    memset(r + 8, 0, 8);
    const unsigned char *q = req + 12 + 16 * (size_t)s->m->n_params;
    for (int i = 0; i < s->m->n_params; i++) {
        if (!c->args.buf[i]) continue;
        size_t es = judge_elem_size(s->m->params[i].type), n = c->args.len[i];
        memcpy(p, q, (n + 2 * GUARD) * es);
        if (s->m->params[i].is_out) memcpy(p + GUARD * es, c->expect[i], n * es);
        p += (n + 2 * GUARD) * es;
        q += (n + 2 * GUARD) * es;
    }
    return r;
}

/* Replies cut short, grown, or with bytes changed anywhere: the session
 * takes each as a status or a learner's fault, never reads past the bytes,
 * and still writes a whole report. A good reply gives AC. */
static void reply_decoder_survives_fuzz(void)
{
    const judge_meta *m = judge_find("52");   /* an inout and an int output */
    for (int round = 0; round < 200; round++) {
        judge_session *s;
        CHECK(judge_session_new(&s, m, JUDGE_DEFAULT_SEED) == JUDGE_OK, "session");
        judge_session_compiled(s, 1, "");
        for (int k = 0; k < judge_session_calls(s); k++) {
            size_t len;
            unsigned char *r = good_reply(s, k, &len);
            uint64_t h = att_rng_u64((uint64_t)round, (uint64_t)k, 0);
            size_t cut = len;
            if (round > 0) switch (h % 4) {
            case 0: cut = (size_t)(h >> 8) % len; break;                    /* truncated */
            case 1: cut = len + 1 + (size_t)(h >> 8) % 64; break;            /* oversized */
            default:                                                         /* mutated */
                for (int f = 0; f < 1 + (int)(h >> 60); f++)
                    r[att_rng_u64((uint64_t)round, (uint64_t)k, (uint64_t)f + 1) % len] ^= (unsigned char)(1 + (h >> (8 * f % 56)) % 255);
            }
            unsigned char *sent = xmalloc(cut);
            memcpy(sent, r, cut < len ? cut : len);
            if (cut > len) memset(sent + len, 0x5a, cut - len);
            judge_status st = judge_session_reply(s, k, sent, cut);
            CHECK(st == JUDGE_OK || st == JUDGE_EPROTOCOL, "round %d call %d: %s", round, k, judge_strerror(st));
            free(sent);
            free(r);
        }
        judge_session_finish(s);
        CHECK(round > 0 || judge_session_verdict(s) == JUDGE_AC, "the good replies give %s",
              judge_verdict_code(judge_session_verdict(s)));
        CHECK(judge_session_json(s) != NULL && judge_session_text(s, 0) != NULL, "round %d: no report", round);
        judge_session_free(s);
    }
}

/* A copy of a session is the session made again: the same requests, and
 * the original's expected outputs accepted; a judged session is not copied. */
static void a_copy_is_the_session_made_again(void)
{
    for (int p = 0; p < judge_n_metas; p++) {
        const judge_meta *m = &judge_metas[p];
        judge_session *s, *c, *again;
        CHECK(judge_session_new(&s, m, JUDGE_DEFAULT_SEED) == JUDGE_OK, "%d: session", m->id);
        CHECK(judge_session_copy(&c, s) == JUDGE_OK, "%d: copy", m->id);
        CHECK(judge_session_calls(c) == judge_session_calls(s), "%d: calls", m->id);
        judge_session_compiled(c, 1, "");
        for (int k = 0; k < judge_session_calls(s); k++) {
            const unsigned char *a, *b;
            size_t la, lb, len;
            judge_session_request(s, k, &a, &la);
            judge_session_request(c, k, &b, &lb);
            CHECK(la == lb && !memcmp(a, b, la), "%d: call %d's request differs", m->id, k);
            unsigned char *r = good_reply(s, k, &len);
            CHECK(judge_session_reply(c, k, r, len) == JUDGE_OK, "%d: call %d's reply", m->id, k);
            free(r);
        }
        judge_session_finish(c);
        CHECK(judge_session_verdict(c) == JUDGE_AC, "%d: the original's outputs give %s", m->id,
              judge_verdict_code(judge_session_verdict(c)));
        CHECK(judge_session_copy(&again, c) == JUDGE_EBADCALL, "%d: a judged session copied", m->id);
        judge_session_free(c);
        judge_session_free(s);
    }
}

/* A run that ends inside the mask probe's calls (a crash, a loop, a write
 * out of bounds there) ends on the probed case, with that fault: the cases
 * after it were never run, and the probed case did not pass. */
static void a_fault_in_a_probe_call_is_its_case(void)
{
    for (int p = 0; p < judge_n_metas; p++) {
        const judge_meta *m = &judge_metas[p];
        judge_session *s;
        CHECK(judge_session_new(&s, m, JUDGE_DEFAULT_SEED) == JUDGE_OK, "%d: session", m->id);
        if (s->probe_case < 0) {
            judge_session_free(s);
            continue;
        }
        judge_session_compiled(s, 1, "");
        int faulty = s->cases[s->probe_case].call + 2;   /* the probe's second call */
        for (int k = 0; k < faulty; k++) {
            size_t len;
            unsigned char *r = good_reply(s, k, &len);
            CHECK(judge_session_reply(s, k, r, len) == JUDGE_OK, "%d: call %d's reply", m->id, k);
            free(r);
        }
        judge_session_fault(s, faulty, JUDGE_TLE, JUDGE_MSG_DETAIL_SIGABRT, NULL, 0);
        judge_session_finish(s);
        CHECK(judge_session_verdict(s) == JUDGE_TLE && s->verdict_case == s->probe_case,
              "%d: %s on case %d, not on the probed case %d", m->id, judge_verdict_code(judge_session_verdict(s)),
              s->verdict_case, s->probe_case);
        judge_session_free(s);
    }
}

/* The speed runs' core, counted: a wrapper of the problem's own. */
static const judge_ops *counted_ops;
static int core_runs;
static judge_status counted_core(void *const *outs, const judge_args *a)
{
    core_runs++;
    return (counted_ops->speed_core ? counted_ops->speed_core : counted_ops->reference)(outs, a);
}

/* The speed runs are paced: the core is timed again right after each of the
 * learner's calls (speed.c), so the host must wait between them. */
static void speed_runs_time_the_core_between_calls(void)
{
    const judge_meta *m = judge_find("49");
    counted_ops = judge_ops_for(m);
    judge_ops ops = *counted_ops;
    ops.speed_core = counted_core;
    judge_session *s;
    CHECK(judge_session_new_ops(&s, m, &ops, JUDGE_DEFAULT_SEED) == JUDGE_OK, "session");
    CHECK(!judge_session_paced(s), "a correctness run is not paced");
    judge_session_compiled(s, 1, "");
    judge_session_want_speed(s);
    for (int round = 0; round < 2; round++) {   /* the correctness calls, then the speed runs */
        judge_session *r = round ? judge_session_speed(s) : s;
        CHECK(r != NULL, "the solution's replies give speed runs");
        if (!r) break;
        CHECK(judge_session_paced(r) == round, "round %d: paced %d", round, judge_session_paced(r));
        int made = core_runs;
        for (int k = 0; k < judge_session_calls(r); k++) {
            size_t len;
            unsigned char *bytes = good_reply(r, k, &len);
            CHECK(judge_session_reply(r, k, bytes, len) == JUDGE_OK, "reply %d", k);
            CHECK(!round || core_runs == made + k + 1, "speed call %d: the core ran %d times after the replies",
                  k, core_runs - made);
            free(bytes);
        }
    }
    judge_session_finish(s);
    CHECK(judge_session_verdict(s) == JUDGE_AC, "%s", judge_verdict_code(judge_session_verdict(s)));
    judge_session_free(s);
}

/* The speed runs' core timed elsewhere, on the request (the wasm run worker,
 * judge.h): judge_time_speed_core takes each request as the session made it
 * and refuses one cut short or whose sizes disagree with its ints, reading
 * nothing past it; a time handed in is the session's, and its reply then
 * runs the core no more. Every problem with speed cases. */
static void speed_core_timed_from_the_request(void)
{
    for (int p = 0; p < judge_n_metas; p++) {
        const judge_meta *m = &judge_metas[p];
        if (!m->n_speed) continue;
        counted_ops = judge_ops_for(m);
        judge_ops ops = *counted_ops;
        ops.speed_core = counted_core;
        judge_session *s;
        CHECK(judge_session_new_ops(&s, m, &ops, JUDGE_DEFAULT_SEED) == JUDGE_OK, "%d: session", m->id);
        judge_session_compiled(s, 1, "");
        judge_session_want_speed(s);
        for (int k = 0; k < judge_session_calls(s); k++) {
            size_t len;
            unsigned char *bytes = good_reply(s, k, &len);
            CHECK(judge_session_reply(s, k, bytes, len) == JUDGE_OK, "%d: reply %d", m->id, k);
            free(bytes);
        }
        judge_session *r = judge_session_speed(s);
        CHECK(r != NULL, "%d: speed runs", m->id);
        for (int k = 0; r && k < judge_session_calls(r); k++) {
            const unsigned char *req;
            size_t req_len;
            double ms = -1;
            CHECK(judge_session_request(r, k, &req, &req_len) == JUDGE_OK, "%d: request %d", m->id, k);
            CHECK(judge_time_speed_core(m, req, req_len, &ms) == JUDGE_OK && ms >= 0, "%d: call %d timed", m->id, k);
            /* Cut short: in the header, in a param's entry, in the data. A
             * copy of its own, so a read past it is past an allocation. */
            const size_t cuts[] = { 0, 11, 12 + 16 * (size_t)m->n_params - 1, req_len / 2, req_len - 1 };
            for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
                unsigned char *cut = xmalloc(cuts[c] ? cuts[c] : 1);
                memcpy(cut, req, cuts[c]);
                CHECK(judge_time_speed_core(m, cut, cuts[c], &ms) == JUDGE_EPROTOCOL, "%d: call %d cut to %zu bytes",
                      m->id, k, cuts[c]);
                free(cut);
            }
            /* Each size a buffer's shape uses, one more: the buffers no longer
             * fit the ints, though the request's own lengths still add up. */
            for (int i = 0; i < m->n_params; i++) {
                int shapes = 0;
                for (int b = 0; b < m->n_params; b++)
                    for (int d = 0; d < m->params[b].rank; d++) shapes |= m->params[b].dims[d] == i;
                if (m->params[i].type != JUDGE_INT || !shapes) continue;
                unsigned char *bumped = xmalloc(req_len);
                memcpy(bumped, req, req_len);
                uint32_t v;
                memcpy(&v, bumped + 12 + 16 * (size_t)i + 8, 4);
                v++;
                memcpy(bumped + 12 + 16 * (size_t)i + 8, &v, 4);
                CHECK(judge_time_speed_core(m, bumped, req_len, &ms) == JUDGE_EPROTOCOL, "%d: call %d, %s one more",
                      m->id, k, m->params[i].name);
                free(bumped);
            }
            int made = core_runs;
            judge_session_core_timed(r, k, 1000.0 + k);
            size_t len;
            unsigned char *bytes = good_reply(r, k, &len);
            CHECK(judge_session_reply(r, k, bytes, len) == JUDGE_OK, "%d: speed reply %d", m->id, k);
            CHECK(core_runs == made, "%d: speed call %d ran the core after a time was handed in", m->id, k);
            free(bytes);
        }
        judge_session_finish(s);
        /* Calls 1 to 5 of the one speed case (0 warms up): 1001 .. 1005. */
        const char *json = judge_session_json(s);
        CHECK(json && strstr(json, "\"core_ms\":1003,"), "%d: the core's median is the handed-in times': %s", m->id,
              json ? strstr(json, "\"speed\"") : "no report");
        judge_session_free(s);
    }
}

int main(int argc, char **argv)
{
    judge_heap_keep();   /* the searches here are the CLI's: heap.h */
    static const check_test tests[] = {
        { "every_mistake_names_itself", every_mistake_names_itself },
        { "pairs_are_named", pairs_are_named },
        { "degenerate_outputs_name_nothing", degenerate_outputs_name_nothing },
        { "nan_outputs_tell_where_they_came_from", nan_outputs_tell_where_they_came_from },
        { "state_kept_is_named", state_kept_is_named },
        { "a_fresh_run_names_earlier_calls", a_fresh_run_names_earlier_calls },
        { "mask_picture_follows_the_rule", mask_picture_follows_the_rule },
        { "large_scores_keep_their_promise", large_scores_keep_their_promise },
        { "cases_are_ragged", cases_are_ragged },
        { "reply_decoder_survives_fuzz", reply_decoder_survives_fuzz },
        { "a_copy_is_the_session_made_again", a_copy_is_the_session_made_again },
        { "a_fault_in_a_probe_call_is_its_case", a_fault_in_a_probe_call_is_its_case },
        { "speed_runs_time_the_core_between_calls", speed_runs_time_the_core_between_calls },
        { "speed_core_timed_from_the_request", speed_core_timed_from_the_request },
    };
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
