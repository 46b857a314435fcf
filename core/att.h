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
 *     d model dim (d = H * D), Hkv key/value heads (GQA), W window length;
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
    X(ATT_EHEADS, "the model dim d is not a multiple of the head count H") \
    X(ATT_ECACHEFULL, "a KV cache length is negative or leaves no free slot")  \
    X(ATT_EKVHEADS, "the head count H is not a multiple of the key/value head count Hkv") \
    X(ATT_ENOSIMD, "this CPU cannot run that SIMD level")                 \
    X(ATT_EBLOCKTABLE, "a sequence length is not in [1, max_blocks * block_size], or a block it uses is not in the cache")

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

/* Softmax rows (exercise 45) are att_softmax_ref above; scaled dot-product
 * attention (exercise 47) is att_sdpa_ref per (batch, head). */

/* Heads split (exercise 46): the view(B, T, H, D).transpose(1, 2) of the
 * chapter. out [B, H, T, D], x [B, T, d] with d = H * D:
 *   out[b][h][t][c] = x[b][t][h*D + c]   (head h owns features [hD, hD + D)). */
void att_split_heads_ref(float *out, const float *x, int B, int T, int H, int D);

/* Heads merge, the inverse of the split: out [B, T, d], y [B, H, T, D]:
 *   out[b][t][h*D + c] = y[b][h][t][c]. */
void att_merge_heads_ref(float *out, const float *y, int B, int T, int H, int D);

/* Attention probabilities of one head (exercise 48), the p of att_sdpa_ref.
 *   p [T, S] with row stride ldp; q [T, D] row stride ldq; k [S, D] row
 *   stride ldk; key_mask [S] or NULL.
 * p_ij = softmax_j(scale * q_i . k_j) over the keys j query i sees (key_mask,
 * and with causal j <= i + S - T); every other p_ij is 0, and a query that
 * sees no key gets a row of zeros. */
void att_probs_ref(float *p, int ldp, const float *q, int ldq, const float *k,
                   int ldk, const unsigned char *key_mask, int T, int S, int D,
                   int causal, float scale);

/* Sliding-window causal self-attention of one head (exercise 50).
 *   out [T, D] row stride ldo; q, k, v [T, D] row stride ld; scratch [T].
 * Query i sees keys j with i - W < j <= i: W = 1 sees only itself, W >= T is
 * plain causal attention. W >= 1 (every query sees at least itself). */
void att_window_ref(float *out, int ldo, const float *q, const float *k,
                    const float *v, int ld, int T, int D, int W, float scale,
                    float *scratch);

/* Grouped-query attention (exercise 51).
 *   out, q [B, H, T, D]; k, v [B, Hkv, S, D]; scratch [S] floats.
 * Query head h uses key/value head h / (H / Hkv), so consecutive groups of
 * H / Hkv query heads share one; Hkv = H is plain multi-head attention, Hkv = 1
 * is multi-query attention. Scale 1/sqrt(D); with causal, query i sees key j
 * iff j <= i + S - T (the KV-cache offset). Returns ATT_EBADSHAPE, or
 * ATT_EKVHEADS when H % Hkv != 0, without touching out. */
att_status att_gqa_ref(float *out, const float *q, const float *k,
                       const float *v, int B, int H, int Hkv, int T, int S,
                       int D, int causal, float *scratch);

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

/* FLOPs of one attention layer (no batch), 2 FLOPs per multiply-add:
 *   *proj  = the four projections q, k, v, o: 4 * 2 T d^2 = 8 T d^2;
 *   *attn  = the two attention matmuls Q K^T and P V: 2 * 2 T^2 d = 4 T^2 d
 *            (independent of the head count);
 *   *cross = the smallest T with attn > proj, 2d + 1 (T = 2d is a tie).
 * Exact in 64 bits while 8 T d^2 and 4 T^2 d stay below 2^63. */
void att_attn_flops_ref(long long *proj, long long *attn, long long *cross,
                        int d, int T);

/* One decode step with a KV cache (exercise 52), B independent sequences.
 *   out [B, H, D]; q, k, v [B, H, D]: the new token's query, key and value;
 *   k_cache, v_cache [B, S_max, H, D] (position-major, as llama2.c): rows
 *   0 .. len[b]-1 of sequence b hold its earlier tokens, the rest is stale;
 *   len [B] in-out: tokens in each cache; scratch [S_max] floats.
 * Appends k, v at row len[b], then the new query attends (scale 1/sqrt(D),
 * no mask: every cached key is in its past) over rows 0 .. len[b], and
 * len[b] becomes len[b] + 1. Rows past the new length are left untouched.
 * Returns ATT_EBADSHAPE, or ATT_ECACHEFULL when some len[b] is not in
 * [0, S_max), without touching anything. Decoding T tokens one by one from
 * an empty cache gives exactly causal prefill (att_sdpa_ref, S = T). */
