/* expect: WA sum_not_reset */
/* Token by token, then head by head: the softmax denominator is declared
 * with the token's other state, outside the head loop, so from head 1 on it
 * still holds the earlier heads' sums. */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float *w = malloc(sizeof(float) * (size_t)(total > 0 ? total : 1));
    const float inv = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        int first = cu_seqlens[b], end = cu_seqlens[b + 1];
        for (int t = first; t < end; t++) {
            float denom = 0.0f;
            for (int h = 0; h < H; h++) {
                const float *qt = q + ((size_t)t * H + h) * D;
                float top = -INFINITY;
                for (int j = first; j <= t; j++) {
                    const float *kj = k + ((size_t)j * H + h) * D;
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += qt[c] * kj[c];
                    w[j] = d * inv;
                    top = fmaxf(top, w[j]);
                }
                for (int j = first; j <= t; j++) {
                    w[j] = expf(w[j] - top);
                    denom += w[j];
                }
                float *o = out + ((size_t)t * H + h) * D;
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = first; j <= t; j++) acc += w[j] * v[((size_t)j * H + h) * D + c];
                    o[c] = acc / denom;
                }
            }
        }
    }
    free(w);
}
