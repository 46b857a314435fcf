/* expect: WA mask_after_softmax */
/* The softmax is normalised over all S keys and the hidden keys are zeroed afterwards, so the visible probabilities no longer sum to 1. */
#include <math.h>
#include <stdlib.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S);
    float *dp = malloc(sizeof(float) * S);
    for (long e = 0; e < (long)B * H * S * D; e++) { dk[e] = 0.0f; dv[e] = 0.0f; }

    for (int bh = 0; bh < B * H; bh++) {
        const float *qb = q + (long)bh * T * D, *kb = k + (long)bh * S * D;
        const float *vb = v + (long)bh * S * D, *gb = d_out + (long)bh * T * D;
        float *dqb = dq + (long)bh * T * D, *dkb = dk + (long)bh * S * D, *dvb = dv + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            float mx = -INFINITY, sum = 0.0f;
            for (int j = 0; j < S; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                p[j] = scale * s;
                if (p[j] > mx) mx = p[j];
            }
            for (int j = 0; j < S; j++) { p[j] = expf(p[j] - mx); sum += p[j]; }
            for (int j = 0; j < S; j++) {
                p[j] /= sum;
                if (causal && j > i + S - T) p[j] = 0.0f;   /* apply the mask */
            }
            float delta = 0.0f;
            for (int j = 0; j < S; j++) {
                float t = 0.0f;
                for (int c = 0; c < D; c++) t += gb[i * D + c] * vb[j * D + c];
                dp[j] = t;
                delta += p[j] * t;
            }
            for (int c = 0; c < D; c++) dqb[i * D + c] = 0.0f;
            for (int j = 0; j < S; j++) {
                if (p[j] == 0.0f) continue;
                float ds = p[j] * (dp[j] - delta);
                for (int c = 0; c < D; c++) {
                    dqb[i * D + c] += scale * ds * kb[j * D + c];
                    dkb[j * D + c] += scale * ds * qb[i * D + c];
                    dvb[j * D + c] += p[j] * gb[i * D + c];
                }
            }
        }
    }
    free(p);
    free(dp);
}
