/* session.h: the inside of a judge session, shared by judge.c (deciding)
 * and report.c (telling). Not a public header. */
#ifndef JUDGE_SESSION_H
#define JUDGE_SESSION_H

#include "att.h"
#include "judge.h"

/* A growing string (report.c). failed: something could not be added (out
 * of memory), so the string is not whole and must not be handed out. */
typedef struct {
    char *s;
    size_t len, cap;
    int failed;
} str;

/* Why a call faulted or a case failed, told when a report is written (in the
 * session's language): a detail_ message and its arguments, texts owned. */
typedef struct {
    int msg;                          /* a judge_msg; -1: nothing to tell */
    int n_args;
    char *text[JUDGE_MAX_ARGS];       /* an argument's text, or NULL: ... */
    int arg_msg[JUDGE_MAX_ARGS];      /* ... this message instead */
    int mle_hint;                     /* add the problem's MLE hint */
} told;

/* Every buffer travels with this many elements of canary on each side, and an
 * output starts as canary, so a write out of bounds is found with its index,
 * and an element never written is told apart from a wrong one. */
enum { GUARD = 1024 };
/* Float canaries are signalling NaNs: no arithmetic makes one, nor its quiet
 * twin, which arithmetic on it gives (the payload kept). So a NaN output that
 * is an output's canary was never set (or only added to), and one that is a
 * guard's was read from outside a buffer. */
#define CANARY_F32 0x7fa5a5a5u         /* an output as it arrives */
#define CANARY_GUARD_F32 0x7f8b5a5au   /* the guards on each side of every buffer */
#define CANARY_BYTE 0xa5u              /* every byte of any other canary, guards too */

size_t judge_elem_size(judge_type t);
/* A buffer element as a double, for reports. */
double judge_elem_value(judge_type t, const void *buf, size_t i);

enum { MAX_PROBE = 64 };

typedef struct {
    int case_index;
    int probe_pos;                   /* -1: the case itself; j: position j perturbed */
    judge_args args;                 /* the inputs, as sent */
    void *expect[JUDGE_MAX_PARAMS];  /* expected outputs, by param */
    void *got[JUDGE_MAX_PARAMS];     /* outputs read back */
    uint64_t input_hash;             /* of the request: equal on every backend */
    double ref_ms;                   /* the reference's time on these inputs */
    int core_timed;                  /* ref_ms came from judge_session_core_timed */
    unsigned char *request;
    size_t request_len, reply_len;
    int answered;
    judge_verdict fault;             /* AC when none */
    told why;                        /* why, for a fault */
    double ms;                       /* inside the learner's function */
} call;

/* Where an output element lies, for the spread below: form_slice()'s bits
 * (past batch 0, past head 0), or an output with neither axis. */
enum { SLICE_FIRST, SLICE_LATER_BATCH, SLICE_LATER_HEAD, SLICE_BOTH_LATER, SLICE_NO_AXES, N_SLICES };

typedef struct {
    judge_verdict verdict;
    int call;                        /* its main call */
    att_cmp cmp;                     /* over all its outputs */
    int bad_param;                   /* where the first bad element is */
    size_t bad_index;
    size_t unwritten;                /* output elements left as canary */
    size_t read_outside;             /* output elements NaN from a guard: read out of bounds, or unset memory holding one */
    const told *why;                 /* its main call's fault, a static one, or NULL */
    double ms;
    int explained;                   /* the named mistake explains its wrong outputs */
    size_t slice_n[N_SLICES], slice_wrong[N_SLICES];   /* elements, and wrong ones, by slice,
                                                        * of the outputs wrong somewhere */
} case_result;

/* Where the wrong outputs lie, told when no mistake explains them: none of
 * them in batch 0, none in head 0 of any batch, or none in batch 0's head 0
 * (but some in a later head and some in a later batch); and most of the
 * rest wrong. */
enum { SPREAD_NONE, SPREAD_BATCH, SPREAD_HEAD, SPREAD_SLICE };

typedef struct {
    int n;                           /* positions probed (the columns, keys) */
    int rows;                        /* queries watched: n unless T < S */
    unsigned char yours[MAX_PROBE][MAX_PROBE], expected[MAX_PROBE][MAX_PROBE];
    int differs;
} probe_picture;

