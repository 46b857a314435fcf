/* expect: WA padding_ignored */
/* The list of positions takes every j: the mask is never read. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    int *keep = malloc(sizeof(int) * (size_t)S);     /* encoder positions */
    float *p = malloc(sizeof(float) * (size_t)S);
    if (!keep || !p) { free(keep); free(p); return; }
    (void)enc_mask;
    const float rs = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        int n = 0;
        for (int j = 0; j < S; j++)
            keep[n++] = j;
        for (int h = 0; h < H; h++) {
            const float *kb = k + ((size_t)b * H + h) * S * D, *vb = v + ((size_t)b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                const float *qi = q + (((size_t)b * H + h) * T + i) * D;
                float *oi = out + (((size_t)b * H + h) * T + i) * D;
                if (n == 0) {
                    memset(oi, 0, sizeof(float) * (size_t)D);
                    continue;
                }
                float mx = -INFINITY;
                for (int t = 0; t < n; t++) {
                    const float *kr = kb + (size_t)keep[t] * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kr[c];
                    p[t] = s * rs;
                    mx = fmaxf(mx, p[t]);
                }
                double l = 0.0;
                for (int t = 0; t < n; t++) l += p[t] = expf(p[t] - mx);
                for (int c = 0; c < D; c++) {
                    double a = 0.0;
                    for (int t = 0; t < n; t++) a += p[t] * vb[(size_t)keep[t] * D + c];
                    oi[c] = (float)(a / l);
                }
            }
        }
    }
    free(keep);
    free(p);
}
