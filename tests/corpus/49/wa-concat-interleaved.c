/* expect: WA concat_layout */
/* when concatenating, head h's feature c is stored at column c*H + h (a transpose/reshape mix-up) instead of h*D + c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void xw(float *y, const float *x, const float *w, int T, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            float s = 0.0f;
            for (int i = 0; i < d; i++) s += x[t * d + i] * w[i * d + j];
            y[t * d + j] = s;
        }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int H = n_heads, D = d / H;
    float scale = 1.0f / sqrtf((float)D);
    float *q = malloc(sizeof(float) * T * d), *k = malloc(sizeof(float) * T * d);
    float *v = malloc(sizeof(float) * T * d), *cat = malloc(sizeof(float) * T * d);

    for (int b = 0; b < B; b++) {
        xw(q, x + (size_t)b * T * d, wq, T, d);
        xw(k, x + (size_t)b * T * d, wk, T, d);
        xw(v, x + (size_t)b * T * d, wv, T, d);
        for (int i = 0; i < T; i++)
            for (int h = 0; h < H; h++) {
                float m = -INFINITY, l = 0.0f, acc[D];
                for (int c = 0; c < D; c++) acc[c] = 0.0f;
                for (int j = 0; j < T; j++) {
                    if (causal && j > i) continue;
                    if (mask && !mask[b * T + j]) continue;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[i * d + h * D + c] * k[j * d + h * D + c];
                    s *= scale;
                    float mn = fmaxf(m, s);
                    float r = expf(m - mn), e = expf(s - mn);
                    l = l * r + e;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * r + e * v[j * d + h * D + c];
                    m = mn;
                }
                for (int c = 0; c < D; c++)
                    cat[i * d + c * H + h] = (l > 0.0f) ? acc[c] / l : 0.0f;
            }
        xw(out + (size_t)b * T * d, cat, wo, T, d);
    }
    free(q); free(k); free(v); free(cat);
}
