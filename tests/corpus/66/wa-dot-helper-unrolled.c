/* expect: WA dot_tail_dropped */
/* One dot helper unrolled by 4 with no tail, for q.k, dO.v and dO.out alike. */
#include <math.h>
#include <stdlib.h>

static inline float dot4(const float *restrict a, const float *restrict b, int D)
{
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    int c = 0;
    for (; c + 4 <= D; c += 4) {
        s0 += a[c] * b[c];
        s1 += a[c + 1] * b[c + 1];
        s2 += a[c + 2] * b[c + 2];
        s3 += a[c + 3] * b[c + 3];
    }
    return (s0 + s1) + (s2 + s3);
}

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *delta = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qb = q + (long)bh * T * D, *kb = k + (long)bh * S * D;
        const float *vb = v + (long)bh * S * D, *ob = out + (long)bh * T * D;
        const float *gb = d_out + (long)bh * T * D, *lb = lse + (long)bh * T;
        float *dqb = dq + (long)bh * T * D, *dkb = dk + (long)bh * S * D, *dvb = dv + (long)bh * S * D;
        for (int i = 0; i < T; i++) delta[i] = dot4(gb + i * D, ob + i * D, D);
        for (long e = 0; e < (long)T * D; e++) dqb[e] = 0.0f;
        for (long e = 0; e < (long)S * D; e++) dkb[e] = dvb[e] = 0.0f;
        for (int j = 0; j < S; j++) {
            int i_first = causal ? j - (S - T) : 0;
            if (i_first < 0) i_first = 0;
            for (int i = i_first; i < T; i++) {
                float p = expf(scale * dot4(qb + i * D, kb + j * D, D) - lb[i]);
                float ds = scale * p * (dot4(gb + i * D, vb + j * D, D) - delta[i]);
                for (int c = 0; c < D; c++) {
                    dvb[j * D + c] += p * gb[i * D + c];
                    dkb[j * D + c] += ds * qb[i * D + c];
                    dqb[i * D + c] += ds * kb[j * D + c];
                }
            }
        }
    }
    free(delta);
}
