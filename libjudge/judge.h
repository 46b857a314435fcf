/* judge.h: the judge's one public header.
 *
 * The judge is a library that never runs learner code itself. A session turns
 * a problem into a fixed plan of calls; for each call it hands out a request
 * (the inputs, as bytes), takes back a reply (the outputs, as bytes) or a fault
 * from whoever ran the learner's function (the native sandbox, sandbox.c, or
 * the wasm loader in JavaScript), and at the end decides the verdicts and
 * writes the report. So the process that decides never shares an address space
 * with learner code, and both backends share every line of judging.
 *
 * Wire format (little-endian u32 unless said; the magic numbers and element
 * sizes are wire.h's, the one list C and JavaScript share):
 *   request: "ATQ1" call n_params, then per param: type (judge_type), is_null,
 *            int value or element count, guard elements; then for each buffer
 *            param that is not null its region: guard, data, guard (an
 *            output's data is canary unless it is also an input).
 *   reply:   "ATR1" call, u64 nanoseconds inside the function, then every
 *            non-null buffer region of the request, as the function left it.
 *   The runner allocates each region, passes a pointer past its front guard,
 *   and knows nothing else: guards and canaries are the judge's business.
 */
#ifndef JUDGE_H
#define JUDGE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "form_knobs.h"   /* generated from form.json: judge_changes */
#include "messages.h"   /* generated from libjudge/messages.json: judge_msg */

#include "wire.h"

/* ---- languages: every sentence of a report exists in each ----
 * The sentences are data (libjudge/messages.json, a printf format per
 * language with the same conversions); ids never depend on the language. */
typedef enum { JUDGE_LANG_EN = 0, JUDGE_LANG_ZH = 1 } judge_lang;

/* "en" or "zh" into *lang: 0, or -1 for any other name. */
int judge_lang_parse(const char *name, judge_lang *lang);
/* The CLIs' default (pass getenv's values, NULL when unset): LC_ALL when set
 * and not empty, else LANG; a value starting with "zh" is Chinese, anything
 * else English. */
judge_lang judge_lang_from_env(const char *lc_all, const char *lang);
/* A message by its name in messages.json ("verdict_ac"): its id, or -1. */
int judge_msg_find(const char *name);
/* Its text in `lang`: a printf format (NULL for an id out of range). */
const char *judge_msg_text(int msg, judge_lang lang);
/* A system error in lang where messages.json words it (errno_enoent: the
 * errors a learner meets with files), else as strerror() does. */
const char *judge_errno_text(int err, judge_lang lang);

/* ---- verdicts: DESIGN point 3; their texts are messages verdict_<code> ---- */
#define JUDGE_VERDICT_LIST(X) X(AC) X(WA) X(CE) X(RE) X(TLE) X(MLE) X(OLE)

typedef enum {
#define JUDGE_V(code) JUDGE_##code,
    JUDGE_VERDICT_LIST(JUDGE_V)
#undef JUDGE_V
    JUDGE_SKIPPED   /* a case not run because an earlier fault ended the run */
} judge_verdict;

const char *judge_verdict_code(judge_verdict v);                   /* "AC" */
const char *judge_verdict_text(judge_verdict v, judge_lang lang);  /* "Accepted" */

/* ---- status values of the library ---- */
#define JUDGE_STATUS_LIST(X)                                       \
    X(JUDGE_OK, "ok")                                              \
    X(JUDGE_ENOMEM, "out of memory")                               \
    X(JUDGE_ENOPROBLEM, "no such problem")                         \
    X(JUDGE_EBADCASE, "a case of the problem is malformed")        \
    X(JUDGE_EBADCALL, "no such call in this session")              \
    X(JUDGE_EPROTOCOL, "the reply is malformed")                   \
    X(JUDGE_EREFERENCE, "a reference kernel refused a case")

typedef enum {
#define JUDGE_S(name, msg) name,
    JUDGE_STATUS_LIST(JUDGE_S)
#undef JUDGE_S
} judge_status;

const char *judge_strerror(judge_status s);

