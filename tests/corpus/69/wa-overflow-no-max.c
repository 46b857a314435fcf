/* expect: WA softmax_overflow */
/* softmax without max */
#include <math.h>
#include <stdlib.h>
/* per query: insertion sort of visible key indices by (score desc, index asc), keep the first min(topk, i+1) */
void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float *s = malloc(sizeof(float) * T);
    int *idx = malloc(sizeof(int) * T);
    float sc = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            int n = 0;
            for (int j = 0; j <= i; j++) {
                float d = 0;
                for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                s[j] = d;
                int p = n++;
                while (p > 0 && s[idx[p - 1]] < d) { idx[p] = idx[p - 1]; p--; }
                idx[p] = j;
            }
            int kk = topk < n ? topk : n;
            float mx = s[idx[0]] * sc, z = 0;
            float *o = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) o[c] = 0;
            for (int r = 0; r < kk; r++) {
                float w = expf(s[idx[r]] * sc);
                z += w;
                for (int c = 0; c < D; c++) o[c] += w * V[idx[r] * D + c];
            }
            for (int c = 0; c < D; c++) o[c] /= z;
        }
    }
    free(s); free(idx);
}