att_status att_decode_step_ref(float *out, float *k_cache, float *v_cache,
                               int *len, const float *q, const float *k,
                               const float *v, int B, int S_max, int H, int D,
                               float *scratch);

/* Attention with sinks, StreamingLLM's cache policy (exercise 53), causal
 * self-attention over [B, H, T, D]:
 *   out, q, k, v [B, H, T, D]; scratch [T] floats; scale 1/sqrt(D).
 * Query i sees key j iff j <= i and (j < n_sink or j > i - W): the first
 * n_sink tokens (the sinks) plus the W most recent ones, itself included.
 * A key that is both a sink and recent counts once. n_sink = 0 is a sliding
 * window; W >= T or n_sink >= T is plain causal attention. Returns
 * ATT_EBADSHAPE (a size <= 0, W < 1 or n_sink < 0) without touching out. */
att_status att_sink_ref(float *out, const float *q, const float *k,
                        const float *v, int B, int H, int T, int D,
                        int n_sink, int W, float *scratch);

/* Cross-attention (exercise 54): T decoder queries against S encoder keys.
 *   out, q [B, H, T, D]; k, v [B, H, S, D]; enc_mask [B, S] (1 = real
 *   encoder token) or NULL; scratch [S] floats; scale 1/sqrt(D); no causal
 *   mask (S and T are different sequences; S != T in general).
 * An encoder key whose mask is 0 is seen by no query; a sequence whose
 * encoder mask is all 0 gives zeros for every query, never NaN. Returns
 * ATT_EBADSHAPE without touching out. */
att_status att_cross_ref(float *out, const float *q, const float *k,
                         const float *v, const unsigned char *enc_mask, int B,
                         int H, int T, int S, int D, float *scratch);

/* Attention that also returns each row's log-sum-exp: what a FlashAttention
 * forward pass returns (exercise 55), computed here the plain way.
 *   out, q [B, H, T, D]; k, v [B, H, S, D]; lse [B, H, T]; scratch [S].
 * s_ij = q_i . k_j / sqrt(D) over the keys query i sees (all of them, or
 * with causal j <= i + S - T, the KV-cache offset); out_i = softmax(s_i) v
 * and lse_i = log(sum_j exp(s_ij)) (natural log, in double). A query that
 * sees no key (causal with S < T) gives zeros and lse = -INFINITY. Returns
 * ATT_EBADSHAPE without touching out. */
att_status att_attn_lse_ref(float *out, float *lse, const float *q,
                            const float *k, const float *v, int B, int H,
                            int T, int S, int D, int causal, float *scratch);

/* One decode step over a paged KV cache (exercise 59), as vLLM's paged
 * attention and FlashInfer's NHD layout keep it: the cache is a pool of
 * fixed-size blocks, and each sequence's table names the blocks it uses.
 *   out, q [B, H, D]: one query per sequence (the new token);
 *   k_cache, v_cache [num_blocks, block_size, Hkv, D];
 *   block_table [B, max_blocks]: entry i of row b is the physical block of
 *   sequence b's logical block i; seq_lens [B]; scratch [max_blocks *
 *   block_size] floats.
 * Key p of sequence b (0 <= p < seq_lens[b]) is row p % block_size of block
 * block_table[b][p / block_size]; the cache already holds the new token, so
 * there is no mask. Query head h reads kv head h / (H / Hkv); scale
 * 1/sqrt(D). Blocks may be shared between sequences (a common prefix), and
 * entries past ceil(seq_lens[b] / block_size) are never read (they may hold
 * anything). Equals gathering each sequence's keys into a contiguous
 * [seq_lens[b], Hkv, D] cache and calling att_attn_ref with T = 1. Returns
 * ATT_EBADSHAPE, ATT_EKVHEADS (H % Hkv != 0), or ATT_EBLOCKTABLE (a length
 * outside [1, max_blocks * block_size], or a used entry outside [0,
 * num_blocks)), without touching out. */
att_status att_paged_decode_ref(float *out, const float *q, const float *k_cache,
                                const float *v_cache, const int *block_table,
                                const int *seq_lens, int B, int H, int Hkv, int D,
                                int num_blocks, int block_size, int max_blocks,
                                float *scratch);
