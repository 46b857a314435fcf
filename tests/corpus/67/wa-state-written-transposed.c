/* expect: WA state_read_transposed */
/* From an einsum: S written as [E, D] but read as [D, E]. */
#include <math.h>
#include <stdlib.h>

static float phi(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

/* kv = phi(k).unsqueeze(-1) * v.unsqueeze(-2)  -> 累加到 S */
static void outer_add(float *S, const float *fk, const float *vi, int D, int E)
{
    for (int e = 0; e < E; e++)
        for (int c = 0; c < D; c++) S[e * D + c] += fk[c] * vi[e];
}

/* num = phi(q) @ S */
static void vec_mat(float *num, const float *fq, const float *S, int D, int E)
{
    for (int e = 0; e < E; e++) {
        num[e] = 0.0f;
        for (int c = 0; c < D; c++) num[e] += fq[c] * S[c * E + e];
    }
}

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float *S = malloc(sizeof(float) * (size_t)D * E);
    float *z = malloc(sizeof(float) * D);
    float *fk = malloc(sizeof(float) * D);
    float *fq = malloc(sizeof(float) * D);
    for (int bh = 0; bh < B * H; bh++) {
        for (int c = 0; c < D * E; c++) S[c] = 0.0f;
        for (int c = 0; c < D; c++) z[c] = 0.0f;
        for (int i = 0; i < T; i++) {
            size_t row = (size_t)bh * T + i;
            for (int c = 0; c < D; c++) {
                fk[c] = phi(k[row * D + c]);
                fq[c] = phi(q[row * D + c]);
                z[c] += fk[c];
            }
            outer_add(S, fk, v + row * E, D, E);
            float den = 0.0f;
            for (int c = 0; c < D; c++) den += fq[c] * z[c];
            vec_mat(out + row * E, fq, S, D, E);
            for (int e = 0; e < E; e++) out[row * E + e] /= den;
        }
    }
    free(S);
    free(z);
    free(fk);
    free(fq);
}
