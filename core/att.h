/* att.h: the attention core's one public header.
 *
 * What is here: the deterministic input generator, the plain scalar reference
 * kernels (suffix _ref), a double-precision oracle for the tests, and the
 * element-wise comparison the judge uses. What is not: anything about judging,
 * processes or problems (see judge/).
 *
 * Conventions, everywhere in this header:
 *   - tensors are contiguous, row-major float arrays; outputs come first;
 *   - dimension legend: B batch, T queries, S keys, H heads, D head dim,
 *     d model dim (d = H * D);
 *   - the caller owns every buffer, scratch included: no kernel allocates;
 *   - a key mask is unsigned char, 1 = real token, 0 = padding, or NULL for
 *     "all real"; a masked key is seen by no query;
 *   - causal with a KV cache: T queries are the last T of S positions, so query
 *     i sees key j iff j <= i + (S - T) (tril with diagonal S - T);
 *   - a query that sees no key outputs zeros, never NaN.
 */
#ifndef ATT_H
#define ATT_H

#include <stddef.h>
#include <stdint.h>

/* ---- status values: one list, one message each ---- */
#define ATT_STATUS_LIST(X)                                                  \
    X(ATT_OK, "ok")                                                         \
    X(ATT_EBADSHAPE, "a size is not positive")                              \
    X(ATT_EHEADS, "the model dim d is not a multiple of the head count H")

typedef enum {
#define ATT_ENUM(name, msg) name,
    ATT_STATUS_LIST(ATT_ENUM)
#undef ATT_ENUM
} att_status;

const char *att_strerror(att_status s);

/* ---- deterministic generator ----
 * Counter-based: value i of stream `stream` under `seed` is a pure function of
 * (seed, stream, i), computed with 64-bit integer arithmetic only (SplitMix64's
 * finaliser over a mixed counter). Floats are built from the top 24 bits:
 * u24 / 2^23 - 1 is exact in float32, so the values in [-1, 1) are bit-identical
 * on every compiler and target, with no libm on the path. */
uint64_t att_rng_u64(uint64_t seed, uint64_t stream, uint64_t i);

/* x[i] = scale * uniform[-1, 1) for i < n; the one product rounds the same
 * everywhere (IEEE float32, round to nearest). */
void att_fill_uniform(float *x, size_t n, uint64_t seed, uint64_t stream,
                      float scale);

/* FNV-1a over n bytes: the tests pin generated tensors with it, and the
 * judge reports it for each case's inputs, so backends can be compared. */
uint64_t att_hash_bytes(const void *p, size_t n);

/* ---- reference kernels (plain loops, double accumulation) ---- */

/* out[M, N] = a[M, K] · w[K, N]. */
void att_matmul_ref(float *out, const float *a, const float *w,
                    int M, int K, int N);

/* y[r, :] = softmax(x[r, :]) for each of `rows` rows of n, max-subtracted.
 * A row whose entries are all -INFINITY becomes all zeros. y may equal x. */
void att_softmax_ref(float *y, const float *x, int rows, int n);

/* Scaled dot-product attention for one head.
 *   out [T, D] with row stride ldo
 *   q   [T, D] with row stride ldq
 *   k,v [S, D] with row stride ldkv
 *   key_mask [S] or NULL
 *   scratch  [S] floats
 * out_i = sum_j p_ij v_j, p_i = softmax_j(scale * q_i · k_j) over the keys j
 * that query i sees (key_mask, and with causal j <= i + S - T). */
void att_sdpa_ref(float *out, int ldo, const float *q, int ldq,
                  const float *k, const float *v, int ldkv,
                  const unsigned char *key_mask, int T, int S, int D,
                  int causal, float scale, float *scratch);

/* Multi-head self-attention, exercise 49's semantics.
 *   out [B, T, d]; x [B, T, d]; wq, wk, wv, wo [d, d] right-multiplied
 *   (q = x · wq); mask [B, T] key padding mask or NULL;
 *   head h owns features [h*D, (h+1)*D), D = d / H; scale 1/sqrt(D);
 *   the heads are concatenated and multiplied by wo.
 *   scratch: att_mha_scratch_floats(T, d) floats.
 * Returns ATT_EBADSHAPE or ATT_EHEADS without touching out. */
size_t att_mha_scratch_floats(int T, int d);
att_status att_mha_ref(float *out, const float *x, const float *wq,
                       const float *wk, const float *wv, const float *wo,
                       const unsigned char *mask, int B, int T, int d, int H,
                       int causal, float *scratch);

/* The oracle: the same function as att_mha_ref computed entirely in double,
 * written independently of it, for the tests. scratch: att_mha_oracle_scratch
 * doubles. */
size_t att_mha_oracle_scratch(int T, int d);
att_status att_mha_oracle(double *out, const float *x, const float *wq,
                          const float *wk, const float *wv, const float *wo,
                          const unsigned char *mask, int B, int T, int d,
                          int H, int causal, double *scratch);

/* ---- comparison (DESIGN point 6) ----
 * Element i is right iff |got - ref| <= atol + rtol * |ref| (written so that a
 * NaN fails); a NaN or infinite ref is matched only by the same non-finite
 * value (mistake simulations produce them). */
typedef struct {
    size_t n;          /* elements compared */
    size_t n_bad;      /* elements outside the tolerance */
    size_t first_bad;  /* index of the first bad element, or n if none */
    size_t worst;      /* index of the largest err / tol (n if none) */
    double max_abs;    /* max |got - ref| over finite pairs */
    double max_rel;    /* max |got - ref| / |ref| over finite pairs, ref != 0 */
    double max_ratio;  /* max err / tol: under 1 passes; +inf for a NaN */
} att_cmp;

void att_compare(att_cmp *r, const float *got, const float *ref, size_t n,
                 double atol, double rtol);

#endif
