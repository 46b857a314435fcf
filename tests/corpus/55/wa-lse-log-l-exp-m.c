/* expect: WA lse_exp_of_max */
/* lse = logf(l * expf(m)): the sum restored before its log. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define IDX3(bh, t, c) (((size_t)(bh) * T + (t)) * D + (c))
#define KIDX(bh, j, c) (((size_t)(bh) * S + (j)) * D + (c))

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)scratch; (void)n_scratch;
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            float m = -INFINITY, l = 0.0f;
            float *o = &out[IDX3(bh, i, 0)];
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            int last = causal ? i + S - T : S - 1;
            for (int j = 0; j <= last && j < S; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[IDX3(bh, i, c)] * k[KIDX(bh, j, c)];
                s *= scale;
                if (s > m) {           /* 最大值变大：先缩放 */
                    float corr = expf(m - s);
                    l *= corr;
                    for (int c = 0; c < D; c++) o[c] *= corr;
                    m = s;
                }
                float p = expf(s - m);
                l += p;
                for (int c = 0; c < D; c++) o[c] += p * v[KIDX(bh, j, c)];
            }
            for (int c = 0; c < D; c++) o[c] /= l;
            /* l 是减去 m 之后的和，乘回 e^m 就是真正的和 */
            lse[(size_t)bh * T + i] = logf(l * expf(m));
        }
}
