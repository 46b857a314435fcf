/* expect: WA k_read_transposed */
/* Reads the keys as if k were stored [D, T] per head (k[base + c*T + j]),
 * taking K^T in the formula as a memory layout; k is really [T, D]. */
#include <math.h>
#include <stdlib.h>

#define Q_AT(base, t, c) q[(base) + (t) * D + (c)]
#define K_AT(base, t, c) k[(base) + (c) * T + (t)]
#define V_AT(base, t, c) v[(base) + (t) * D + (c)]

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    const float inv_sqrt_d = 1.0f / sqrtf((float)D);
    float w[W];                          /* at most W keys per query */

    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int base = (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int lo = i - W + 1;
                if (lo < 0) lo = 0;
                int n = i - lo + 1;

                float m = -INFINITY;
                for (int t = 0; t < n; t++) {
                    int j = lo + t;
                    float dot = 0.0f;
                    for (int c = 0; c < D; c++)
                        dot += Q_AT(base, i, c) * K_AT(base, j, c);
                    w[t] = dot * inv_sqrt_d;
                    m = fmaxf(m, w[t]);
                }

                float z = 0.0f;
                for (int t = 0; t < n; t++) {
                    w[t] = expf(w[t] - m);
                    z += w[t];
                }

                float *o = out + base + i * D;
                for (int c = 0; c < D; c++) {
                    float y = 0.0f;
                    for (int t = 0; t < n; t++)
                        y += w[t] * V_AT(base, lo + t, c);
                    o[c] = y / z;
                }
            }
        }
    }
}
