/* expect: WA attends_across_sequences */
/* Runs causal attention over the whole pack: token t attends to every j <= t, the sequences packed before its own included. */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    (void)cu_seqlens, (void)B;
    float *p = malloc(sizeof(float) * (size_t)total);
    float scale = 1.0f / sqrtf((float)D);
    for (int t = 0; t < total; t++)
        for (int h = 0; h < H; h++) {
            float mx = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= t; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[(t * H + h) * D + c] * k[(j * H + h) * D + c];
                p[j] = s * scale;
                if (p[j] > mx) mx = p[j];
            }
            for (int j = 0; j <= t; j++) sum += (p[j] = expf(p[j] - mx));
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j <= t; j++) a += p[j] * v[(j * H + h) * D + c];
                out[(t * H + h) * D + c] = a / sum;
            }
        }
    free(p);
}
