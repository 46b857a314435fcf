/* expect: WA window_after_softmax */
/* A causal softmax first, as in the chapter's code; then the weights outside the window and the globals are zeroed. */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    float *w = malloc(sizeof(float) * (size_t)T);
    unsigned char *is_global = calloc((size_t)T, 1);
    for (int g = 0; g < G; g++) is_global[global_idx[g]] = 1;
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        float *O = out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            /* 1. 普通的因果 softmax */
            float m = -INFINITY, l = 0.0f;
            for (int j = 0; j <= i; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                w[j] = s * scale;
                m = fmaxf(m, w[j]);
            }
            for (int j = 0; j <= i; j++) l += (w[j] = expf(w[j] - m));
            for (int j = 0; j <= i; j++) w[j] /= l;
            /* 2. 再把窗口外、又不是全局的位置去掉 */
            for (int j = 0; j <= i; j++)
                if (!(j > i - W || is_global[i] || is_global[j])) w[j] = 0.0f;
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++) acc += w[j] * V[j * D + c];
                O[i * D + c] = acc;
            }
        }
    }
    free(w);
    free(is_global);
}
