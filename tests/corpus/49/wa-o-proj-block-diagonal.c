/* expect: WA o_proj_per_head */
/* wo is applied inside each head using only its D x D diagonal block, so heads are never mixed by the output projection. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* O[T, D] = softmax(Q_h K_h^T / sqrt(D) + M) V_h for one head of one sequence */
static void attend_head(float *O, const float *q, const float *k, const float *v,
                        const unsigned char *keep, int T, int d, int D, int off,
                        int causal, float *p)
{
    float scale = 1.0f / sqrtf((float)D);
    for (int i = 0; i < T; i++) {
        float mx = -INFINITY;
        for (int j = 0; j < T; j++) {
            if ((causal && j > i) || (keep && !keep[j])) { p[j] = -INFINITY; continue; }
            float s = 0.0f;
            for (int c = 0; c < D; c++) s += q[i * d + off + c] * k[j * d + off + c];
            p[j] = s * scale;
            mx = fmaxf(mx, p[j]);
        }
        float z = 0.0f;
        for (int j = 0; j < T; j++) {
            p[j] = (p[j] == -INFINITY) ? 0.0f : expf(p[j] - mx);
            z += p[j];
        }
        for (int c = 0; c < D; c++) {
            float a = 0.0f;
            for (int j = 0; j < T; j++) a += p[j] * v[j * d + off + c];
            O[i * D + c] = z > 0.0f ? a / z : 0.0f;
        }
    }
}

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
    float *v = malloc(sizeof(float) * T * d);
    float *O = malloc(sizeof(float) * T * D);
    float *p = malloc(sizeof(float) * T);
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        float *ob = out + (size_t)b * T * d;
        proj(q, xb, wq, T, d);
        proj(k, xb, wk, T, d);
        proj(v, xb, wv, T, d);
        for (int h = 0; h < n_heads; h++) {
            attend_head(O, q, k, v, mask ? mask + b * T : NULL, T, d, D, h * D, causal, p);
            /* project this head's slice */
            for (int t = 0; t < T; t++)
                for (int j = 0; j < D; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++)
                        s += O[t * D + c] * wo[(h * D + c) * d + h * D + j];
                    ob[t * d + h * D + j] = s;
                }
        }
    }
    free(q); free(k); free(v); free(O); free(p);
}
