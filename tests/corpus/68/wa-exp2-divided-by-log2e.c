/* expect: WA exp_factor_ln_two */
/* exp2f of the exponent divided by log2(e): it should be multiplied */
#include <math.h>
#include <stdlib.h>

/* Variable-length packed attention: each sequence of the pack runs causal
 * attention over its own tokens only. out, q, k, v: [total, H, D]. */
void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * (total > 0 ? total : 1));   /* one row's weights */
    if (!p) return;
    for (int b = 0; b < B; b++) {
        int start = cu_seqlens[b], end = cu_seqlens[b + 1];
        for (int t = start; t < end; t++) {
            for (int h = 0; h < H; h++) {
                const float *qt = q + ((size_t)t * H + h) * D;
                /* keys start .. t: this sequence, up to the query itself */
                float max = -INFINITY;
                for (int j = start; j <= t; j++) {
                    const float *kj = k + ((size_t)j * H + h) * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qt[c] * kj[c];
                    p[j - start] = s * scale;
                    if (p[j - start] > max) max = p[j - start];
                }
                float sum = 0.0f;
                for (int j = start; j <= t; j++) {
                    p[j - start] = exp2f((p[j - start] - max) / 1.442695f);
                    sum += p[j - start];
                }
                float *ot = out + ((size_t)t * H + h) * D;
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = start; j <= t; j++) acc += p[j - start] * v[((size_t)j * H + h) * D + c];
                    ot[c] = acc / sum;
                }
            }
        }
    }
    free(p);
}
