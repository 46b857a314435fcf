/* expect: WA heads_interleaved */
/* From reshape(total, D, H): element (t, h, c) read at (t*D + c)*H + h. */
#include <float.h>
#include <stddef.h>
#include <math.h>

#define MAXT 1024
#define AT(x, t, h, c) ((x)[((size_t)(t) * D + (c)) * H + (h)])

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float w[MAXT];
    const float scale = 1.0f / sqrtf((float)D);
    (void)total;
    for (int b = 0; b < B; b++) {
        const int s0 = cu_seqlens[b], s1 = cu_seqlens[b + 1];
        for (int t = s0; t < s1; t++)
            for (int h = 0; h < H; h++) {
                float m = -FLT_MAX;
                for (int j = s0; j <= t; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += AT(q, t, h, c) * AT(k, j, h, c);
                    w[j - s0] = s * scale;
                    if (w[j - s0] > m) m = w[j - s0];
                }
                float l = 0.0f;
                for (int j = s0; j <= t; j++) {
                    w[j - s0] = expf(w[j - s0] - m);
                    l += w[j - s0];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = s0; j <= t; j++) acc += w[j - s0] * AT(v, j, h, c);
                    AT(out, t, h, c) = acc / l;
                }
            }
    }
}