/* The merge of split-KV attention (exercise 60, Flash-Decoding): P splits
 * of the keys, each attended separately, combined into attention over all.
 *   out [B, H, D], lse [B, H]; o_part [P, B, H, D], lse_part [P, B, H]: the
 *   output and natural log-sum-exp of the scaled scores (att_attn_lse_ref's
 *   lse) of each split, for each (batch, head) row.
 * lse = m + log(sum_p exp(lse_p - m)) with m = max_p lse_p, and
 * out = sum_p exp(lse_p - lse) o_p: attention over the union of the splits'
 * keys. A split with no keys has lse_p = -INFINITY and weight 0 (its o_part
 * is not read); when every split of a row is empty the row gives zeros and
 * lse = -INFINITY. lse_part holds finite values or -INFINITY. Returns
 * ATT_EBADSHAPE (a size <= 0) without touching out. */
att_status att_merge_lse_ref(float *out, float *lse, const float *o_part,
                             const float *lse_part, int P, int B, int H, int D);
/* Learned attention sinks, gpt-oss's (exercise 62): causal self-attention
 * over [B, H, T, D] whose every softmax also holds the head's sink logit.
 *   out, q, k, v [B, H, T, D]; sinks [H]; scratch [T] floats.
 * s_ij = q_i . k_j / sqrt(D) over the keys query i sees (j <= i, and with
 * W > 0 also j > i - W; W = 0 is no window); the sink logit sinks[h] joins
 * them as it is (not scaled) as a key with no value:
 *   out_i = sum_j exp(s_ij - m) v_j / (exp(sinks[h] - m) + sum_j exp(s_ij - m)),
 * m the max of the scores and the sink. A sink of -inf is plain causal
 * attention; one far above every score gives outputs near 0. Returns
 * ATT_EBADSHAPE (a size <= 0, W < 0, a sink NaN or +inf) without touching out. */
att_status att_learned_sink_ref(float *out, const float *q, const float *k,
                                const float *v, const float *sinks, int B, int H,
                                int T, int D, int W, float *scratch);

/* ALiBi's slope of head h of H: 2^(-8(h+1)/H), the paper's geometric
 * sequence, used as the formula for every H (no interpolation when H is
 * not a power of 2). */
double att_alibi_slope(int h, int H);

/* ALiBi and soft-capped logits (exercise 63), causal with the KV-cache
 * offset: T queries against S >= T keys, query i at pos = i + S - T.
 *   out, q [B, H, T, D]; k, v [B, H, S, D]; scratch [S] floats.
 * s = q_i . k_j / sqrt(D); with cap > 0, s = cap * tanh(s / cap) (Gemma-2:
 * on the scaled scores, before the mask); with alibi != 0, s += slope_h *
 * (j - pos); keys j > pos are hidden; then the softmax over the rest. cap =
 * 0 is no cap. Returns ATT_EBADSHAPE (a size <= 0, S < T, cap negative,
 * infinite or NaN) without touching out. */
att_status att_alibi_softcap_ref(float *out, const float *q, const float *k,
                                 const float *v, int B, int H, int T, int S, int D,
                                 float cap, int alibi, float *scratch);
/* A KV cache stored as symmetric int8 per (position, head) (exercise 64).
 * att_quantize_int8_ref: one vector x [n] into q8 [n] and *scale:
 *   scale = max_i |x_i| / 127 (in float), q8_i = roundf(x_i / scale) (to
 *   nearest, ties away from zero) clamped to [-127, 127]; a zero vector gets
 *   scale 0 and q8 = 0. Its value is q8_i * scale. ATT_EBADSHAPE for n < 1.
 * att_int8_decode_step_ref: exercise 52's step (att_decode_step_ref) over
 *   k_q, v_q [B, S_max, H, D] int8 and k_scale, v_scale [B, S_max, H]:
 *   the new token's k and v [B, H, D] are quantised per head into row len[b],
 *   then the query q [B, H, D] attends (scale 1/sqrt(D), no mask) over rows
 *   0 .. len[b] dequantised (row j of head h: q8 * scale[j][h] in float), the
 *   new row included as stored, never its float k, v; out [B, H, D]; len[b]
 *   becomes len[b] + 1; rows past it are untouched. Scratch:
 *   att_int8_decode_scratch_floats(S_max, D). Errors as att_decode_step_ref,
 *   without touching anything. With values that are exactly k * s (integer
 *   |k| <= 127, one |k| = 127 per vector) quantisation is exact, and the step
 *   equals att_decode_step_ref over the dequantised floats. */
