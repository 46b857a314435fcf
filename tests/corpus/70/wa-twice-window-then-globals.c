/* expect: WA hybrid_global_counted_twice */
/* A non-global query sums its window, then every global key j <= i on top: a global key inside the window is added twice. */
#include <math.h>
#include <stdlib.h>

static float score(const float *qi, const float *kj, int D)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += qi[c] * kj[c];
    return s / sqrtf((float)D);
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    char *gl = calloc(T, 1);
    for (int g = 0; g < G; g++) gl[global_idx[g]] = 1;
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            const float *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
            float *o = out + ((size_t)bh * T + i) * D;
            int first = gl[i] ? 0 : (i - W + 1 > 0 ? i - W + 1 : 0);
            float mx = -INFINITY, l = 0.0f;
            for (int j = 0; j <= i; j++) {
                float s = score(qi, K + (size_t)j * D, D);
                if ((j >= first || gl[j]) && s > mx) mx = s;
            }
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = first; j <= i; j++) {
                float p = expf(score(qi, K + (size_t)j * D, D) - mx);
                l += p;
                for (int c = 0; c < D; c++) o[c] += p * V[(size_t)j * D + c];
            }
            if (!gl[i])
                for (int g = 0; g < G && global_idx[g] <= i; g++) {
                    int j = global_idx[g];
                    float p = expf(score(qi, K + (size_t)j * D, D) - mx);
                    l += p;
                    for (int c = 0; c < D; c++) o[c] += p * V[(size_t)j * D + c];
                }
            for (int c = 0; c < D; c++) o[c] /= l;
        }
    free(gl);
}