/* ---- problems: generated from problems/<id>-<slug>/problem.json ---- */
/* A param's type. JUDGE_INT passes an int by value; the others are buffers
 * (float, unsigned char, int, long long, signed char), passed as pointers. The numbers are
 * part of the wire format: the runners size elements by them (wire.h). */
typedef enum {
#define JUDGE_T(name, json, size) JUDGE_##name,
    JUDGE_TYPE_LIST(JUDGE_T)
#undef JUDGE_T
} judge_type;

#define JUDGE_MAX_PARAMS 16
#define JUDGE_MAX_RANK 4

typedef struct {
    const char *name;     /* as in the C prototype */
    judge_type type;
    int is_out;           /* written by the function, checked by the judge */
    int is_in;            /* read by the function (an output may be both);
                           * a buffer that is neither is scratch space: sent
                           * as canary, guards checked, never compared */
    int nullable;         /* the judge may pass NULL */
    int rank;             /* buffers: number of dims */
    int dims[JUDGE_MAX_RANK];  /* each the index of the int param sizing it */
    int dims_plus[JUDGE_MAX_RANK];  /* added to that param's value: cu_seqlens
                                     * [B + 1]; 0 on every output's dims */
} judge_param;

typedef struct {
    const char *param;    /* the input it fills */
    const float *data;
    size_t n;
} judge_tensor;

typedef struct {
    const char *name;
    int visible;          /* shown to the learner as the statement's example */
    int probe;            /* also probed for which keys reach which queries */
    const int *ints;      /* indexed by param: the value of each int param */
    const char *mask;     /* how nullable u8 masks are made: none, ones, right, left, random */
    float scale;          /* how much larger than usual its scores are (the ops decide how) */
    int negative;         /* every score below 0 (judge_sign): a max that starts at 0 shows */
    const judge_tensor *tensors;   /* explicit inputs (the example) */
    int n_tensors;
} judge_case;

/* A classic mistake, as the problem's data names it: its texts (index 0
 * English, 1 Chinese) and what it changes in the problem's form, as one or
 * more alternatives (each a way of writing the same mistake), each tried. */
typedef struct {
    const char *id;       /* stable, e.g. "no_scale" (tests and JSON use it) */
    const char *title[2]; /* one line, e.g. "scores are not scaled by 1/sqrt(D)" */
    const char *hint[2];  /* what to look at in the code */
    const judge_changes *alts;
    int n_alts;
} judge_mistake;

/* The problem in the terms of the shared attention form (form.h), from
 * problem.json's "attention": which params are the queries, keys, values and
 * outputs, with their axes one letter per shape dim (b batch, h query head,
 * g kv head, t query position, s key position, c head dim, f feature =
 * head * D + c; the sink logits, one per head: h). A param index of -1 means
 * "not in this problem". */
enum { JUDGE_SIZE_B, JUDGE_SIZE_H, JUDGE_SIZE_HKV, JUDGE_SIZE_T, JUDGE_SIZE_S,
       JUDGE_SIZE_D, JUDGE_SIZE_MODEL, JUDGE_N_SIZES };
enum { JUDGE_VIEW_Q, JUDGE_VIEW_K, JUDGE_VIEW_V, JUDGE_VIEW_OUT, JUDGE_VIEW_MASK,
       JUDGE_VIEW_LSE, JUDGE_VIEW_PROBS, JUDGE_VIEW_FIRST_KEY, JUDGE_VIEW_X,
       JUDGE_VIEW_SINK_LOGIT, JUDGE_N_VIEWS };
typedef struct {
    int param;
    const char *axes;
} judge_view_spec;
typedef struct {
    int param;            /* an int param, or -1 for the constant value */
    int value;
} judge_flag_spec;
typedef struct {
    int size[JUDGE_N_SIZES];        /* int params: B, H, Hkv, T, S, D, d (-1: derived) */
    int size_value[JUDGE_N_SIZES];  /* a constant size where the param is -1 (0: derived) */
    judge_view_spec view[JUDGE_N_VIEWS];
    int proj[4];                    /* wq, wk, wv, wo when q, k, v are projections of x */
    judge_flag_spec causal, window, sinks;
    judge_flag_spec cap, alibi;     /* soft cap (0: none) and ALiBi on or off (exercise 63) */
} judge_attention;