att_status att_quantize_int8_ref(signed char *q8, float *scale, const float *x, int n);
size_t att_int8_decode_scratch_floats(int S_max, int D);
att_status att_int8_decode_step_ref(float *out, signed char *k_q, signed char *v_q,
                                    float *k_scale, float *v_scale, int *len,
                                    const float *q, const float *k, const float *v,
                                    int B, int S_max, int H, int D, float *scratch);
/* Attention's backward pass (exercises 65 and 66): the gradients of a loss
 * through out = softmax(scale q k^T) v, given dO = dL/dout.
 *   dq, q, dout [B, H, T, D]; dk, dv, k, v [B, H, S, D];
 *   scratch: att_attn_backward_scratch(T, D) doubles.
 * Scale 1/sqrt(D); with causal, query i sees key j iff j <= i + S - T (the
 * KV-cache offset). With P the masked softmax (0 where hidden):
 *   dV = P^T dO;  dP = dO V^T;  dS = P o (dP - rowsum(dP o P));
 *   dQ = scale dS K;  dK = scale dS^T Q.
 * rowsum(dP o P)_i equals dO_i . out_i, what FlashAttention's backward
 * reads instead. A query that sees no key (causal with S < T) has dQ = 0
 * and adds nothing to dK, dV. Returns ATT_EBADSHAPE without touching the
 * outputs. */
size_t att_attn_backward_scratch(int T, int D);
att_status att_attn_backward_ref(float *dq, float *dk, float *dv,
                                 const float *q, const float *k,
                                 const float *v, const float *dout, int B,
                                 int H, int T, int S, int D, int causal,
                                 double *scratch);
/* Its SIMD twin (the "fast kernels" conventions below: threads, SIMD level,
 * float32 rounding): FlashAttention-2's backward pass, tiled (att_kern.h),
 * with the same outputs, edge rules and errors. It reads what the forward
 * pass of a training step saved, as exercise 66's learner does: out
 * [B, H, T, D] and lse [B, H, T] (natural log, -INFINITY for a query that
 * sees no key; att_attn_lse_ref's), so P_ij = exp(s_ij - lse_i) is
 * recomputed tile by tile and the row-sum term is D_i = dO_i . out_i:
 * computing them again here would repeat the forward's work in every
 * backward call. Workers take (batch, head) pairs (each writes only its
 * own rows of dq, dk, dv), so at most B*H of them work. Scratch:
 * att_attn_backward_simd_scratch_floats(T, S, D, threads) floats (0 for a
 * size < 1), far below T x S: no P or dS matrix is made. */
size_t att_attn_backward_simd_scratch_floats(int T, int S, int D, int threads);
att_status att_attn_backward_simd(float *dq, float *dk, float *dv, const float *q,
                                  const float *k, const float *v, const float *out,
                                  const float *lse, const float *dout, int B, int H,
                                  int T, int S, int D, int causal, int threads,
                                  float *scratch);
/* The argument checks both paged kernels make (att_paged_decode_ref's
 * errors): ATT_OK or the status they return. */
att_status att_paged_check(const int *block_table, const int *seq_lens, int B, int H,
                           int Hkv, int D, int num_blocks, int block_size, int max_blocks);
/* Its SIMD twin (the "fast kernels" conventions below: threads, SIMD level,
 * float32 rounding): the same arguments, errors and edge rules; the int8
 * caches and scales it writes are the reference's, byte for byte (the same
 * quantisation), and out agrees to float32 rounding. Scratch:
 * att_int8_decode_simd_scratch_floats(B, S_max, H) floats, shared by the
 * workers (0 for a size < 1). */
size_t att_int8_decode_simd_scratch_floats(int B, int S_max, int H);
att_status att_int8_decode_step_simd(float *out, signed char *k_q, signed char *v_q,
                                     float *k_scale, float *v_scale, int *len,
                                     const float *q, const float *k, const float *v,
                                     int B, int S_max, int H, int D, int threads,
                                     float *scratch);

/* Multi-head latent attention at decode (exercise 61, DeepSeek-V2/V3), one
 * query per (batch, head), absorbed. Per batch a latent cache and a rotary
 * key cache shared by every head; per head the up-projections of the latent:
 *   out [B, H, d_v]; q_nope [B, H, d_nope]; q_pe [B, H, d_r];
 *   c [B, S, d_c]: latent c_j of position j; k_pe [B, S, d_r]: its key part
 *   already rotated (RoPE applied when it was cached); len [B]: keys
 *   0 .. len[b]-1 are the sequence's, 1 <= len[b] <= S, rows past it unread;
 *   w_uk [H, d_c, d_nope], w_uv [H, d_c, d_v], right-multiplied: head h's
 *   k_nope_j = c_j W_UK_h, v_j = c_j W_UV_h.
 * score_hj = (q_nope_h . k_nope_j + q_pe_h . k_pe_j) / sqrt(d_nope + d_r),
 * out_h = sum_j softmax_j(score_hj) v_j. Computed absorbed: q_lat = W_UK_h
 * q_nope_h (d_c), score = q_lat . c_j + q_pe . k_pe_j (scaled), o_lat =
 * sum_j p_j c_j, out_h = o_lat W_UV_h: no k_nope or v is made.
 * scratch: att_mla_ref_scratch(S, d_c) doubles. Returns ATT_EBADSHAPE (a
 * size < 1, or some len[b] outside [1, S]) without touching out. */
