/* expect: AC */
/* Insertion-sorts the visible keys' indices by score (stable, so ties keep the lower index first), then an online softmax over the first topk. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float *s = malloc(sizeof(float) * T);
    int *idx = malloc(sizeof(int) * T);
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        float *O = out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                s[j] = d * scale;
                int at = j;
                while (at > 0 && s[idx[at - 1]] < s[j]) {   /* strictly less: equals stay ahead */
                    idx[at] = idx[at - 1];
                    at--;
                }
                idx[at] = j;
            }
            int n = topk < i + 1 ? topk : i + 1;
            float m = -INFINITY, l = 0.0f;
            float *o = O + i * D;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int t = 0; t < n; t++) {
                int j = idx[t];
                float m2 = s[j] > m ? s[j] : m;
                float corr = expf(m - m2), p = expf(s[j] - m2);
                l = l * corr + p;
                for (int c = 0; c < D; c++) o[c] = o[c] * corr + p * V[j * D + c];
                m = m2;
            }
            for (int c = 0; c < D; c++) o[c] /= l;
        }
    }
    free(s);
    free(idx);
}
