/* expect: AC */
/* C99 variable-length arrays on the stack (about 100 KB at the largest size), 2-D array views of x and the weights. */
#include <math.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    const int D = d / n_heads;
    const float scale = 1.0f / sqrtf((float)D);
    const float (*Wq)[d] = (const float (*)[d])wq, (*Wk)[d] = (const float (*)[d])wk;
    const float (*Wv)[d] = (const float (*)[d])wv, (*Wo)[d] = (const float (*)[d])wo;

    for (int b = 0; b < B; b++) {
        const float (*X)[d] = (const float (*)[d])(x + (long)b * T * d);
        float (*O)[d] = (float (*)[d])(out + (long)b * T * d);
        float q[T][d], k[T][d], v[T][d], y[T][d], p[T];

        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                q[t][j] = k[t][j] = v[t][j] = 0;
                for (int i = 0; i < d; i++) {
                    q[t][j] += X[t][i] * Wq[i][j];
                    k[t][j] += X[t][i] * Wk[i][j];
                    v[t][j] += X[t][i] * Wv[i][j];
                }
            }

        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY, sum = 0;
                for (int j = 0; j < T; j++) {
                    p[j] = -INFINITY;
                    if (causal && j > i) continue;
                    if (mask && !mask[b * T + j]) continue;
                    float s = 0;
                    for (int e = h * D; e < (h + 1) * D; e++) s += q[i][e] * k[j][e];
                    p[j] = s * scale;
                    if (p[j] > mx) mx = p[j];
                }
                if (mx > -INFINITY)
                    for (int j = 0; j < T; j++) { p[j] = expf(p[j] - mx); sum += p[j]; }
                for (int e = h * D; e < (h + 1) * D; e++) {
                    float a = 0;
                    if (sum > 0)
                        for (int j = 0; j < T; j++) a += p[j] * v[j][e];
                    y[i][e] = sum > 0 ? a / sum : 0.0f;
                }
            }

        for (int t = 0; t < T; t++)
            for (int c = 0; c < d; c++) {
                float a = 0;
                for (int m = 0; m < d; m++) a += y[t][m] * Wo[m][c];
                O[t][c] = a;
            }
    }
}
