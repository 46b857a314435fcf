/* expect: WA dot_tail_dropped */
/* Tuned for speed: the q . k loop unrolled by 4 into four partial sums, written for D = 64 and never given a loop for the rest. */
#include <math.h>
#include <stdlib.h>

static float dot4(const float *a, const float *b, int n)
{
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int c = 0; c + 3 < n; c += 4) {
        s0 += a[c] * b[c];
        s1 += a[c + 1] * b[c + 1];
        s2 += a[c + 2] * b[c + 2];
        s3 += a[c + 3] * b[c + 3];
    }
    return (s0 + s1) + (s2 + s3);
}

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float *w = malloc(sizeof(float) * (size_t)S);
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t qo = ((size_t)b * H + h) * T * D, ko = ((size_t)b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                float m = -INFINITY, l = 0.0f;
                for (int j = 0; j < S; j++) {
                    int seen = (!mask || mask[(size_t)b * S + j]) && (!causal || j <= i + S - T);
                    w[j] = seen ? dot4(q + qo + (size_t)i * D, k + ko + (size_t)j * D, D) * scale : -INFINITY;
                    if (w[j] > m) m = w[j];
                }
                float *o = out + qo + (size_t)i * D;
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                if (m == -INFINITY) continue;
                for (int j = 0; j < S; j++) {
                    if (w[j] == -INFINITY) continue;
                    float e = expf(w[j] - m);
                    l += e;
                    for (int c = 0; c < D; c++) o[c] += e * v[ko + (size_t)j * D + c];
                }
                for (int c = 0; c < D; c++) o[c] /= l;
            }
        }
    free(w);
}
