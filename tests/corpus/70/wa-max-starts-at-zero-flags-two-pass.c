/* expect: WA max_starts_at_zero */
/* A sees(i, j) helper over a global flag VLA, two passes in float over a malloc'd score row; the row max starts at 0.0f instead of -INFINITY. */
#include <math.h>
#include <stdlib.h>

static int sees(const char *glob, int i, int j, int W)
{
    return j <= i && (j > i - W || glob[j] || glob[i]);
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    char glob[T];
    for (int t = 0; t < T; t++) glob[t] = 0;
    for (int g = 0; g < G; g++) glob[global_idx[g]] = 1;
    float *s = malloc(sizeof(float) * T);
    float rs = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t base = ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                float max = 0.0f, sum = 0.0f;
                for (int j = 0; j <= i; j++) {
                    if (!sees(glob, i, j, W)) continue;
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += q[base + i * D + c] * k[base + j * D + c];
                    s[j] = d * rs;
                    if (s[j] > max) max = s[j];
                }
                for (int j = 0; j <= i; j++)
                    if (sees(glob, i, j, W)) sum += (s[j] = expf(s[j] - max));
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = 0; j <= i; j++)
                        if (sees(glob, i, j, W)) a += s[j] * v[base + j * D + c];
                    out[base + i * D + c] = a / sum;
                }
            }
        }
    free(s);
}
