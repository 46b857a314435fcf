/* expect: WA head_major_layout */
/* Right attention per sequence, but every tensor indexed as [H, total, D]: element (t, h, c) at (h*total + t)*D + c. */
#include <math.h>
#include <stdlib.h>

#define AT(t, h, c) (((size_t)(h) * total + (t)) * D + (c))

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float *w = malloc(sizeof(float) * (size_t)total);
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int t = cu_seqlens[b]; t < cu_seqlens[b + 1]; t++)
            for (int h = 0; h < H; h++) {
                float m = -INFINITY, z = 0.0f;
                for (int j = cu_seqlens[b]; j <= t; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[AT(t, h, c)] * k[AT(j, h, c)];
                    w[j] = s * scale;
                    if (w[j] > m) m = w[j];
                }
                for (int j = cu_seqlens[b]; j <= t; j++) z += (w[j] = expf(w[j] - m));
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = cu_seqlens[b]; j <= t; j++) a += w[j] * v[AT(j, h, c)];
                    out[AT(t, h, c)] = a / z;
                }
            }
    free(w);
}
