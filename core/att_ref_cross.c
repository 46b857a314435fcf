/* att_ref_cross.c: reference kernels where queries and keys differ in
 * length: cross-attention with an encoder padding mask. Plain loops on top
 * of att_sdpa_ref (double accumulation); semantics in att.h. */
#include <math.h>
#include "att.h"

att_status att_cross_ref(float *out, const float *q, const float *k,
                         const float *v, const unsigned char *enc_mask, int B,
                         int H, int T, int S, int D, float *scratch)
{
    if (B <= 0 || H <= 0 || T <= 0 || S <= 0 || D <= 0) return ATT_EBADSHAPE;
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t bh = (size_t)b * H + h;
            /* causal = 0: the encoder sequence is not the decoder's past. An
             * all-zero mask row makes att_softmax_ref give zeros. */
            att_sdpa_ref(out + bh * T * D, D, q + bh * T * D, D, k + bh * S * D, v + bh * S * D, D,
                         enc_mask ? enc_mask + (size_t)b * S : NULL, T, S, D, 0, scale, scratch);
        }
    return ATT_OK;
}

att_status att_attn_lse_ref(float *out, float *lse, const float *q,
                            const float *k, const float *v, int B, int H,
                            int T, int S, int D, int causal, float *scratch)
{
    if (B <= 0 || H <= 0 || T <= 0 || S <= 0 || D <= 0) return ATT_EBADSHAPE;
    double scale = 1.0 / sqrt((double)D);
    att_attn_desc a = { .T = T, .S = S, .causal = causal };
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * S * D, *vb = v + bh * S * D;
        for (int i = 0; i < T; i++) {
            /* The scores stay in double until the end: the log-sum-exp of
             * scores near 100 needs more than float's 7 digits to be a
             * reference for float kernels. */
            double max = -INFINITY, sum = 0.0;
            for (int j = 0; j < S; j++) {   /* pass 1: which keys, and the max */
                double dot = 0.0;
                for (int c = 0; c < D; c++) dot += (double)qb[(size_t)i * D + c] * kb[(size_t)j * D + c];
                int seen = att_sees(&a, NULL, i, j);
                if (seen && dot * scale > max) max = dot * scale;
                scratch[j] = seen ? 0.0f : -INFINITY;   /* only a flag until pass 2 */
            }
            for (int j = 0; j < S; j++) {   /* pass 2: the weights, from the double score */
                double dot = 0.0;
                if (scratch[j] == -INFINITY) { scratch[j] = 0.0f; continue; }
                for (int c = 0; c < D; c++) dot += (double)qb[(size_t)i * D + c] * kb[(size_t)j * D + c];
                double e = exp(dot * scale - max);
                scratch[j] = (float)e;
                sum += e;
            }
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int j = 0; j < S; j++) acc += (double)scratch[j] * vb[(size_t)j * D + c];
                out[(bh * T + i) * D + c] = sum > 0.0 ? (float)(acc / sum) : 0.0f;
            }
            lse[bh * T + i] = sum > 0.0 ? (float)(max + log(sum)) : -INFINITY;
        }
    }
    return ATT_OK;
}
