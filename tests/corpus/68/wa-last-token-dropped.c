/* expect: WA cu_seqlens_off_by_one */
/* Clears out first, then takes each sequence's length as cu_seqlens[b+1] - cu_seqlens[b] - 1, so its last token keeps a zero output. */
#include <math.h>
#include <string.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    memset(out, 0, sizeof(float) * (size_t)total * H * D);
    float w[256];
    for (int b = 0; b < B; b++) {
        int s0 = cu_seqlens[b], n = cu_seqlens[b + 1] - cu_seqlens[b] - 1;
        for (int i = 0; i < n; i++)
            for (int h = 0; h < H; h++) {
                const float *qi = &q[((s0 + i) * H + h) * D];
                float m = -INFINITY, z = 0.0f;
                for (int j = 0; j <= i; j++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += qi[c] * k[((s0 + j) * H + h) * D + c];
                    w[j] = d / sqrtf((float)D);
                    if (w[j] > m) m = w[j];
                }
                for (int j = 0; j <= i; j++) z += (w[j] = expf(w[j] - m));
                for (int j = 0; j <= i; j++)
                    for (int c = 0; c < D; c++) out[((s0 + i) * H + h) * D + c] += w[j] / z * v[((s0 + j) * H + h) * D + c];
            }
    }
}
