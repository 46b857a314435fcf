/* expect: WA dk_missing_scale */
/* Keys outer, delta from dO . out; the final scaling of dK is forgotten. */
#include <math.h>
#include <stdlib.h>

static float dotf(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int c = 0; c < n; c++) s += a[c] * b[c];
    return s;
}

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    float *lse = malloc(sizeof(float) * T), *delta = malloc(sizeof(float) * T);
    float *o = malloc(sizeof(float) * D);
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            long qo = ((long)b * H + h) * T * D, ko = ((long)b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                int n = causal ? i + S - T + 1 : S;
                if (n > S) n = S;
                lse[i] = -INFINITY;
                delta[i] = 0.0f;
                if (n <= 0) continue;
                /* online log-sum-exp, then out_i, then delta_i = dO_i . out_i */
                float m = -INFINITY, l = 0.0f;
                for (int j = 0; j < n; j++) {
                    float s = scale * dotf(q + qo + i * D, k + ko + j * D, D);
                    if (s > m) { l *= expf(m - s); m = s; }
                    l += expf(s - m);
                }
                lse[i] = m + logf(l);
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                for (int j = 0; j < n; j++) {
                    float p = expf(scale * dotf(q + qo + i * D, k + ko + j * D, D) - lse[i]);
                    for (int c = 0; c < D; c++) o[c] += p * v[ko + j * D + c];
                }
                delta[i] = dotf(d_out + qo + i * D, o, D);
            }
            for (long e = 0; e < (long)T * D; e++) dq[qo + e] = 0.0f;
            for (int j = 0; j < S; j++) {
                float *dkj = dk + ko + j * D, *dvj = dv + ko + j * D;
                for (int c = 0; c < D; c++) dkj[c] = dvj[c] = 0.0f;
                for (int i = 0; i < T; i++) {
                    if (causal && j > i + S - T) continue;
                    const float *qi = q + qo + i * D, *gi = d_out + qo + i * D;
                    float p = expf(scale * dotf(qi, k + ko + j * D, D) - lse[i]);
                    float ds = p * (dotf(gi, v + ko + j * D, D) - delta[i]);
                    for (int c = 0; c < D; c++) {
                        dvj[c] += p * gi[c];
                        dkj[c] += ds * qi[c];
                        dq[qo + i * D + c] += scale * ds * k[ko + j * D + c];
                    }
                }
            }
        }
    free(lse);
    free(delta);
    free(o);
}