/* A speed case (problem.json's "speed"): sizes and inputs as a case's, and
 * how its work is counted (core/att_work.c): FLOPs for "mha" and "mla"
 * (att_work_mha, att_work_mla), bytes read for "decode", "paged" and
 * "int8_decode" (att_work_decode, att_work_paged, att_work_int8_decode). */
typedef struct {
    judge_case c;
    const char *work;
} judge_speed_case;

typedef struct {
    int id;
    const char *slug, *dir, *title_en, *title_zh, *difficulty;
    const char *function;  /* the learner's function */
    const char *prototype; /* its C declaration, force-included when compiling */
    const char *invoke;    /* C source of judge_invoke(), which calls it (runner) */
    const char *starter;   /* starter.c */
    const judge_param *params;
    int n_params;
    const judge_case *cases;
    int n_cases;
    double atol, rtol;
    int time_ms, memory_mb, output_kb;
    const char *mle_hint[2];  /* by judge_lang: added to an MLE verdict's reason, or NULL */
    const judge_mistake *mistakes;
    int n_mistakes;
    const judge_attention *attention;   /* NULL: not an attention form */
    const char *const (*hints)[2];      /* [n_hints][judge_lang]: revealed one at a time */
    int n_hints;
    const judge_speed_case *speed;      /* timed after an accepted run (speed.c) */
    int n_speed;
} judge_meta;

extern const judge_meta judge_metas[];
extern const int judge_n_metas;
/* Not a problem's own mistakes (problems/mistakes.json's texts): the judge
 * finds the first by calling the function again with a shape it has seen,
 * the second by a fresh run (judge_session_fresh). */
extern const judge_mistake judge_state_kept, judge_earlier_calls;
extern const char judge_runner_source[];  /* runner.c, embedded */

/* Find a problem by id ("49"), slug ("causal-mha") or folder
 * ("49-causal-mha"); NULL if none. */
const judge_meta *judge_find(const char *key);

/* `judge list`'s lines, the same for both CLIs (report.c), titles in `lang`;
 * NULL when out of memory. The caller frees it. */
char *judge_list_text(judge_lang lang);

/* The CLIs' usage, the same for both but for the `environment` line each
 * names (a message listing its own variables); NULL when out of memory. The
 * caller frees it. */
char *judge_usage_text(judge_msg environment, judge_lang lang);

/* Hint k (1 to m->n_hints) of problem m in `lang`, with a note after the
 * last (every problem has two or three: the generator requires them); for any other
 * k, the one line saying which hints there are (the CLIs' error). NULL when
 * out of memory; the caller frees it. */
char *judge_hint_text(const judge_meta *m, int k, judge_lang lang);

/* The package's version (package.json's) and the shell completion scripts
 * (libjudge/completion.bash, completion.zsh), generated into both CLIs. */
extern const char judge_version[], judge_completion_bash[], judge_completion_zsh[];

/* Every problem as the page and the compile steps need it (report.c):
 *   [{ id, slug, dir, title: { en, zh }, difficulty, function, prototype,
 *      starter, hints: [{ en, zh }], limits: { time_ms, memory_mb, output_kb },
 *      params: [{ name, type, out, in, nullable }] }]
 * type is "int", "f32", "u8", "i32", "i64" or "i8". NULL when out of memory; the
 * caller frees it. */
char *judge_problems_json(void);

/* ---- the arguments of one call, as the judge holds them ---- */
typedef struct {
    const judge_meta *meta;
    int ints[JUDGE_MAX_PARAMS];     /* int params (0 for buffers) */
    void *buf[JUDGE_MAX_PARAMS];    /* buffer params, NULL when passed as NULL */
    size_t len[JUDGE_MAX_PARAMS];   /* elements of each buffer */
} judge_args;

/* Index of a param by name, -1 if none; value of an int param by name. */
int judge_param_index(const judge_meta *m, const char *name);
int judge_int(const judge_args *a, const char *name);