size_t att_mla_ref_scratch(int S, int d_c);
att_status att_mla_decode_ref(float *out, const float *q_nope, const float *q_pe,
                              const float *c, const float *k_pe, const int *len,
                              const float *w_uk, const float *w_uv, int B, int H, int S,
                              int d_c, int d_nope, int d_r, int d_v, double *scratch);
/* Rotary position embedding, RoPE (exercise 57), in place.
 *   x [B, H, T, D] (q or k), D even; offset [B]: the position of token 0 of
 *   each sequence (its KV-cache length before these tokens); theta > 0
 *   (10000 in Llama 2, 500000 in Llama 3).
 * Token t of sequence b sits at position pos = offset[b] + t; the pair
 * (i, i + D/2), i < D/2 (the half-split pairing of Llama and GPT-NeoX, HF's
 * rotate_half) turns by pos * theta^(-2i/D):
 *   x_i' = x_i cos - x_{i+D/2} sin,   x_{i+D/2}' = x_{i+D/2} cos + x_i sin.
 * Position 0 changes nothing; D = 2 is one pair at frequency 1. Angles in
 * double. Returns ATT_EBADSHAPE (a size <= 0, D odd, theta <= 0 or an offset
 * < 0) without touching x. */
att_status att_rope_ref(float *x, const int *offset, int B, int H, int T, int D, double theta);

/* One decode step with RoPE in the cache (exercise 58): att_decode_step_ref's
 * arguments, layout and edge rules, but the new token's q and k are first
 * rotated (att_rope_ref's rule) at its absolute position len[b], and the
 * cache stores the rotated key (values as they are), so cached keys are
 * never rotated again. D even, theta > 0; scratch [S_max + 2 * B * H * D]
 * floats. q and k are not changed. Returns ATT_EBADSHAPE or ATT_ECACHEFULL
 * without touching anything. Decoding T tokens one by one from an empty
 * cache gives RoPE prefill: q and k rotated at 0 .. T-1, then causal
 * attention. */
att_status att_rope_decode_step_ref(float *out, float *k_cache, float *v_cache, int *len,
                                    const float *q, const float *k, const float *v, int B,
                                    int S_max, int H, int D, double theta, float *scratch);
/* The SIMD twin (att.h, "fast kernels": threads, tolerance to the twin),
 * same arguments, edge rules and errors; scratch:
 * att_mla_decode_simd_scratch_floats(S, d_c, threads) floats (0 for a size
 * < 1). Workers take ranges of heads, 16 at a time, each chunk reading a
 * sequence's caches once. */
size_t att_mla_decode_simd_scratch_floats(int S, int d_c, int threads);
att_status att_mla_decode_simd(float *out, const float *q_nope, const float *q_pe,
                               const float *c, const float *k_pe, const int *len,
                               const float *w_uk, const float *w_uv, int B, int H, int S,
                               int d_c, int d_nope, int d_r, int d_v, int threads,
                               float *scratch);

/* Causal linear attention (exercise 67; Katharopoulos et al. 2020, "Transformers
 * are RNNs"), in its recurrent form.
 *   q, k [B, H, T, D]; v, out [B, H, T, E] (E may differ from D);
 *   scratch: att_linear_attn_scratch_doubles(D, E) doubles (the running state
 *   and one phi(q_i)).
 * phi(x) = elu(x) + 1 (x + 1 for x > 0, else exp(x)), elementwise; per
 * (batch, head), from zero: S_i = sum_{j <= i} phi(k_j) v_j^T (D x E),
 * z_i = sum_{j <= i} phi(k_j) (D), out_i = phi(q_i)^T S_i / (phi(q_i) . z_i).
 * phi > 0, so the denominator is positive and no eps is added; T = 1 gives
 * out = v. Equals the parallel form A = (phi(Q) phi(K)^T) o causal mask,
 * out = A V / rowsum(A). Returns ATT_EBADSHAPE without touching out. */
