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

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/* ---- verdicts: DESIGN point 3 ---- */
#define JUDGE_VERDICT_LIST(X)                     \
    X(AC, "Accepted")                             \
    X(WA, "Wrong Answer")                         \
    X(CE, "Compile Error")                        \
    X(RE, "Runtime Error")                        \
    X(TLE, "Time Limit Exceeded")                 \
    X(MLE, "Memory Limit Exceeded")               \
    X(OLE, "Output Limit Exceeded")

typedef enum {
#define JUDGE_V(code, text) JUDGE_##code,
    JUDGE_VERDICT_LIST(JUDGE_V)
#undef JUDGE_V
    JUDGE_SKIPPED   /* a case not run because an earlier fault ended the run */
} judge_verdict;

const char *judge_verdict_code(judge_verdict v);   /* "AC" */
const char *judge_verdict_text(judge_verdict v);   /* "Accepted" */

/* ---- status values of the library ---- */
#define JUDGE_STATUS_LIST(X)                                       \
    X(JUDGE_OK, "ok")                                              \
    X(JUDGE_ENOMEM, "out of memory")                               \
    X(JUDGE_ENOPROBLEM, "no such problem")                         \
    X(JUDGE_EBADCASE, "a case of the problem is malformed")        \
    X(JUDGE_EBADCALL, "no such call in this session")              \
    X(JUDGE_EPROTOCOL, "the reply is malformed")

typedef enum {
#define JUDGE_S(name, msg) name,
    JUDGE_STATUS_LIST(JUDGE_S)
#undef JUDGE_S
} judge_status;

const char *judge_strerror(judge_status s);

/* ---- problems: generated from problems/<id>-<slug>/problem.json ---- */
/* A param's type. JUDGE_INT passes an int by value; the others are buffers
 * (float, unsigned char, int, long long), passed as pointers. The numbers are
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
    const judge_tensor *tensors;   /* explicit inputs (the example) */
    int n_tensors;
} judge_case;

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
    const char *mle_hint;  /* added to an MLE verdict's reason, or NULL */
} judge_meta;

extern const judge_meta judge_metas[];
extern const int judge_n_metas;
extern const char judge_runner_source[];  /* runner.c, embedded */

/* Find a problem by id ("49"), slug ("causal-mha") or folder
 * ("49-causal-mha"); NULL if none. */
const judge_meta *judge_find(const char *key);

/* `judge list`'s lines, the same for both CLIs (report.c); NULL when out of
 * memory. The caller frees it. */
char *judge_list_text(void);

/* The CLIs' usage, the same for both but for the `environment` line each
 * passes (its own variables); NULL when out of memory. The caller frees it. */
char *judge_usage_text(const char *environment);

/* Every problem as the page and the compile steps need it (report.c):
 *   [{ id, slug, dir, title: { en, zh }, difficulty, function, prototype,
 *      starter, limits: { time_ms, memory_mb, output_kb },
 *      params: [{ name, type, out, in, nullable }] }]
 * type is "int", "f32", "u8", "i32" or "i64". NULL when out of memory; the
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
 * Kernels write every out param of `a` into outs[param index]; an output that
 * is also an input ("inout") arrives there holding its input. */
typedef void (*judge_kernel)(void *const *outs, const judge_args *a);

typedef struct {
    const char *id;       /* stable, e.g. "no_scale" (tests and JSON use it) */
    const char *title;    /* one line, e.g. "scores are not scaled by 1/sqrt(D)" */
    const char *hint;     /* what to look at in the code */
    judge_kernel run;     /* computes what the mistaken code would return */
} judge_mistake;

typedef struct {
    const char *slug;
    const char *const *params;   /* the param names its code expects, in order */
    int n_params;
    /* Fill the non-explicit inputs of case c (buffers already sized). */
    void (*make_inputs)(judge_args *a, const judge_case *c, uint64_t seed,
                        int case_index);
    judge_kernel reference;
    const judge_mistake *mistakes;
    int n_mistakes;
    /* Name element i of out param p: "b=1, t=4, feature 17 (head 2, dim 5)". */
    void (*coords)(char *buf, size_t n, const judge_args *a, int p, size_t i);
    /* Probing: sequence length, and how to perturb position j of batch 0 so
     * that changed output rows show which queries a key reaches. probe_row
     * gives *n = 0 for a row past the last query: with fewer queries than
     * keys (T < S) the picture has fewer rows than columns. */
    int (*probe_len)(const judge_args *a);
    void (*probe_perturb)(judge_args *a, int j);
    void (*probe_row)(const judge_args *a, int i, size_t *start, size_t *n);
} judge_ops;

/* Probing helpers the attention problems share (probe.c). Keys and values
 * laid out [B, heads, S, D]: add 0.5 to key and value j of every head of
 * batch 0, so a query that sees key j moves (k or v: a param index, or -1
 * for none). The rows to watch: query i of batch 0, head 0, in an output
 * [B, H, T, width]; none past the T queries. */
void judge_probe_kv(judge_args *a, int k, int v, int heads, int S, int D, int j);
void judge_probe_rows(int T, int width, int i, size_t *start, size_t *n);

/* The ops of a problem (problems.c); NULL when none, or when its metadata's
 * params no longer match what the ops expect. */
const judge_ops *judge_ops_for(const judge_meta *m);

/* ---- a session ---- */

/* The seed of the hidden inputs unless the caller picks another. */
#define JUDGE_DEFAULT_SEED 20261130ull

typedef struct judge_session judge_session;

judge_status judge_session_new(judge_session **s, const judge_meta *m,
                               uint64_t seed);
void judge_session_free(judge_session *s);
int judge_session_calls(const judge_session *s);

/* The request bytes of call k; valid until the session is freed. */
judge_status judge_session_request(judge_session *s, int k,
                                   const unsigned char **bytes, size_t *len);
/* The exact length of call k's reply. */
size_t judge_session_reply_len(const judge_session *s, int k);
/* The reply of call k. A malformed one is recorded as RE and returns
 * JUDGE_EPROTOCOL. */
judge_status judge_session_reply(judge_session *s, int k,
                                 const unsigned char *bytes, size_t len);
/* Call k did not return: RE, TLE, MLE or OLE, with a sentence saying why.
 * Later calls count as not run. */
void judge_session_fault(judge_session *s, int k, judge_verdict v,
                         const char *detail);
/* The compile step's outcome; a failed compile makes the verdict CE. */
void judge_session_compiled(judge_session *s, int ok, const char *diagnostics);
/* What the learner's code printed (kept up to the problem's output cap). */
void judge_session_output(judge_session *s, const char *text, size_t len);
void judge_session_set_file(judge_session *s, const char *path);

/* Decide the verdicts: once, after the last reply or fault. */
void judge_session_finish(judge_session *s);
judge_verdict judge_session_verdict(const judge_session *s);

/* Reports, written into a buffer the session owns (valid until freed). */
const char *judge_session_json(judge_session *s);
const char *judge_session_text(judge_session *s, int color);

#endif
