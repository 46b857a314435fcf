/* expect: WA topk_rank_skips_own_key */
/* Rank by counting rivals, the rival loop written m < i (the keys before the query) instead of m <= i. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float *sc = malloc(sizeof(float) * T);
    const float r = 1.0f / sqrtf((float)D);
    for (int n = 0; n < B * H; n++) {
        const float *Q = q + (size_t)n * T * D, *K = k + (size_t)n * T * D, *V = v + (size_t)n * T * D;
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                sc[j] = d * r;
            }
            float mx = -INFINITY, z = 0.0f;
            for (int j = 0; j <= i; j++) mx = fmaxf(mx, sc[j]);
            float *o = out + ((size_t)n * T + i) * D;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j <= i; j++) {
                int better = 0;
                for (int m = 0; m < i; m++)
                    if (m != j && (sc[m] > sc[j] || (sc[m] == sc[j] && m < j))) better++;
                if (better >= topk) continue;
                float e = expf(sc[j] - mx);
                z += e;
                for (int c = 0; c < D; c++) o[c] += e * V[j * D + c];
            }
            for (int c = 0; c < D; c++) o[c] /= z;
        }
    }
    free(sc);
}