size_t att_linear_attn_scratch_doubles(int D, int E);
att_status att_linear_attn_ref(float *out, const float *q, const float *k, const float *v,
                               int B, int H, int T, int D, int E, double *scratch);
/* Variable-length packed attention (exercise 68), as FlashAttention's
 * flash_attn_varlen_func takes it: B sequences packed one after another, no
 * padding, token-major.
 *   out, q, k, v [total, H, D]: token t, head h, dim c at (t*H + h)*D + c;
 *   cu_seqlens [B + 1]: sequence b is tokens cu_seqlens[b] .. cu_seqlens[b+1]-1;
 *   scratch [longest sequence] doubles (total is always enough).
 * Causal inside each sequence: token t of sequence b sees the keys
 * cu_seqlens[b] .. t and nothing of another sequence; scale 1/sqrt(D). So
 * each sequence gets plain causal attention over itself, and B = 1 is causal
 * attention over [total, H, D]. A sequence may be empty (two equal entries);
 * total = 0 writes nothing. Returns ATT_EBADSHAPE (B, H or D < 1, total < 0,
 * cu_seqlens[0] != 0, a decreasing entry, or cu_seqlens[B] != total)
 * without touching out. */
att_status att_varlen_ref(float *out, const float *q, const float *k, const float *v,
                          const int *cu_seqlens, int B, int total, int H, int D,
                          double *scratch);
/* Top-k sparse causal self-attention (exercise 69).
 *   out, q, k, v [B, H, T, D]; scratch [T] doubles; keep [T] bytes.
 * Query i sees keys j <= i; of those it keeps the topk with the highest
 * scores s_ij = q_i . k_j / sqrt(D), an equal score ranking the lower index
 * first, and out_i is the softmax over the kept keys only. topk >= i + 1
 * keeps every visible key: topk >= T is dense causal attention; topk = 1 is
 * the value of the best key. Returns ATT_EBADSHAPE (a size or topk < 1)
 * without touching out. */
att_status att_topk_ref(float *out, const float *q, const float *k, const float *v, int B,
                        int H, int T, int D, int topk, double *scratch, unsigned char *keep);

/* Hybrid local + global causal self-attention (exercise 70; Longformer's
 * and BigBird's pattern with the causal rule).
 *   out, q, k, v [B, H, T, D]; global_idx [G]: the global positions, sorted
 *   and distinct, 0 <= G <= T; scratch [T] doubles; seen [T] bytes.
 * Query i sees key j iff j <= i and one of: j is in its window,
 * i - W < j (exercise 50's); j is global (every query sees the global keys
 * of its past); i is global (a global query sees its whole past). Each seen
 * key counts once, a global key inside the window included; scores
 * q_i . k_j / sqrt(D). G = 0 is sliding-window attention; W >= T, or every
 * position global, is dense causal attention. Returns ATT_EBADSHAPE (a size
 * or W < 1, G outside [0, T], global_idx not sorted, distinct and inside
 * [0, T)) without touching out. */
att_status att_hybrid_ref(float *out, const float *q, const float *k, const float *v,
                          const int *global_idx, int B, int H, int T, int D, int W, int G,
                          double *scratch, unsigned char *seen);

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
    double max_abs;    /* max |got - ref| where ref is finite: NaN for a NaN got, inf for an infinite one */
    double max_rel;    /* the same over |ref| where ref is finite: inf for a wrong element where ref is 0 */
    double max_ratio;  /* max err / tol: under 1 passes; +inf for a NaN */
} att_cmp;

void att_compare(att_cmp *r, const float *got, const float *ref, size_t n,
                 double atol, double rtol);

/* ---- fast kernels ----
 * SIMD versions (suffix _simd) of the kernels, through one SIMD layer over
 * SIMDe (core/att_simd.h): AVX-512 or AVX2/FMA natively, chosen at run time
 * from the CPU, SSE or SIMD128 (wasm) otherwise. Each has a plain scalar twin
 * (suffix _ref) that defines it, and tests/kernels_test.c holds them
 * together. Results agree with the twin to float32 rounding, not bit for
 * bit (other summation orders, fused multiply-adds, online softmax).
 * `threads`: workers to use (pthreads natively, clamped to [1, 16]; always 1
 * in wasm); the result does not depend on it. Scratch: the caller passes
 * the floats the matching _scratch_floats function asks for, sized for the
 * same `threads`; no kernel allocates. */

