/* expect: WA no_scale */
/* Two-pass softmax over local key positions with the raw dot products as scores (no scale), into a static row buffer. */
#include <math.h>

static float row[4096];

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    (void)total;
    for (int b = 0; b < B; b++) {
        const int s0 = cu_seqlens[b], L = cu_seqlens[b + 1] - s0;
        for (int i = 0; i < L; i++)
            for (int h = 0; h < H; h++) {
                const float *qi = q + ((s0 + i) * H + h) * D;
                float m = -INFINITY, z = 0.0f;
                for (int j = 0; j <= i; j++) {
                    const float *kj = k + ((s0 + j) * H + h) * D;
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += qi[c] * kj[c];
                    row[j] = d;
                    if (d > m) m = d;
                }
                for (int j = 0; j <= i; j++) z += (row[j] = expf(row[j] - m));
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = 0; j <= i; j++) a += row[j] * v[((s0 + j) * H + h) * D + c];
                    out[((s0 + i) * H + h) * D + c] = a / z;
                }
            }
    }
}
