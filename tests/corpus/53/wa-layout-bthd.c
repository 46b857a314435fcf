/* expect: WA layout_bthd */
/* indexes every tensor as [B, T, H, D] (token-major) instead of the heads-first [B, H, T, D] layout. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define IDX(b, t, h, c) ((((size_t)(b) * T + (t)) * H + (h)) * D + (c))

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    float scale = 1.0f / sqrtf((float)D);
    float *sc = (float *)malloc(sizeof(float) * (size_t)T);
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY;
                for (int j = 0; j <= i; j++) {
                    if (j >= n_sink && j <= i - window) { sc[j] = -INFINITY; continue; }
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += q[IDX(b, i, h, c)] * k[IDX(b, j, h, c)];
                    sc[j] = d * scale;
                    if (sc[j] > mx) mx = sc[j];
                }
                float sum = 0.0f;
                for (int j = 0; j <= i; j++) {
                    sc[j] = sc[j] == -INFINITY ? 0.0f : expf(sc[j] - mx);
                    sum += sc[j];
                }
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = 0; j <= i; j++) a += sc[j] * v[IDX(b, j, h, c)];
                    out[IDX(b, i, h, c)] = a / sum;
                }
            }
        }
    }
    free(sc);
}
