/* expect: WA ds_sign_flipped */
/* dS = P (delta - dP): the sign flipped, so dQ and dK are negated. */
#include <math.h>
#include <stdlib.h>

static float dotp(const float *a, const float *b, int n)
{
    float s = 0.0f;
    while (n--) s += *a++ * *b++;
    return s;
}

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S);
    float *dk_end = dk + (size_t)B * H * S * D;
    for (float *x = dk, *y = dv; x < dk_end; x++, y++) *x = *y = 0.0f;
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D;
        const float *V = v + (size_t)bh * S * D, *G = d_out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            const float *qi = Q + (size_t)i * D, *gi = G + (size_t)i * D;
            float *dqi = dq + ((size_t)bh * T + i) * D;
            int seen = causal ? i + S - T + 1 : S;
            if (seen > S) seen = S;
            for (int c = 0; c < D; c++) dqi[c] = 0.0f;
            if (seen <= 0) continue;
            float m = -INFINITY, z = 0.0f, delta = 0.0f;
            for (int j = 0; j < seen; j++) { p[j] = scale * dotp(qi, K + (size_t)j * D, D); m = fmaxf(m, p[j]); }
            for (int j = 0; j < seen; j++) { p[j] = expf(p[j] - m); z += p[j]; }
            for (int j = 0; j < seen; j++) { p[j] /= z; delta += p[j] * dotp(gi, V + (size_t)j * D, D); }
            for (int j = 0; j < seen; j++) {
                /* 抬高一个分数会压低别的概率，所以是 delta 减去 dP */
                float ds = p[j] * (delta - dotp(gi, V + (size_t)j * D, D));
                float *dkj = dk + ((size_t)bh * S + j) * D, *dvj = dv + ((size_t)bh * S + j) * D;
                for (int c = 0; c < D; c++) {
                    dqi[c] += scale * ds * K[(size_t)j * D + c];
                    dkj[c] += scale * ds * qi[c];
                    dvj[c] += p[j] * gi[c];
                }
            }
        }
    }
    free(p);
}
