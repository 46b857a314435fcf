/* expect: WA scale_sqrt_hd */
/* Scores are divided by sqrt(H*D), the length of a packed token row, where
 * each head needs sqrt(D). Masking and packing are right. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#define MAX_D 32

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    (void)total;
    const size_t tok = (size_t)H * D;          /* floats per packed token */
    const float rs = 1.0f / sqrtf((float)tok);
    float a[MAX_D];

    for (int s = 0; s < B; s++) {
        const float *Q = q + cu_seqlens[s] * tok;
        const float *K = k + cu_seqlens[s] * tok;
        const float *V = v + cu_seqlens[s] * tok;
        float *O = out + cu_seqlens[s] * tok;
        int n = cu_seqlens[s + 1] - cu_seqlens[s];

        for (int i = 0; i < n; i++)            /* local index inside sequence s */
            for (int h = 0; h < H; h++) {
                const float *qi = Q + i * tok + h * D;
                float m = -INFINITY, l = 0.0f;
                memset(a, 0, sizeof a);
                for (int j = 0; j <= i; j++) {
                    const float *kj = K + j * tok + h * D, *vj = V + j * tok + h * D;
                    float x = 0.0f;
                    for (int c = 0; c < D; c++) x += qi[c] * kj[c];
                    x *= rs;
                    if (x > m) {               /* new max: shrink what we have */
                        float f = expf(m - x);
                        l *= f;
                        for (int c = 0; c < D; c++) a[c] *= f;
                        m = x;
                    }
                    float w = expf(x - m);
                    l += w;
                    for (int c = 0; c < D; c++) a[c] += w * vj[c];
                }
                float *oi = O + i * tok + h * D;
                for (int c = 0; c < D; c++) oi[c] = a[c] / l;
            }
    }
}
