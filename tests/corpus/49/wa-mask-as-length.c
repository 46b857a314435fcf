/* expect: WA mask_as_length */
/* Reads each mask row as "the first len tokens are real": counts its ones
 * and lets a query see keys 0 .. len-1 (and its causal limit). Right for
 * padding on the right; wrong for left or scattered padding. */
#include <math.h>
#include <stdlib.h>

static void proj(float *y, const float *x, const float *w, int T, int d)
{
    for (int t = 0; t < T; t++)
        for (int o = 0; o < d; o++) {
            float s = 0;
            for (int i = 0; i < d; i++) s += x[t * d + i] * w[i * d + o];
            y[t * d + o] = s;
        }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float *q = calloc((size_t)4 * T * d + T, sizeof *q);
    float *k = q + T * d, *v = k + T * d, *cat = v + T * d, *w = cat + T * d;
    for (int b = 0; b < B; b++) {
        int len = T;
        if (mask) {
            len = 0;
            for (int t = 0; t < T; t++) len += mask[b * T + t] != 0;
        }
        proj(q, x + b * T * d, wq, T, d);
        proj(k, x + b * T * d, wk, T, d);
        proj(v, x + b * T * d, wv, T, d);
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                int last = causal && i < len - 1 ? i : len - 1;   /* keys 0 .. last */
                float m = -INFINITY, z = 0;
                for (int j = 0; j <= last; j++) {
                    float s = 0;
                    for (int c = 0; c < D; c++) s += q[i * d + h * D + c] * k[j * d + h * D + c];
                    w[j] = s / sqrtf((float)D);
                    if (w[j] > m) m = w[j];
                }
                for (int j = 0; j <= last; j++) z += w[j] = expf(w[j] - m);
                for (int c = 0; c < D; c++) {
                    float a = 0;
                    for (int j = 0; j <= last; j++) a += w[j] * v[j * d + h * D + c];
                    cat[i * d + h * D + c] = z > 0 ? a / z : 0;
                }
            }
        proj(out + b * T * d, cat, wo, T, d);
    }
    free(q);
}