/* ---- what the judge knows about one problem beyond its data ----
 * The reference and the simulations write every out param of `a` into
 * outs[param index]; an output that is also an input ("inout") arrives there
 * holding its input. */

typedef struct {
    const char *slug;
    const char *const *params;   /* the param names its code expects, in order */
    int n_params;
    /* Fill the non-explicit inputs of case c (buffers already sized). */
    void (*make_inputs)(judge_args *a, const judge_case *c, uint64_t seed,
                        int case_index);
    /* The expected outputs; a status other than JUDGE_OK is a judge fault. */
    judge_status (*reference)(void *const *outs, const judge_args *a);
    /* What code with the changes ch would return (`variant` of those the
     * changes have, form_variants()). NULL: the attention form (form.c). */
    judge_status (*simulate)(void *const *outs, const judge_args *a,
                             const judge_changes *ch, int variant);
    /* Name element i of out param p: "b=1, t=4, feature 17 (head 2, dim 5)".
     * NULL: from the attention form's axes. */
    void (*coords)(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang);
    /* The core's SIMD kernel (one thread) that the speed runs time (speed.c).
     * NULL: the reference is that kernel already (problem_mha.c). */
    judge_status (*speed_core)(void *const *outs, const judge_args *a);
    /* How many ways `simulate` has of computing the changes ch (its
     * `variant`); NULL: one. */
    int (*variants)(const judge_changes *ch);
} judge_ops;

/* The variants of changes ch a problem with these ops simulates: the form's
 * (form_variants()), or the ops' own. */
int judge_variants(const judge_ops *ops, const judge_changes *ch);

/* Append one coordinate, message msg (an axis_* of messages.json) in lang
 * with its numbers, to the coordinates in buf (", " between them). */
void judge_coord(char *buf, size_t n, judge_lang lang, int msg, ...);

/* A key padding mask [B, n] of the case's kind (judge_case.mask): "ones";
 * "right" or "left": batch b pads (b + 1) * n / (B + 2) positions at that
 * end, so batches differ; "random": about one key in four is padding, from
 * (seed, stream), and with first_empty all of batch 0 is (a query that sees
 * no key). */
void judge_fill_mask(unsigned char *mask, int B, int n, const char *kind, uint64_t seed,
                     uint64_t stream, int first_empty);

/* x[i] = sign * (|x[i]| + max |x|) / 2, on a grid of a power of 2 near
 * max / 64: queries made negative and keys positive make every score q.k
 * negative, and the magnitudes lifted into [max/2, max] keep a row's scores
 * close together, so that every visible score of a row is far below 0 at
 * once (a case with "negative": true). On the grid, q.k is exact in float. */
void judge_sign(float *x, size_t n, int sign);

/* The ops of a problem (problems.c); NULL when none, or when its metadata's
 * params no longer match what the ops expect. */
const judge_ops *judge_ops_for(const judge_meta *m);

/* ---- a session ---- */

/* The seed of the hidden inputs unless the caller picks another. */
#define JUDGE_DEFAULT_SEED 20261130ull

typedef struct judge_session judge_session;

judge_status judge_session_new(judge_session **s, const judge_meta *m,
                               uint64_t seed);
/* A new session as `blank` was when judge_session_new made it: the same
 * inputs, expected outputs and requests, copied rather than made again
 * (making them runs the reference on every case). blank must not have
 * been judged (JUDGE_EBADCALL). */
judge_status judge_session_copy(judge_session **s, const judge_session *blank);
void judge_session_free(judge_session *s);
int judge_session_calls(const judge_session *s);
/* 1 when the session times the reference again right after each reply (the
 * speed runs): then call k + 1 must not start before call k's reply is handed
 * in, or the two would run at once. The native runner always waits; the wasm
 * host paces its worker only then. */
int judge_session_paced(const judge_session *s);
/* The core's time on a paced session's request, taken by the caller where
 * the learner's calls run (the wasm run worker: the learner's thread; a
 * browser cannot keep two threads on one CPU, and two CPUs need not run at
 * one speed): judge_time_speed_core there, on call k's request right after
 * the learner's call on it, then judge_session_core_timed here, before its
 * reply, which then times the core no more. m: the session's problem; req:
 * the request as judge_session_request made it. */
