/* expect: WA dq_assigned_not_summed */
/* Row by row: the softmax and delta of query i, then each key's terms; dK
 * and dV are summed over the queries, but dQ_i is assigned each key's term,
 * so it keeps the last key the query sees. */
#include <math.h>
#include <string.h>

#define MAXS 4096

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    static float p[MAXS], dp[MAXS];
    const float scale = 1.0f / sqrtf((float)D);
    memset(dk, 0, sizeof(float) * (size_t)B * H * S * D);
    memset(dv, 0, sizeof(float) * (size_t)B * H * S * D);
    memset(dq, 0, sizeof(float) * (size_t)B * H * T * D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *kb = k + (size_t)bh * S * D, *vb = v + (size_t)bh * S * D;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D, *gi = d_out + ((size_t)bh * T + i) * D;
            float *dqi = dq + ((size_t)bh * T + i) * D;
            int n = causal ? i + S - T + 1 : S;
            if (n > S) n = S;
            if (n <= 0) continue;
            float m = -INFINITY, l = 0.0f, delta = 0.0f;
            for (int j = 0; j < n; j++) {
                float s = 0.0f, t = 0.0f;
                for (int c = 0; c < D; c++) {
                    s += qi[c] * kb[j * D + c];
                    t += gi[c] * vb[j * D + c];
                }
                p[j] = s * scale;
                dp[j] = t;
                m = fmaxf(m, p[j]);
            }
            for (int j = 0; j < n; j++) l += (p[j] = expf(p[j] - m));
            for (int j = 0; j < n; j++) delta += (p[j] /= l) * dp[j];
            for (int j = 0; j < n; j++) {
                float ds = p[j] * (dp[j] - delta);
                for (int c = 0; c < D; c++) {
                    dqi[c] = scale * ds * kb[j * D + c];
                    dk[((size_t)bh * S + j) * D + c] += scale * ds * qi[c];
                    dv[((size_t)bh * S + j) * D + c] += p[j] * gi[c];
                }
            }
        }
    }
}
