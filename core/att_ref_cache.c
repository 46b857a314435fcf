/* att_ref_cache.c: reference kernels of what a KV cache keeps: one decode
 * step that appends to the cache and attends over it, and StreamingLLM's
 * sinks-plus-window policy. Plain loops with double accumulation (on top of
 * att_sdpa_ref and att_softmax_ref); semantics in att.h. */
#include <math.h>
#include <string.h>
#include "att.h"

att_status att_decode_step_ref(float *out, float *k_cache, float *v_cache,
                               int *len, const float *q, const float *k,
                               const float *v, int B, int S_max, int H, int D,
                               float *scratch)
{
    if (B <= 0 || S_max <= 0 || H <= 0 || D <= 0) return ATT_EBADSHAPE;
    for (int b = 0; b < B; b++)   /* all checked first: an error touches nothing */
        if (len[b] < 0 || len[b] >= S_max) return ATT_ECACHEFULL;
    size_t row = (size_t)H * D;   /* one position of one cache */
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        float *kc = k_cache + (size_t)b * S_max * row, *vc = v_cache + (size_t)b * S_max * row;
        int n = len[b];
        memcpy(kc + (size_t)n * row, k + (size_t)b * row, row * sizeof(float));
        memcpy(vc + (size_t)n * row, v + (size_t)b * row, row * sizeof(float));
        /* One query against n + 1 keys; it is the last position, so causal
         * would mask nothing: no mask at all. */
        for (int h = 0; h < H; h++)
            att_sdpa_ref(out + (size_t)b * row + (size_t)h * D, D, q + (size_t)b * row + (size_t)h * D, D,
                         kc + (size_t)h * D, vc + (size_t)h * D, (int)row, NULL, 1, n + 1, D, 0,
                         scale, scratch);
        len[b] = n + 1;
    }
    return ATT_OK;
}

att_status att_sink_ref(float *out, const float *q, const float *k,
                        const float *v, int B, int H, int T, int D,
                        int n_sink, int W, float *scratch)
{
    if (B <= 0 || H <= 0 || T <= 0 || D <= 0 || W < 1 || n_sink < 0) return ATT_EBADSHAPE;
    float scale = 1.0f / sqrtf((float)D);
    size_t td = (size_t)T * D;
    /* One rule per key (att_sees), so a sink inside the window counts once. */
    att_attn_desc a = { .T = T, .S = T, .causal = 1, .window = W, .sinks = n_sink };
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *qb = q + bh * td, *kb = k + bh * td, *vb = v + bh * td;
        for (int i = 0; i < T; i++) {
            for (int j = 0; j < T; j++) {
                int seen = att_sees(&a, NULL, i, j);
                double dot = 0.0;
                for (int c = 0; seen && c < D; c++)
                    dot += (double)qb[(size_t)i * D + c] * kb[(size_t)j * D + c];
                scratch[j] = seen ? (float)(scale * dot) : -INFINITY;
            }
            att_softmax_ref(scratch, scratch, 1, T);   /* j <= i: never an empty row */
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int j = 0; j < T; j++)
                    acc += (double)scratch[j] * vb[(size_t)j * D + c];
                out[bh * td + (size_t)i * D + c] = (float)acc;
            }
        }
    }
    return ATT_OK;
}