judge_status judge_time_speed_core(const judge_meta *m, const unsigned char *req, size_t len,
                                   double *ms);
void judge_session_core_timed(judge_session *s, int k, double ms);

/* The request bytes of call k; valid until the session is freed. */
judge_status judge_session_request(judge_session *s, int k,
                                   const unsigned char **bytes, size_t *len);
/* The exact length of call k's reply. */
size_t judge_session_reply_len(const judge_session *s, int k);
/* The reply of call k. A malformed one is recorded as RE and returns
 * JUDGE_EPROTOCOL. */
judge_status judge_session_reply(judge_session *s, int k,
                                 const unsigned char *bytes, size_t len);
/* One argument of a message told later: a text used as is (numbers already
 * written out), or, when text is NULL, message `msg` (itself without
 * arguments), told in the session's language. */
typedef struct {
    const char *text;
    int msg;
} judge_arg;
#define JUDGE_TEXT(t) ((judge_arg){ (t), -1 })
#define JUDGE_MSG(m) ((judge_arg){ NULL, (m) })
#define JUDGE_MAX_ARGS 6

/* Call k did not return: RE, TLE, MLE or OLE, with why: message `msg` (a
 * detail_ one: its conversions are all %s) and its n_args arguments, copied.
 * The words are chosen when a report is written, in the session's language.
 * Later calls count as not run. */
void judge_session_fault(judge_session *s, int k, judge_verdict v, judge_msg msg,
                         const judge_arg *args, int n_args);
/* The compile step's outcome; a failed compile makes the verdict CE. */
void judge_session_compiled(judge_session *s, int ok, const char *diagnostics);
/* What the learner's code printed (kept up to the problem's output cap). */
void judge_session_output(judge_session *s, const char *text, size_t len);
void judge_session_set_file(judge_session *s, const char *path);
/* The language of its reports (English unless set). */
void judge_session_set_lang(judge_session *s, judge_lang lang);
judge_lang judge_session_lang(const judge_session *s);

/* Set asynchronously (natively, by a signal handler: Ctrl-C) to end what
 * runs as soon as it can: a native run (native.h), a mistake search. */
extern volatile sig_atomic_t judge_stop;

/* Decide the verdicts: once, after the last reply or fault. The search for
 * a known mistake that explains wrong outputs has a time limit (judge.c,
 * SEARCH_MS): past it, the best explanation found so far stands, and the
 * report says the search was cut short. */
void judge_session_finish(judge_session *s);
judge_verdict judge_session_verdict(const judge_session *s);
/* JUDGE_OK, or what failed inside the judge while deciding (out of memory):
 * a judge fault, never a learner's verdict. */
judge_status judge_session_error(const judge_session *s);

/* Reports, written into a buffer the session owns (valid until freed); NULL
 * when the judge could not write or keep the whole of it (out of memory):
 * never a report cut short. */
const char *judge_session_json(judge_session *s);
const char *judge_session_text(judge_session *s, int color);
/* The learner's total time and the reference's over the cases that ran (the
 * sums of the JSON's time_ms and ref_ms): 1, or 0 when no case ran. */
int judge_session_times(const judge_session *s, double *yours, double *ref);

/* ---- the fresh run (fresh.c) ----
 * A wrong case that no mistake explains, and that is not the first call, is
 * run again alone as the first call of a fresh instance of the learner's
 * program (the same inputs). Right there, the result depends on the calls
 * before it (something kept from them, or memory read before it is set), and
 * the report names that (judge_earlier_calls). judge_session_fresh: that run,
 * a session of one call to run as any session's calls, in a new process or
 * module instance; NULL when none is needed (not wrong, a mistake named, the
 * first case) or it could not be made. Call once the session's own calls are
 * all answered or faulted: it decides their verdict. Owned by s. */
judge_session *judge_session_fresh(judge_session *s);

