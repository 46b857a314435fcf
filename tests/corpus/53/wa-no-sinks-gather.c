/* expect: WA no_sinks */
/* Gathers only the window keys, j > i - window, into the index list. */
#include <math.h>
#include <stdlib.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    int *idx = malloc(sizeof(int) * (size_t)T * 2);   /* the keys query i sees */
    float *w = malloc(sizeof(float) * (size_t)T * 2);
    if (!idx || !w) { free(idx); free(w); return; }
    (void)n_sink;
    const float rs = 1.0f / sqrtf((float)D);
    for (long bh = 0; bh < (long)B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * D;
        float *ob = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            int n = 0;
            for (int j = 0; j <= i; j++)
                if (j > i - window) idx[n++] = j;
            float mx = -INFINITY;
            for (int t = 0; t < n; t++) {
                const float *kr = kb + (long)idx[t] * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qb[i * D + c] * kr[c];
                w[t] = s * rs;
                mx = fmaxf(mx, w[t]);
            }
            double l = 0.0;
            for (int t = 0; t < n; t++) {
                w[t] = expf(w[t] - mx);
                l += w[t];
            }
            for (int c = 0; c < D; c++) {
                double a = 0.0;
                for (int t = 0; t < n; t++) a += (double)w[t] * vb[(long)idx[t] * D + c];
                ob[i * D + c] = (float)(a / l);
            }
        }
    }
    free(idx);
    free(w);
}
