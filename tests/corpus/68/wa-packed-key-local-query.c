/* expect: WA causal_packed_vs_local */
/* Walks the keys by packed index j but tests them against the query's position inside its sequence (j <= i); rows with no key left are guarded to zero. */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float *w = malloc(sizeof(float) * (size_t)total);
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        int start = cu_seqlens[b], end = cu_seqlens[b + 1];
        for (int i = 0; i < end - start; i++)
            for (int h = 0; h < H; h++) {
                int t = start + i;
                float m = -INFINITY, z = 0.0f;
                for (int j = start; j < end; j++) {
                    w[j] = -INFINITY;
                    if (j > i) continue;   /* causal */
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[(t * H + h) * D + c] * k[(j * H + h) * D + c];
                    w[j] = s * scale;
                    if (w[j] > m) m = w[j];
                }
                for (int j = start; j < end; j++) {
                    w[j] = w[j] == -INFINITY ? 0.0f : expf(w[j] - m);
                    z += w[j];
                }
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = start; j < end; j++) a += w[j] * v[(j * H + h) * D + c];
                    out[(t * H + h) * D + c] = z > 0.0f ? a / z : 0.0f;
                }
            }
    }
    free(w);
}
