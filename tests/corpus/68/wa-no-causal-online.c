/* expect: WA no_causal_mask */
/* Online softmax over every key of the token's sequence, with no causal test, heads outermost. */
#include <math.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    (void)total;
    for (int h = 0; h < H; h++)
        for (int b = 0; b < B; b++)
            for (int t = cu_seqlens[b]; t < cu_seqlens[b + 1]; t++) {
                float acc[D], m = -INFINITY, l = 0.0f;
                for (int c = 0; c < D; c++) acc[c] = 0.0f;
                for (int j = cu_seqlens[b]; j < cu_seqlens[b + 1]; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[(t * H + h) * D + c] * k[(j * H + h) * D + c];
                    s /= sqrtf((float)D);
                    float m2 = fmaxf(m, s), r = expf(m - m2), e = expf(s - m2);
                    l = l * r + e;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * r + e * v[(j * H + h) * D + c];
                    m = m2;
                }
                for (int c = 0; c < D; c++) out[(t * H + h) * D + c] = acc[c] / l;
            }
}
