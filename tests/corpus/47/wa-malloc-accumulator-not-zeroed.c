/* expect: WA depends_on_earlier_calls */
/* The weighted sums live in a malloc'd buffer that is never zeroed: on the
 * first call of a run the heap's fresh memory happens to be zeros, later
 * calls get memory an earlier call freed, still holding its numbers. */
#include <math.h>
#include <stdlib.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float *acc = malloc(sizeof(float) * (size_t)D);
    float *w = malloc(sizeof(float) * (size_t)S);
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t head = (size_t)b * H + h;
            for (int i = 0; i < T; i++) {
                const float *qi = q + (head * T + i) * D;
                float m = -INFINITY, l = 0.0f;
                for (int j = 0; j < S; j++) {
                    int seen = (!mask || mask[(size_t)b * S + j]) && (!causal || j <= i + S - T);
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * k[(head * S + j) * D + c];
                    w[j] = seen ? s * scale : -INFINITY;
                    if (w[j] > m) m = w[j];
                }
                for (int j = 0; j < S; j++) l += (w[j] = w[j] == -INFINITY ? 0.0f : expf(w[j] - m));
                for (int j = 0; j < S; j++)
                    for (int c = 0; c < D; c++) acc[c] += w[j] * v[(head * S + j) * D + c];
                for (int c = 0; c < D; c++) {
                    out[(head * T + i) * D + c] = l > 0.0f ? acc[c] / l : 0.0f;
                    acc[c] = 0.0f;   /* ready for the next row */
                }
            }
        }
    free(acc);
    free(w);
}
