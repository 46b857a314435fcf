/* expect: WA hybrid_global_keys_future */
/* The key list appends every global position outside the window without checking global_idx[g] <= i, so later global keys leak into earlier queries. */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    const float scale = 1.0f / sqrtf((float)D);
    char *isg = calloc(T, 1);
    int *ks = malloc(sizeof(int) * T);
    float *w = malloc(sizeof(float) * T);
    for (int g = 0; g < G; g++) isg[global_idx[g]] = 1;
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + bh * T * D, *K = k + bh * T * D, *V = v + bh * T * D;
        float *O = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            int n = 0;
            int lo = isg[i] ? 0 : (i - W + 1 > 0 ? i - W + 1 : 0);
            for (int j = lo; j <= i; j++) ks[n++] = j;
            for (int g = 0; g < G; g++) {
                int j = global_idx[g];
                if (j >= lo && j <= i) continue;   /* already in the window */
                ks[n++] = j;
            }
            float mx = -INFINITY, sum = 0.0f;
            for (int t = 0; t < n; t++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += Q[i * D + c] * K[ks[t] * D + c];
                w[t] = d * scale;
                if (w[t] > mx) mx = w[t];
            }
            for (int t = 0; t < n; t++) { w[t] = expf(w[t] - mx); sum += w[t]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int t = 0; t < n; t++) acc += w[t] * V[ks[t] * D + c];
                O[i * D + c] = acc / sum;
            }
        }
    }
    free(isg); free(ks); free(w);
}
