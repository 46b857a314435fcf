/* expect: WA null_mask_all_padding */
/* Online softmax that reads a NULL mask as "no key is real": every query
 * sees nothing and writes zeros. */
#include <math.h>
#include <stddef.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t bh = (size_t)b * H + h;
            for (int i = 0; i < T; i++) {
                const float *qi = q + (bh * T + i) * D;
                float *oi = out + (bh * T + i) * D;
                float acc[D];
                float m = -INFINITY, l = 0.0f;
                for (int c = 0; c < D; c++) acc[c] = 0.0f;
                for (int j = 0; j < S; j++) {
                    if (causal && j > i + S - T) break;      /* the rest is future */
                    if (!mask || !mask[b * S + j]) continue;
                    const float *kj = k + (bh * S + j) * D, *vj = v + (bh * S + j) * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                    s *= scale;
                    float m_new = fmaxf(m, s);
                    float corr = expf(m - m_new);            /* 0 on the first key */
                    float p = expf(s - m_new);
                    l = l * corr + p;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + p * vj[c];
                    m = m_new;
                }
                for (int c = 0; c < D; c++) oi[c] = l > 0.0f ? acc[c] / l : 0.0f;
            }
        }
}