struct judge_session {
    const judge_meta *m;
    const judge_ops *ops;
    uint64_t seed;
    call *calls;
    int n_calls;
    case_result *cases;
    int compiled;                    /* -1 not told, 0 failed, 1 ok */
    char *diagnostics, *file, *output;
    size_t output_len;
    judge_lang lang;
    int lost;                        /* something the report needs could not be kept */
    int finished;
    judge_verdict verdict;
    int verdict_case;
    /* What explains the wrong outputs (judge.c, "naming"): one mistake or a
     * pair (named[1]), over every wrong case or (partial) over the cases
     * marked explained; or state kept between calls, when case state_case
     * returned the answer of the earlier case state_from (-1: none; a
     * probe's calls count as repeats of the probed case). */
    const judge_mistake *named[2];
    int partial;
    double search_end;               /* when the mistake search must end (judge.c, judge_now_ms) */
    int search_cut;                  /* it reached that, or judge_stop ended it */
    int state_case, state_from;
    int spread;                      /* SPREAD_*, when nothing is named */
    judge_status fault;              /* the judge's own failure while deciding, or JUDGE_OK */
    probe_picture probe;
    int probe_case;
    str report;
    int want_speed;                  /* --speed */
    struct judge_speed *speed;       /* the speed part (speed.c), once made */
    struct judge_fresh *fresh;       /* the fresh run (fresh.c), once made */
    int fresh_asked;
    int paced;                       /* judge_session_paced */
};

/* CLOCK_MONOTONIC in ms: the reference's time and the speed runs' (judge.c). */
double judge_now_ms(void);

/* A session over the cases of m with these ops (judge.c); judge_session_new
 * with the problem's own. The speed runs are one (speed.c). */
judge_status judge_session_new_ops(judge_session **s, const judge_meta *m, const judge_ops *ops,
                                   uint64_t seed);
/* judge.c, for the sessions made elsewhere: a session over m with room for
 * n_calls calls, none made yet (NULL: out of memory); call `from` of a
 * session of m copied into c, as call k of its session. */
judge_session *judge_session_alloc(const judge_meta *m, const judge_ops *ops, uint64_t seed, int n_calls);
judge_status judge_call_copy(call *c, const call *from, const judge_meta *m, int k);
/* fresh.c, for judge.c: the fresh run freed; settled (its verdict read into
 * the session's naming), once it ran. */
void judge_fresh_free(struct judge_fresh *f);
void judge_fresh_settle(judge_session *s);
/* speed.c, for judge.c and report.c: the speed part freed; settled (a
 * wrong result or a crash of the speed runs becomes the session's
 * verdict), once they ran; the "speed" object of the JSON report; the
 * text report's speed table; the speed case the verdict stands on, or NULL. */
void judge_speed_free(struct judge_speed *sp);
void judge_speed_settle(judge_session *s);
void judge_speed_json(const judge_session *s, str *b);
void judge_speed_text(const judge_session *s, str *b);
const char *judge_speed_failed_case(const judge_session *s);

/* report.c's ways of writing, for the reports written elsewhere (class.c):
 * printf-like; a JSON string with its quotes; a number as JSON writes it (NaN
 * and infinities as strings); learner text on one line, control characters
 * escaped; a text in a cell `width` terminal columns wide; the columns a
 * text takes; the string handed over (NULL if any part failed); a verdict's
 * terminal colour and the colour's end (empty unless on). */
void judge_str_put(str *b, const char *fmt, ...);
void judge_str_json(str *b, const char *s);
void judge_str_json_num(str *b, double v);
void judge_str_line(str *b, const char *s);
void judge_str_cell(str *b, const char *t, int width, int right);
int judge_str_columns(const char *t);
char *judge_str_take(str *b);
const char *judge_str_colour(judge_verdict v, int on);
const char *judge_str_plain(int on);

/* A problem's ops with the speed runs' reference: its speed_core when it
 * has one (judge.h), for the speed session and judge_time_speed_core alike. */
static inline judge_ops judge_speed_ops(const judge_ops *o)
{
    judge_ops c = *o;
    if (c.speed_core) c.reference = c.speed_core;
    return c;
}

#endif
