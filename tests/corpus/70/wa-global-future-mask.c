/* expect: WA hybrid_global_sees_future */
/* An additive mask [T, T] built first: global rows and columns opened whole, the causal test applied only to the window part. */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    float *mask = malloc(sizeof(float) * T * T), *p = malloc(sizeof(float) * T);
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) mask[i * T + j] = j <= i && j > i - W ? 0.0f : -INFINITY;
    for (int g = 0; g < G; g++) {
        int x = global_idx[g];
        for (int j = 0; j < T; j++) mask[x * T + j] = 0.0f;          /* the global row */
        for (int i = x; i < T; i++) mask[i * T + x] = 0.0f;          /* the global column, causal */
    }
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            float mx = -INFINITY, l = 0.0f;
            for (int j = 0; j < T; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += q[(bh * T + i) * D + c] * k[(bh * T + j) * D + c];
                p[j] = d / sqrtf((float)D) + mask[i * T + j];
                if (p[j] > mx) mx = p[j];
            }
            for (int j = 0; j < T; j++) l += p[j] = expf(p[j] - mx);
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j < T; j++) a += p[j] * v[(bh * T + j) * D + c];
                out[(bh * T + i) * D + c] = a / l;
            }
        }
    free(mask);
    free(p);
}
