/* expect: WA mask_fill_zero */
/* The whole score matrix per head, then a masked_fill with 0 where a PyTorch port would fill -inf; softmax by rows. */
#include <math.h>
#include <stdlib.h>

static void proj(float *y, const float *x, const float *w, int T, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            float s = 0.0f;
            for (int i = 0; i < d; i++) s += x[t * d + i] * w[i * d + j];
            y[t * d + j] = s;
        }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float *q = malloc(sizeof(float) * T * d), *k = malloc(sizeof(float) * T * d);
    float *v = malloc(sizeof(float) * T * d), *o = malloc(sizeof(float) * T * d);
    float *att = malloc(sizeof(float) * T * T);
    for (int b = 0; b < B; b++) {
        proj(q, x + (size_t)b * T * d, wq, T, d);
        proj(k, x + (size_t)b * T * d, wk, T, d);
        proj(v, x + (size_t)b * T * d, wv, T, d);
        for (int h = 0; h < n_heads; h++) {
            for (int i = 0; i < T; i++)
                for (int j = 0; j < T; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[i * d + h * D + c] * k[j * d + h * D + c];
                    att[i * T + j] = s / sqrtf((float)D);
                }
            for (int i = 0; i < T; i++)   /* att.masked_fill(mask == 0, 0) */
                for (int j = 0; j < T; j++)
                    if ((causal && j > i) || (mask && !mask[b * T + j])) att[i * T + j] = 0.0f;
            for (int i = 0; i < T; i++) {
                float mx = att[i * T], sum = 0.0f;
                for (int j = 1; j < T; j++) mx = fmaxf(mx, att[i * T + j]);
                for (int j = 0; j < T; j++) sum += att[i * T + j] = expf(att[i * T + j] - mx);
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < T; j++) acc += att[i * T + j] * v[j * d + h * D + c];
                    o[i * d + h * D + c] = acc / sum;
                }
            }
        }
        proj(out + (size_t)b * T * d, o, wo, T, d);
    }
    free(q); free(k); free(v); free(o); free(att);
}