/* ---- speed: the speed tier (speed.c) ----
 * After every correctness case passes, each of the problem's speed cases is
 * called once to warm up and then JUDGE_SPEED_RUNS times, each on fresh
 * inputs and checked like a case; the core's SIMD kernel is timed on the
 * same inputs on the same backend (one thread), and the machine's FMA
 * throughput and read bandwidth are measured in the same run. Tiers by the
 * median time against the core's median: gold <= 1.25x, silver <= 2x,
 * bronze <= 4x, else none; the problem's tier is its lowest case's. The
 * speed runs have their own time limit, for all of them together:
 * JUDGE_SPEED_BUDGET_TIMES the core's time on the same calls, plus
 * JUDGE_SPEED_BUDGET_MS (so a loaded machine slows both sides alike); past
 * it, no tier ("too slow"), and the verdict stays the correctness run's. A
 * wrong result or a crash there is the run's verdict. */
#define JUDGE_SPEED_RUNS 5
#define JUDGE_SPEED_BUDGET_TIMES 100
/* The fixed part also covers the judge's side of each call, which the wall
 * clock counts: sending the inputs to the program pinned on the judge's CPU
 * (52's speed case sends a 134 MB cache a call: with 2 s, 4 of 8 runs on a
 * quiet Zen 5 missed the budget, 2 as "too slow" and 2 as RE). */
#define JUDGE_SPEED_BUDGET_MS 10000

/* The problem a session judges (a speed session's: its speed runs as cases). */
const judge_meta *judge_session_meta(const judge_session *s);
/* Ask for the speed part (--speed): reports get a "speed" object. */
void judge_session_want_speed(judge_session *s);
/* The speed runs to run now, as a session of their own (its calls,
 * requests, replies and faults as any session's; its limits are the
 * problem's but for the time, the budget above, judge_session_meta's
 * time_ms): NULL when speed was not
 * asked for or must not run (the report says why: not accepted, no speed
 * cases, out of memory). Call once the correctness calls are all answered
 * or faulted: it decides their verdict. Owned by s. */
judge_session *judge_session_speed(judge_session *s);

/* ---- a class: many files of one problem, told as one table (class.c) ----
 * Each file is judged in a session of its own (a sandbox of its own, on
 * either backend); what the table needs of it is its row, copied out of the
 * finished session, so a session can be judged in another process and only
 * its row and its JSON report travel back. */
typedef struct {
    int verdict;            /* a judge_verdict, or -1: not judged (why says why) */
    char mistake[128];      /* the named mistake's id, a pair as "a+b"; "" none */
    char failed_case[64];   /* the case the verdict stands on; "" none */
    double max_abs;         /* worst over the cases that ran (NaN for a NaN output); -1 when none ran */
    double time_ms, ref_ms; /* judge_session_times; NAN when none ran */
    char why[256];          /* when not judged: why (the CLI's one line) */
} judge_class_row;

/* The row of a finished session (it is finished here if it was not). */
void judge_class_row_of(judge_session *s, judge_class_row *row);

typedef struct judge_class judge_class;

/* A class of n files of problem m, told in lang; every row starts not judged. */
judge_status judge_class_new(judge_class **c, const judge_meta *m, int n, judge_lang lang);
void judge_class_free(judge_class *c);
/* Row i: its file (as the user named it), its row and, when judged, its JSON
 * report (one line, as --json prints it), all copied. */
judge_status judge_class_set(judge_class *c, int i, const char *file, const judge_class_row *row,
                             const char *json);
/* 1 when every file was judged and accepted. */
int judge_class_accepted(const judge_class *c);
/* The class told: the table and the counts line ("12 AC · 9 WA (5 no_scale,
 * 1 unnamed) · 2 TLE"), coloured when color; the same table as CSV with a
 * header row (mistake ids, times in ms, fixed English column names: a
 * program reads it); the JSON reports, one line per file in their order (a
 * file not judged: {"file":..., "error":...}); one self-contained HTML page
 * (the table, the reports, the page's own pictures, no network). NULL when
 * out of memory; the caller frees each. */
char *judge_class_text(const judge_class *c, int color);
char *judge_class_csv(const judge_class *c);
char *judge_class_jsonl(const judge_class *c);
char *judge_class_html(const judge_class *c);

#endif
