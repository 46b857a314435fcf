/* expect: WA topk_not_clamped */
/* Topk is clamped to T rather than to the i+1 visible keys, so the partial selection sort runs past i and its untouched slots (future keys) join the softmax. */
#include <math.h>
#include <stdlib.h>

#define ROW(p, bh, t) ((p) + ((size_t)(bh) * T + (t)) * D)

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    double scale = 1.0 / sqrt((double)D);
    double *s = malloc(sizeof(double) * T);
    int *idx = malloc(sizeof(int) * T);
    int n = topk > T ? T : topk;
    for (int bh = 0; bh < B * H; bh++) {
        for (int i = 0; i < T; i++) {
            const float *qi = ROW(q, bh, i);
            for (int j = 0; j < T; j++) {
                const float *kj = ROW(k, bh, j);
                double d = 0.0;
                for (int c = 0; c < D; c++) d += (double)qi[c] * kj[c];
                s[j] = d * scale;
                idx[j] = j;
            }
            /* partial selection sort on the visible part idx[0..i] */
            for (int r = 0; r < n; r++) {
                int best = r;
                for (int t = r + 1; t <= i; t++)
                    if (s[idx[t]] > s[idx[best]] ||
                        (s[idx[t]] == s[idx[best]] && idx[t] < idx[best]))
                        best = t;
                int tmp = idx[r]; idx[r] = idx[best]; idx[best] = tmp;
            }
            double mx = -INFINITY, den = 0.0;
            for (int r = 0; r < n; r++) if (s[idx[r]] > mx) mx = s[idx[r]];
            for (int r = 0; r < n; r++) den += exp(s[idx[r]] - mx);
            float *oi = ROW(out, bh, i);
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int r = 0; r < n; r++) acc += exp(s[idx[r]] - mx) * ROW(v, bh, idx[r])[c];
                oi[c] = (float)(acc / den);
            }
        }
    }
    free(s);
    free(idx);
}
