/* fresh.c: the fresh run (judge.h). The first wrong case, when no mistake
 * explains it, runs again alone as the first call of a fresh instance of the
 * learner's program, on the same inputs. Right there and wrong after the
 * calls before it, the code depends on those calls: a static kept (a scale,
 * a table, an accumulator, a search's last answer) or memory read before it
 * is set, which a fresh process often holds as zeros. Checking the outputs
 * is the one-call session's, as for any case. */
#include <stdlib.h>
#include "judge.h"
#include "session.h"

struct judge_fresh {
    judge_case c;          /* the case, not probed */
    judge_meta meta;       /* the problem with that case alone */
    judge_session *run;
    int settled;
};

judge_session *judge_session_fresh(judge_session *s)
{
    if (s->fresh_asked) return NULL;
    s->fresh_asked = 1;
    judge_session_finish(s);
    int ci = s->verdict_case;
    if (s->verdict != JUDGE_WA || s->named[0] || ci <= 0 || s->fault) return NULL;
    struct judge_fresh *f = calloc(1, sizeof *f);
    if (!f) return NULL;   /* no fresh run, nothing named: no verdict changes */
    s->fresh = f;
    f->c = s->m->cases[ci];
    f->c.probe = 0;
    f->meta = *s->m;
    f->meta.cases = &f->c;
    f->meta.n_cases = 1;
    f->meta.n_mistakes = 0;
    f->meta.n_speed = 0;
    judge_session *r = judge_session_alloc(&f->meta, s->ops, s->seed, 1);
    if (!r) return NULL;
    f->run = r;
    r->lang = s->lang;
    r->n_calls = 1;   /* counted first: freed with r if its copy fails */
    if (judge_call_copy(&r->calls[0], &s->calls[s->cases[ci].call], s->m, 0)) {
        judge_session_free(r);
        f->run = NULL;
        return NULL;
    }
    r->calls[0].case_index = 0;
    return r;
}

void judge_fresh_settle(judge_session *s)
{
    struct judge_fresh *f = s->fresh;
    if (!f || !f->run || f->settled) return;
    f->settled = 1;
    judge_session_finish(f->run);
    if (f->run->verdict != JUDGE_AC) return;   /* wrong there too, or a fault: nothing learnt */
    s->named[0] = &judge_earlier_calls;
    s->partial = 0;
    s->spread = SPREAD_NONE;
    for (int ci = 0; ci < s->m->n_cases; ci++)
        if (s->cases[ci].verdict == JUDGE_WA) s->cases[ci].explained = 1;
}

void judge_fresh_free(struct judge_fresh *f)
{
    if (!f) return;
    judge_session_free(f->run);
    free(f);
}
