/* expect: WA query_scaled */
/* The quadratic form, written like softmax attention: scores phi(q/sqrt(D)) . phi(k),
 * causal, each row divided by its sum. */
#include <math.h>
#include <stdlib.h>

static inline float elu1(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float *fk = malloc(sizeof(float) * (size_t)T * D), *fq = malloc(sizeof(float) * D);
    float *a = malloc(sizeof(float) * T);
    float inv = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t qk = ((size_t)b * H + h) * T * D, ve = ((size_t)b * H + h) * T * E;
            for (int j = 0; j < T * D; j++) fk[j] = elu1(k[qk + j]);
            for (int i = 0; i < T; i++) {
                for (int c = 0; c < D; c++) fq[c] = elu1(q[qk + (size_t)i * D + c] * inv);
                float total = 0.0f;
                for (int j = 0; j <= i; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += fq[c] * fk[j * D + c];
                    a[j] = s;
                    total += s;
                }
                for (int e = 0; e < E; e++) {
                    float y = 0.0f;
                    for (int j = 0; j <= i; j++) y += a[j] * v[ve + (size_t)j * E + e];
                    out[ve + (size_t)i * E + e] = y / total;
                }
            }
        }
    free(fk);
    free(fq);
    free(a);
}
