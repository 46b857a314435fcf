/* expect: WA hybrid_window_off_by_one */
/* The window test j >= i - W: W + 1 keys. */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    unsigned char *gl = calloc(T, 1);
    float *acc = malloc(sizeof(float) * D);
    for (int g = 0; g < G; g++) gl[global_idx[g]] = 1;
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int j = 0; j <= i; j++) {
                if (!(gl[i] || gl[j] || j >= i - W)) continue;
                const float *kj = k + ((size_t)bh * T + j) * D, *vj = v + ((size_t)bh * T + j) * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                s *= scale;
                float m2 = s > m ? s : m, corr = expf(m - m2), p = expf(s - m2);
                l = l * corr + p;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + p * vj[c];
                m = m2;
            }
            for (int c = 0; c < D; c++) out[((size_t)bh * T + i) * D + c] = acc[c] / l;
        }
    free(gl);
    free(acc);
}
