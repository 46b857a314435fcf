/* att_ref_varlen.c: the reference of exercise 68, variable-length packed
 * attention (FlashAttention's varlen layout): causal attention inside each
 * sequence of a pack, the plain way, every sum in double. Semantics in
 * att.h; tests/ref_varlen_test.c holds it to att_attn_ref per sequence. */
#include <math.h>
#include "att.h"

/* cu_seqlens runs from 0 to total without going down. */
static int valid_cu(const int *cu, int B, int total)
{
    if (cu[0] != 0 || cu[B] != total) return 0;
    for (int b = 0; b < B; b++)
        if (cu[b + 1] < cu[b]) return 0;
    return 1;
}

att_status att_varlen_ref(float *out, const float *q, const float *k, const float *v,
                          const int *cu_seqlens, int B, int total, int H, int D,
                          double *scratch)
{
    if (B < 1 || total < 0 || H < 1 || D < 1 || !valid_cu(cu_seqlens, B, total)) return ATT_EBADSHAPE;
    double scale = 1.0 / sqrt((double)D);
    size_t row = (size_t)H * D;   /* one token: [H, D] */
    for (int b = 0; b < B; b++) {
        int start = cu_seqlens[b], end = cu_seqlens[b + 1];
        for (int t = start; t < end; t++)
            for (int h = 0; h < H; h++) {
                const float *qt = q + t * row + (size_t)h * D;
                /* Keys start .. t: the sequence's own, up to the query. */
                double max = -INFINITY, sum = 0.0;
                for (int j = start; j <= t; j++) {
                    double dot = 0.0;
                    for (int c = 0; c < D; c++) dot += (double)qt[c] * k[j * row + (size_t)h * D + c];
                    scratch[j - start] = dot * scale;
                    if (scratch[j - start] > max) max = scratch[j - start];
                }
                for (int j = start; j <= t; j++) {
                    scratch[j - start] = exp(scratch[j - start] - max);
                    sum += scratch[j - start];
                }
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int j = start; j <= t; j++) acc += scratch[j - start] * v[j * row + (size_t)h * D + c];
                    out[t * row + (size_t)h * D + c] = (float)(acc / sum);
                }
            }
    }
    return ATT_OK;
}
