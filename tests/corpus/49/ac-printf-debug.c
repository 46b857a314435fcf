/* expect: AC */
/* Correct, PyTorch-style [B,H,T,D] layout for q/k/v; prints one short debug line with printf per call (debug output is allowed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int H = n_heads, D = d / H;
    printf("mha: B=%d T=%d d=%d H=%d causal=%d mask=%s\n", B, T, d, H, causal, mask ? "yes" : "no");

    /* q[b][h][t][e] = (x[b][t] . wq)[h*D+e] */
    float *q = malloc(sizeof(float) * B * T * d), *k = malloc(sizeof(float) * B * T * d);
    float *v = malloc(sizeof(float) * B * T * d), *y = malloc(sizeof(float) * B * T * d);
    float *w = malloc(sizeof(float) * T);
#define IDX(b, h, t, e) ((((size_t)(b) * H + (h)) * T + (t)) * D + (e))
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int c = 0; c < d; c++) {
                float sq = 0, sk = 0, sv = 0;
                for (int i = 0; i < d; i++) {
                    float xi = x[((size_t)b * T + t) * d + i];
                    sq += xi * wq[i * d + c]; sk += xi * wk[i * d + c]; sv += xi * wv[i * d + c];
                }
                q[IDX(b, c / D, t, c % D)] = sq;
                k[IDX(b, c / D, t, c % D)] = sk;
                v[IDX(b, c / D, t, c % D)] = sv;
            }

    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY, sum = 0;
                for (int j = 0; j < T; j++) {
                    w[j] = -INFINITY;
                    if ((causal && j > i) || (mask && !mask[b * T + j])) continue;
                    float s = 0;
                    for (int e = 0; e < D; e++) s += q[IDX(b, h, i, e)] * k[IDX(b, h, j, e)];
                    w[j] = s / sqrtf((float)D);
                    mx = fmaxf(mx, w[j]);
                }
                for (int j = 0; j < T; j++) {
                    w[j] = (w[j] == -INFINITY) ? 0.0f : expf(w[j] - mx);
                    sum += w[j];
                }
                for (int e = 0; e < D; e++) {
                    float a = 0;
                    for (int j = 0; j < T; j++) a += w[j] * v[IDX(b, h, j, e)];
                    y[((size_t)b * T + i) * d + h * D + e] = sum > 0 ? a / sum : 0.0f;
                }
            }

    for (int r = 0; r < B * T; r++)
        for (int c = 0; c < d; c++) {
            float a = 0;
            for (int m = 0; m < d; m++) a += y[(size_t)r * d + m] * wo[m * d + c];
            out[(size_t)r * d + c] = a;
        }
    free(q); free(k); free(v); free(y); free(w);
}
