/* att_fast_mla.c: the public entry point of the MLA decode SIMD twin
 * (att.h, att_mla_decode_simd): checks the arguments, sizes the scratch and
 * runs the current table's mla workers (att_kern.h) through att_parallel.
 * Kept apart from att_fast.c so that each fast kernel's dispatcher is its
 * own file. No SIMD here. */
#include <math.h>
#include "att_fast.h"

static size_t ws_floats(int S, int d_c)
{
    return ATT_MLA_HEADS * (2 * (size_t)d_c + (size_t)S);
}

size_t att_mla_decode_simd_scratch_floats(int S, int d_c, int threads)
{
    return S < 1 || d_c < 1 ? 0 : (size_t)att_threads_clamp(threads) * ws_floats(S, d_c);
}

static void mla_task(const void *ctx, int tid, int n) { att_kern_chosen()->mla(ctx, tid, n); }

att_status att_mla_decode_simd(float *out, const float *q_nope, const float *q_pe,
                               const float *c, const float *k_pe, const int *len,
                               const float *w_uk, const float *w_uv, int B, int H, int S,
                               int d_c, int d_nope, int d_r, int d_v, int threads,
                               float *scratch)
{
    if (B < 1 || H < 1 || S < 1 || d_c < 1 || d_nope < 1 || d_r < 1 || d_v < 1) return ATT_EBADSHAPE;
    for (int b = 0; b < B; b++)
        if (len[b] < 1 || len[b] > S) return ATT_EBADSHAPE;
    att_mla_job j = { out, q_nope, q_pe, c, k_pe, w_uk, w_uv, len, B, H, S, d_c, d_nope, d_r, d_v,
                      1.0f / sqrtf((float)(d_nope + d_r)), scratch, ws_floats(S, d_c) };
    att_kern_chosen();   /* chosen before the workers start, which only read it */
    att_parallel(att_threads_clamp(threads), mla_task, &j);
    return ATT_OK;
}
