/* expect: WA exp_base_two */
/* A learner who read that exp2 is cheaper than exp and swapped it into a
 * softmax helper, without the log2(e) that makes them equal. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void softmax_row(float *row, int n)
{
    float m = -INFINITY, z = 0.0f;
    for (int j = 0; j < n; j++) m = fmaxf(m, row[j]);
    if (m == -INFINITY) { memset(row, 0, sizeof(float) * n); return; }
    for (int j = 0; j < n; j++) { row[j] = exp2f(row[j] - m); z += row[j]; }
    for (int j = 0; j < n; j++) row[j] /= z;
}

static void proj(float *dst, const float *src, const float *w, int T, int d)
{
    for (int t = 0; t < T; t++)
        for (int o = 0; o < d; o++) {
            float acc = 0;
            for (int i = 0; i < d; i++) acc += src[t * d + i] * w[i * d + o];
            dst[t * d + o] = acc;
        }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int hd = d / n_heads;
    float inv = 1.0f / sqrtf((float)hd);
    float *Q = malloc(sizeof(float) * T * d), *K = malloc(sizeof(float) * T * d);
    float *V = malloc(sizeof(float) * T * d), *O = malloc(sizeof(float) * T * d);
    float *row = malloc(sizeof(float) * T);
    for (int b = 0; b < B; b++) {
        proj(Q, x + b * T * d, wq, T, d);
        proj(K, x + b * T * d, wk, T, d);
        proj(V, x + b * T * d, wv, T, d);
        for (int h = 0; h < n_heads; h++) {
            int off = h * hd;
            for (int i = 0; i < T; i++) {
                for (int j = 0; j < T; j++) {
                    int hidden = (causal && j > i) || (mask && !mask[b * T + j]);
                    float dot = 0;
                    for (int c = 0; c < hd; c++) dot += Q[i * d + off + c] * K[j * d + off + c];
                    row[j] = hidden ? -INFINITY : dot * inv;
                }
                softmax_row(row, T);
                for (int c = 0; c < hd; c++) {
                    float acc = 0;
                    for (int j = 0; j < T; j++) acc += row[j] * V[j * d + off + c];
                    O[i * d + off + c] = acc;
                }
            }
        }
        proj(out + b * T * d, O, wo, T, d);
    }
    free(Q); free(K); free(V); free(O); free(row);
}
