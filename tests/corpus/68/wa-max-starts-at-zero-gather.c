/* expect: WA max_starts_at_zero */
/* Each sequence gathered and attended as plain causal attention; the max of a row starts at 0 instead of -INFINITY. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void causal_head(float *o, const float *q, const float *k, const float *v, int L, int D, float *w)
{
    float scale = 1.0f / sqrtf((float)D);
    for (int i = 0; i < L; i++) {
        float m = 0, z = 0.0f;
        for (int j = 0; j <= i; j++) {
            float s = 0.0f;
            for (int c = 0; c < D; c++) s += q[i * D + c] * k[j * D + c];
            w[j] = s * scale;
            if (w[j] > m) m = w[j];
        }
        for (int j = 0; j <= i; j++) {
            w[j] = expf(w[j] - m);
            z += w[j];
        }
        for (int c = 0; c < D; c++) {
            float a = 0.0f;
            for (int j = 0; j <= i; j++) a += w[j] * v[j * D + c];
            o[i * D + c] = a / z;
        }
    }
}

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    size_t n = (size_t)total * H * D;
    float *g = malloc(sizeof(float) * (4 * n + (size_t)total));
    float *gq = g, *gk = g + n, *gv = g + 2 * n, *go = g + 3 * n, *w = g + 4 * n;
    for (int b = 0; b < B; b++) {
        int s0 = cu_seqlens[b], L = cu_seqlens[b + 1] - s0;
        for (int h = 0; h < H; h++)
            for (int i = 0; i < L; i++) {
                size_t from = ((size_t)(s0 + i) * H + h) * D, to = ((size_t)h * L + i) * D;
                memcpy(gq + to, q + from, sizeof(float) * D);
                memcpy(gk + to, k + from, sizeof(float) * D);
                memcpy(gv + to, v + from, sizeof(float) * D);
            }
        for (int h = 0; h < H; h++)
            causal_head(go + (size_t)h * L * D, gq + (size_t)h * L * D, gk + (size_t)h * L * D,
                        gv + (size_t)h * L * D, L, D, w);
        for (int h = 0; h < H; h++)
            for (int i = 0; i < L; i++)
                memcpy(out + ((size_t)(s0 + i) * H + h) * D, go + ((size_t)h * L + i) * D, sizeof(float) * D);
    }
    free(g);
}
