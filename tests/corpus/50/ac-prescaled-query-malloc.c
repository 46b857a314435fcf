/* expect: AC */
/* Scales the query once, keeps the window weights in a malloc buffer, sums the weights in double, fmaxf for the max. */
#include <math.h>
#include <stdlib.h>

void swa(float *restrict out, const float *restrict q, const float *restrict k,
         const float *restrict v, int B, int H, int T, int D, int W)
{
    float *qs = malloc(sizeof *qs * (size_t)D);   /* the query, pre-scaled */
    float *p = malloc(sizeof *p * (size_t)T);
    if (!qs || !p) { free(qs); free(p); return; }
    const float rs = 1.0f / sqrtf((float)D);
    const long n = (long)T * D;
    for (long bh = 0; bh < (long)B * H; bh++) {
        for (int i = 0; i < T; i++) {
            const float *qi = q + bh * n + (long)i * D;
            for (int c = 0; c < D; c++) qs[c] = qi[c] * rs;
            int j0 = i + 1 - W > 0 ? i + 1 - W : 0, cnt = i - j0 + 1;
            float mx = -INFINITY;
            for (int t = 0; t < cnt; t++) {
                const float *kj = k + bh * n + (long)(j0 + t) * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qs[c] * kj[c];
                p[t] = s;
                mx = fmaxf(mx, s);
            }
            double l = 0.0;
            for (int t = 0; t < cnt; t++) l += p[t] = expf(p[t] - mx);
            float *oi = out + bh * n + (long)i * D;
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int t = 0; t < cnt; t++) a += p[t] * v[bh * n + (long)(j0 + t) * D + c];
                oi[c] = (float)(a / l);
            }
        }
    }
    free(qs);
    free(p);
}
