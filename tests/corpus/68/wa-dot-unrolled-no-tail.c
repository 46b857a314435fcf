/* expect: WA dot_tail_dropped */
/* The q . k dot product is unrolled by four with no remainder loop, so the last D % 4 dimensions never enter the score. */
#include <math.h>

static float dot4(const float *a, const float *b, int n)
{
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (int c = 0; c + 3 < n; c += 4) {
        s0 += a[c] * b[c];
        s1 += a[c + 1] * b[c + 1];
        s2 += a[c + 2] * b[c + 2];
        s3 += a[c + 3] * b[c + 3];
    }
    return (s0 + s1) + (s2 + s3);
}

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    const float inv = 1.0f / sqrtf((float)D);
    const int row = H * D;
    float w[total > 0 ? total : 1];
    for (int h = 0; h < H; h++) {
        for (int b = 0; b < B; b++) {
            const int lo = cu_seqlens[b], hi = cu_seqlens[b + 1];
            for (int t = lo; t < hi; t++) {
                const float *qt = q + t * row + h * D;
                int n = t - lo + 1;
                float top = -INFINITY;
                for (int j = 0; j < n; j++) {
                    w[j] = dot4(qt, k + (lo + j) * row + h * D, D) * inv;
                    top = w[j] > top ? w[j] : top;
                }
                double z = 0.0;
                for (int j = 0; j < n; j++) {
                    w[j] = expf(w[j] - top);
                    z += w[j];
                }
                float *ot = out + t * row + h * D;
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int j = 0; j < n; j++) acc += w[j] * v[(lo + j) * row + h * D + c];
                    ot[c] = (float)(acc / z);
                }
            }
        }
    }
}
