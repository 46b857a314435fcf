/* expect: WA acc_not_reset */
/* Key-major accumulation into acc[D], zeroed once before the loops: each query's output adds the weighted values of the queries before it. */
#include <math.h>
#include <stdlib.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float *sc = malloc(sizeof(float) * S);
    float *acc = calloc(D, sizeof(float));
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qb = q + (size_t)(b * H + h) * T * D;
            const float *kb = k + (size_t)(b * H + h) * S * D;
            const float *vb = v + (size_t)(b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY, den = 0.0f;
                int n = 0;
                for (int j = 0; j < S; j++) {
                    int hidden = (causal && j > i + S - T) || (mask && !mask[b * S + j]);
                    sc[j] = -INFINITY;
                    if (hidden) continue;
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += qb[i * D + c] * kb[j * D + c];
                    sc[j] = d * scale;
                    mx = fmaxf(mx, sc[j]);
                    n++;
                }
                float *o = out + ((size_t)(b * H + h) * T + i) * D;
                if (n == 0) {
                    for (int c = 0; c < D; c++) o[c] = 0.0f;
                    continue;
                }
                for (int j = 0; j < S; j++) {
                    if (sc[j] == -INFINITY) continue;
                    float e = expf(sc[j] - mx);
                    den += e;
                    for (int c = 0; c < D; c++) acc[c] += e * vb[j * D + c];
                }
                for (int c = 0; c < D; c++) o[c] = acc[c] / den;
            }
        }
    free(acc);
    free(sc);
}
