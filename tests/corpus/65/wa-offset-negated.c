/* expect: WA causal_offset_negated */
/* The reference row by row, with the keys a query sees counted as i - (S - T) + 1: the offset subtracted. */
#include <math.h>
#include <stdlib.h>

static float dot(const float *x, const float *y, int D)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += x[c] * y[c];
    return s;
}

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S);
    for (long i = 0; i < (long)B * H * S * D; i++) dk[i] = dv[i] = 0.0f;
    for (int bh = 0; bh < B * H; bh++) {
        const float *qb = q + (long)bh * T * D, *kb = k + (long)bh * S * D;
        const float *vb = v + (long)bh * S * D, *gb = d_out + (long)bh * T * D;
        float *dqb = dq + (long)bh * T * D, *dkb = dk + (long)bh * S * D, *dvb = dv + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            const float *qi = qb + (long)i * D, *gi = gb + (long)i * D;
            float *dqi = dqb + (long)i * D;
            int seen = causal ? i - (S - T) + 1 : S;
            if (seen > S) seen = S;
            for (int c = 0; c < D; c++) dqi[c] = 0.0f;
            if (seen <= 0) continue;   /* a query that sees no key: no gradient */
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j < seen; j++) {
                p[j] = scale * dot(qi, kb + (long)j * D, D);
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j < seen; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            float delta = 0.0f;   /* rowsum(dP o P) */
            for (int j = 0; j < seen; j++) {
                p[j] /= sum;
                delta += p[j] * dot(gi, vb + (long)j * D, D);
            }
            for (int j = 0; j < seen; j++) {
                float ds = p[j] * (dot(gi, vb + (long)j * D, D) - delta);
                for (int c = 0; c < D; c++) {
                    dqi[c] += scale * ds * kb[(long)j * D + c];
                    dkb[(long)j * D + c] += scale * ds * qi[c];
                    dvb[(long)j * D + c] += p[j] * gi[c];
                }
            }
        }
    }
    free(p);
}
