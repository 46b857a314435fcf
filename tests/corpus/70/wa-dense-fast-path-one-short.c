/* expect: WA */
/* A dense fast path taken when W >= T - 1: at W = T - 1 the last query also sees key 0. */
#include <math.h>
#include <stdlib.h>

static void causal_row(float *o, const float *qi, const float *K, const float *V, int n, int D,
                       float scale, float *p)
{
    float mx = -INFINITY, sum = 0.0f;
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int c = 0; c < D; c++) s += qi[c] * K[j * D + c];
        p[j] = s * scale;
        mx = fmaxf(mx, p[j]);
    }
    for (int j = 0; j < n; j++) sum += (p[j] = expf(p[j] - mx));
    for (int c = 0; c < D; c++) {
        float acc = 0.0f;
        for (int j = 0; j < n; j++) acc += p[j] * V[j * D + c];
        o[c] = acc / sum;
    }
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    char *gf = calloc(T, 1);
    for (int g = 0; g < G; g++) gf[global_idx[g]] = 1;
    int dense = (W >= T - 1) || (G == T);     /* 窗口已经盖住整条序列 */
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        float *O = out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            if (dense) {
                causal_row(O + i * D, Q + i * D, K, V, i + 1, D, scale, p);
                continue;
            }
            float mx = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= i; j++) {
                if (!(j > i - W || gf[j] || gf[i])) continue;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                p[j] = s * scale;
                mx = fmaxf(mx, p[j]);
            }
            for (int j = 0; j <= i; j++)
                if (j > i - W || gf[j] || gf[i]) sum += (p[j] = expf(p[j] - mx));
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++)
                    if (j > i - W || gf[j] || gf[i]) acc += p[j] * V[j * D + c];
                O[i * D + c] = acc / sum;
            }
        }
    }
    free(p);
    free(gf);
}
