/* att_fast_backward.c: the public entry point of the backward pass's SIMD
 * twin (att.h, att_attn_backward_simd): checks the arguments, sizes the
 * scratch and runs the current table's backward workers (att_kern.h)
 * through att_parallel. No SIMD here. */
#include <math.h>
#include "att_fast.h"

static size_t round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }

/* One worker's floats, at the bounds of every width (att_kern.h,
 * backward_part, lays them out): Q^T and dO^T panels, Q, dO and K feature
 * panels, dQ (MR spare rows), lse and D, one key block of K and V rows, the
 * two score tiles, one block of rows, dK and dV of a key block. */
static size_t ws_floats(int T, int S, int D)
{
    const size_t Tn = round_up((size_t)T, ATT_NR_MAX), Dp = round_up((size_t)D, ATT_NR_MAX);
    return 2 * Tn * D + 2 * (size_t)T * Dp + (size_t)S * Dp + ((size_t)T + ATT_MR_MAX) * Dp +
           2 * Tn + 2 * (size_t)ATT_BC * D + 2 * (size_t)ATT_BC * ATT_BC +
           (size_t)ATT_MR_MAX * ATT_BC + 2 * (size_t)ATT_BC * Dp;
}

size_t att_attn_backward_simd_scratch_floats(int T, int S, int D, int threads)
{
    return T < 1 || S < 1 || D < 1 ? 0 : (size_t)att_threads_clamp(threads) * ws_floats(T, S, D);
}

static void backward_task(const void *ctx, int tid, int n) { att_kern_chosen()->backward(ctx, tid, n); }

att_status att_attn_backward_simd(float *dq, float *dk, float *dv, const float *q, const float *k,
                                  const float *v, const float *out, const float *lse,
                                  const float *dout, int B, int H, int T, int S, int D,
                                  int causal, int threads, float *scratch)
{
    if (B < 1 || H < 1 || T < 1 || S < 1 || D < 1) return ATT_EBADSHAPE;
    atomic_long next = 0;
    att_bwd_job j = { dq, dk, dv, q, k, v, out, lse, dout, B, H, T, S, D, causal,
                      (float)(1.0 / sqrt((double)D)), scratch, ws_floats(T, S, D), &next };
    att_kern_chosen();   /* chosen before the workers start, which only read it */
    att_parallel(att_threads_clamp(threads), backward_task, &j);
    return ATT_OK;
}
