/* expect: WA no_causal_mask */
/* Keeps every sequence to itself but lets each token see all of its sequence, later tokens included. */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float *w = malloc(sizeof(float) * (size_t)total);
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        int lo = cu_seqlens[b], hi = cu_seqlens[b + 1];
        for (int t = lo; t < hi; t++)
            for (int h = 0; h < H; h++) {
                float m = -INFINITY, z = 0.0f;
                for (int j = lo; j < hi; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[(t * H + h) * D + c] * k[(j * H + h) * D + c];
                    w[j] = s * scale;
                    if (w[j] > m) m = w[j];
                }
                for (int j = lo; j < hi; j++) z += (w[j] = expf(w[j] - m));
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = lo; j < hi; j++) a += w[j] * v[(j * H + h) * D + c];
                    out[(t * H + h) * D + c] = a / z;
                }
            }
    }
    free(w);
}
