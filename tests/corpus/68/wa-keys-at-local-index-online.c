/* expect: WA keys_read_at_local_index */
/* Online softmax, heads outermost, pointers walked by the token stride;
 * the key and value pointers start at the pack's first row, not at the
 * sequence's, so every sequence reads sequence 0's keys. */
#include <math.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    (void)total;
    const int stride = H * D;
    const float scale = 1.0f / sqrtf((float)D);
    for (int h = 0; h < H; h++)
        for (int b = 0; b < B; b++)
            for (int t = cu_seqlens[b]; t < cu_seqlens[b + 1]; t++) {
                float acc[D];
                float m = -INFINITY, l = 0.0f;
                for (int c = 0; c < D; c++) acc[c] = 0.0f;
                const float *qt = q + t * stride + h * D;
                const float *kj = k + h * D;
                const float *vj = v + h * D;
                for (int j = cu_seqlens[b]; j <= t; j++, kj += stride, vj += stride) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qt[c] * kj[c];
                    s *= scale;
                    float m2 = s > m ? s : m, corr = expf(m - m2), e = expf(s - m2);
                    l = l * corr + e;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + e * vj[c];
                    m = m2;
                }
                for (int c = 0; c < D; c++) out[t * stride + h * D + c] = acc[c] / l;
            }
}
