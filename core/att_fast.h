/* att_fast.h: internal to the fast path (not part of the public header).
 *
 * The kernels are one template, core/att_kern.h, compiled three times at
 * three vector widths (att_kern_avx512.c, att_kern_avx2.c, att_kern_v128.c);
 * each compilation exports one att_kernels table. core/att_fast.c checks
 * arguments, picks a table (at run time from the CPU, or as the caller
 * forces it) and runs the table's per-thread workers through att_parallel.
 * A job struct is the whole argument list of one call; worker `tid` of `n`
 * does its share of the job with its own slice of the scratch. */
#ifndef ATT_FAST_H
#define ATT_FAST_H

#include <stdatomic.h>
#include <stddef.h>
#include "att.h"

/* Upper bounds of the register tile over all widths, for sizing scratch
 * before a table is chosen: MR rows x NR columns; BC keys per attention
 * tile (a multiple of every NR, so a key tile is whole panels); QB blocks
 * of MR queries walk the key tiles together (att_kern.h, attn_item); KC the
 * depth of a packed GEMM slab. A GEMM work item is GR blocks of MR rows by
 * GC columns (whole panels at every NR): wide enough that a block of a is
 * reused over many panels (strips of 64 re-read a, ~10% slower natively),
 * small enough for six items per d = 512 projection at the widest MR, so
 * two workers balance. */
#define ATT_MR_MAX 16
#define ATT_NR_MAX 32
#define ATT_BC 64
#define ATT_QB 4
#define ATT_KC 256
#define ATT_GC 256
#define ATT_GR 16
#define ATT_MAX_THREADS 16

typedef struct {
    float *out;              /* [M, N] */
    const float *a, *w;      /* [M, K], [K, N] */
    int M, K, N;
    float *scratch;          /* per worker: att_gemm_ws_floats(K) floats */
    size_t ws;               /* floats of scratch per worker */
    atomic_long *next;       /* the next work item to take (att_kern.h, GEMM) */
} att_gemm_job;

typedef struct {
    float *out;              /* query i of head h at out + i*ldo + h*hso */
    const float *q;          /* likewise with ldq, hsq */
    const float *k, *v;      /* key j of kv head g at k + j*ldkv + g*hskv */
    const unsigned char *key_mask;   /* [S] or NULL */
    size_t ldo, hso, ldq, hsq, ldkv, hskv;
    int T, S, H, Hkv, D, causal, window;
    float scale;
    float *scratch;
    size_t ws;               /* floats of scratch per worker */
    atomic_long *next;       /* attention: [n] items taken of each worker's range */
} att_attn_job;

/* MLA decode (att_mla_decode_simd): att.h's arguments; worker tid of n
 * takes a range of the heads of every sequence, ATT_MLA_HEADS at a time,
 * with its own ws floats of scratch (q_lat and o_lat [ATT_MLA_HEADS][d_c],
 * scores [ATT_MLA_HEADS][S]). */
enum { ATT_MLA_HEADS = 16 };
typedef struct att_mla_job {
    float *out;
    const float *q_nope, *q_pe, *c, *k_pe, *w_uk, *w_uv;
    const int *len;
    int B, H, S, d_c, d_nope, d_r, d_v;
    float scale;
    float *scratch;
    size_t ws;
} att_mla_job;

typedef struct {
    float *out;              /* [B, H, D] */
    const float *q;          /* [B, H, D] */
    const float *k_cache, *v_cache;   /* [num_blocks, block_size, Hkv, D] */
    const int *block_table;  /* [B, max_blocks] */
    const int *seq_lens;     /* [B], each in [1, max_blocks * block_size] */
    int B, H, Hkv, D, block_size, max_blocks;
    float scale;
    float *scratch;          /* [H][max_blocks * block_size], shared */
} att_paged_job;

typedef struct {
    float *out;              /* [B, H, D] */
    const float *q;          /* [B, H, D] */
    const signed char *k_q, *v_q;    /* [B, S_max, H, D] */
    const float *k_scale, *v_scale;  /* [B, S_max, H] */
    const int *keys;         /* [B]: rows 0 .. keys[b]-1 are attended */
    int B, S_max, H, D;
    float scale;
    float *scratch;          /* [B * H][S_max]: the scores of each (sequence, head) */
} att_int8_job;

/* The backward pass (att_attn_backward_simd): att.h's arguments; work items
 * are the B*H (batch, head) pairs, taken one at a time from *next, each
 * with the worker's ws floats of scratch. */
typedef struct att_bwd_job {
    float *dq, *dk, *dv;
    const float *q, *k, *v, *out, *lse, *dout;
    int B, H, T, S, D, causal;
    float scale;
    float *scratch;
    size_t ws;
    atomic_long *next;
} att_bwd_job;

typedef struct {
    const char *name;        /* "avx512", "avx2", "v128" */
    int level;               /* att_simd_level of this table */
    int native;              /* ATT_SIMD_NATIVE of its compilation */
    int real;                /* ATT_SIMD_REAL of its compilation */
    int mr, nr;              /* its register tile */
    void (*gemm)(const att_gemm_job *j, int tid, int n);
    void (*attn)(const att_attn_job *j, int tid, int n);
    void (*decode)(const att_attn_job *j, int tid, int n);
    void (*exp)(float *y, const float *x, size_t n);
    void (*paged)(const att_paged_job *j, int tid, int n);
    void (*decode_i8)(const att_int8_job *j, int tid, int n);
    void (*mla)(const struct att_mla_job *j, int tid, int n);
    void (*backward)(const struct att_bwd_job *j, int tid, int n);
} att_kernels;

extern const att_kernels att_kern_avx512, att_kern_avx2, att_kern_v128;

/* Runs fn(ctx, tid, n) for tid = 0..n-1, tid 0 on the calling thread, and
 * returns when all are done. Where threads are unavailable (wasm without
 * pthreads) or cannot be started, the calling thread runs the missing tids
 * itself, so the result never depends on n being honoured. */
typedef void (*att_task)(const void *ctx, int tid, int n);
void att_parallel(int n, att_task fn, const void *ctx);

/* Workers that att_parallel can run, one per table entry kind. */
size_t att_gemm_ws_floats(int K);
size_t att_attn_ws_floats(int T, int S, int D);

/* For entry points in files of their own (att_fast_<name>.c): the table
 * chosen (att_simd_select, else the widest native one) and the thread
 * count att_parallel will be asked for. */
const att_kernels *att_kern_chosen(void);
int att_threads_clamp(int threads);

#endif