/* Which vector width runs the _simd kernels. ATT_SIMD_AUTO (the default):
 * the widest whose instructions the CPU has natively, else V128. A level the
 * build emulates (SIMDE_NO_NATIVE, wasm) can always be chosen: the tests run
 * every level in every build. The choice is process-wide: make it before
 * calling the kernels from threads of your own, not while they run. */
typedef enum { ATT_SIMD_AUTO, ATT_SIMD_V128, ATT_SIMD_AVX2, ATT_SIMD_AVX512 } att_simd_level;
/* Returns ATT_ENOSIMD (nothing changed) if the CPU cannot run that level. */
att_status att_simd_select(att_simd_level level);
int att_simd_available(att_simd_level level);
const char *att_simd_name(void);    /* "avx512", "avx2" or "v128" */
int att_simd_native(void);          /* 1: real vector instructions; 0: SIMDe's C */

/* y[i] = exp(x[i]) for i < n; y may equal x. The _simd version's error bound,
 * tested: relative error <= 2e-7 for x in [-87.33, 88]; x < -87.33 (and
 * -inf) gives +0 (absolute error < 1.2e-38); x > 88 gives exp(88); NaN
 * gives +0. The _ref version rounds double exp() to float. */
void att_exp_ref(float *y, const float *x, size_t n);
void att_exp_simd(float *y, const float *x, size_t n);

/* out[M, N] = a[M, K] . w[K, N] (att_matmul_ref's function), with blocked,
 * packed panels of w. Any M, K, N >= 1, else ATT_EBADSHAPE. */
size_t att_matmul_scratch_floats(int K, int N, int threads);
att_status att_matmul_simd(float *out, const float *a, const float *w,
                           int M, int K, int N, int threads, float *scratch);

/* Attention over one sequence, every head, any layout:
 *   query i of head h is q + i*ldq + h*hsq (D floats), its output
 *   out + i*ldo + h*hso; key j of kv head g is k + j*ldkv + g*hskv, and v
 *   likewise; key_mask [S] or NULL.
 *   [T, H*D] token-major: ld = H*D, hs = D; [H, T, D]: ld = D, hs = T*D.
 * Query head h uses kv head h / (H / Hkv) (GQA; Hkv = H is MHA, Hkv = 1 MQA).
 * Query i sits at position i + S - T; it sees key j iff key_mask[j] (or no
 * mask), and with causal j <= i + S - T, and with window W > 0
 * j > i + S - T - W (W = 1 sees only itself; W >= S is no window). The
 * scores are scale * q.k; a query that sees no key outputs zeros. */
typedef struct {
    int T, S, H, Hkv, D;     /* queries, keys, query heads, kv heads, head dim */
    int causal, window;      /* window <= 0: none */
    float scale;
    size_t ldo, hso, ldq, hsq, ldkv, hskv;   /* strides in floats */
    int sinks;               /* with a window, keys 0 .. sinks-1 stay seen (StreamingLLM);
                              * att_attn_ref only: the _simd kernels take 0 */
} att_attn_desc;

/* The one rule of which key a query sees, for every reference kernel here:
 * query i sits at position pos = i + S - T; it sees key j iff key_mask[j]
 * (or no mask), and with causal j <= pos, and with a window W > 0
 * j > pos - W or j < sinks. */
int att_sees(const att_attn_desc *a, const unsigned char *key_mask, int i, int j);

/* The twin: plain loops, double accumulation; scratch [S] floats.
 * Errors (out untouched): ATT_EBADSHAPE (T, S, H, Hkv, D < 1),
 * ATT_EKVHEADS (H % Hkv != 0). */
att_status att_attn_ref(float *out, const float *q, const float *k,
                        const float *v, const unsigned char *key_mask,
                        const att_attn_desc *a, float *scratch);

/* Fused FlashAttention-style: tiles of queries x keys, online softmax, no
 * T x S matrix; tiles the causal or window mask hides are never computed. */
size_t att_attn_scratch_floats(const att_attn_desc *a, int threads);
att_status att_attn_simd(float *out, const float *q, const float *k,
                         const float *v, const unsigned char *key_mask,
                         const att_attn_desc *a, int threads, float *scratch);

/* One decode step: T = 1 (else ATT_EBADSHAPE), the query at position
 * S - 1 (so causal changes nothing); the same function as att_attn_ref with
 * T = 1: query head h at q + h*hsq, its output at out + h*hso. Reads the
 * cache row by row, so with the position-major layout (ldkv = Hkv*D, hskv =
 * D, as a llama2.c KV cache) it streams at memory bandwidth. Scratch: H*S
 * floats, shared by the workers. */
size_t att_decode_scratch_floats(const att_attn_desc *a, int threads);
att_status att_decode_simd(float *out, const float *q, const float *k,
                           const float *v, const unsigned char *key_mask,
                           const att_attn_desc *a, int threads, float *scratch);

/* Multi-head self-attention with exercise 49's semantics (att_mha_ref's
 * arguments, errors and edge rules) from att_matmul_simd and att_attn_simd. */
size_t att_mha_simd_scratch_floats(int T, int d, int H, int threads);
att_status att_mha_simd(float *out, const float *x, const float *wq,
                        const float *wk, const float *wv, const float *wo,
                        const unsigned char *mask, int B, int T, int d, int H,
                        int causal, int threads, float *scratch);

/* Decode over a paged KV cache (att_paged_decode_ref's arguments, errors and
 * edge rules). Each sequence's keys are read once, a row of all kv heads at
 * a time through the block table, each kv head for the H / Hkv query heads
 * that share it, so the cache streams at memory bandwidth; workers take
 * ranges of kv heads. Scratch: the scores of one sequence, H * max_blocks *
 * block_size floats, whatever the threads. */
size_t att_paged_decode_scratch_floats(int H, int Hkv, int block_size, int max_blocks,
                                       int threads);
att_status att_paged_decode_simd(float *out, const float *q, const float *k_cache,
                                 const float *v_cache, const int *block_table,
                                 const int *seq_lens, int B, int H, int Hkv, int D,
                                 int num_blocks, int block_size, int max_blocks,
                                 int threads, float *scratch);

/* ---- the work of a shape, and the machine's ceilings ----
 * One count for `make bench` and the judge's speed tier (att_work.c):
 * dense_flops counts every score as the peers compute them (8 T d^2 + 4
 * T^2 d for MHA with projections); flops skips the half a causal mask
 * hides (8 T d^2 + 2 T (T + 1) d), the work a kernel must do; bytes is what
 * must be read and written at least once (weights, inputs, outputs, caches). */
typedef struct {
    double flops, dense_flops, bytes;
} att_work;
void att_work_mha(att_work *w, int B, int T, int d, int causal);
/* One decode step over S cached keys per sequence, H heads of D: reading
 * the K and V rows bounds it (2 S H D floats), beside q and out. */
void att_work_decode(att_work *w, int B, int S, int H, int D);
/* The same step over a paged cache (exercise 59): H query heads read Hkv
 * heads' rows, each once. */
void att_work_paged(att_work *w, int B, int S, int H, int Hkv, int D);
/* The same step over an int8 cache (exercise 64): a byte per element and a
 * float scale per (position, head), beside the new token's four rows. */
void att_work_int8_decode(att_work *w, int B, int S, int H, int D);
/* MLA at decode, absorbed (exercise 61): the latent and rotary caches read
 * once for all heads, so many heads make it bound by arithmetic. */
void att_work_mla(att_work *w, int B, int S, int H, int d_c, int d_nope, int d_r, int d_v);
/* The backward pass (dQ, dK, dV from q, k, v, out, lse, dO), T queries and
 * S keys per head, causal with the cache offset S - T. */
void att_work_backward(att_work *w, int B, int H, int T, int S, int D, int causal);

/* The ceilings (att_ceil.h, one build per width with the kernels' flags):
 * multiply-add throughput, 12 independent chains for `iters` rounds (*flops
 * gets the FLOPs done), and a streaming sum of n floats (n a multiple of 4
 * lanes) for read bandwidth. Returned values only keep the work live. */
float att_ceil_fma_avx512(long iters, double *flops);
float att_ceil_fma_avx2(long iters, double *flops);
float att_ceil_fma_v128(long iters, double *flops);
float att_ceil_read_avx512(const float *x, size_t n);
float att_ceil_read_avx2(const float *x, size_t n);
float att_ceil_read_v128(const float *x, size_t n);
/* Those loops at width lv (ATT_SIMD_AUTO: the kernels' for the FMA loop, the
 * best of the widths on real instructions for the read), timed (att_ceil.c): warm-up calls, then the best
 * of `tries`, in GFLOP/s (iters rounds each) and GB/s (n floats, at least
 * 4096, read once in all); 0 for a width without its loops. `threads`
 * workers run at once, as the kernels' are (clamped as theirs: always 1 in
 * wasm), each its own FMA loop or its own share of x; the figure is
 * theirs together. *sink gets their results, for the caller to keep live. */
double att_ceil_fma_gflops(att_simd_level lv, int threads, long iters, int tries, float *sink);
double att_ceil_read_gbs(att_simd_level lv, int threads, const float *x, size_t n, int tries, float *sink);

#endif
