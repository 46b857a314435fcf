/* expect: WA softmax_overflow */
/* Recomputes P with expf of the raw scaled scores and no row max subtracted, so large scores overflow to inf and the row turns into NaN. */
#include <math.h>
#include <string.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    const size_t nq = (size_t)B * H * T * D, nk = (size_t)B * H * S * D;
    memset(dq, 0, sizeof(float) * nq);
    memset(dk, 0, sizeof(float) * nk);
    memset(dv, 0, sizeof(float) * nk);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t oq = (size_t)(b * H + h) * T * D, ok = (size_t)(b * H + h) * S * D;
            for (int i = T - 1; i >= 0; i--) {
                int n = causal ? i + S - T + 1 : S;
                if (n > S) n = S;
                if (n <= 0) continue;
                const float *qi = q + oq + (size_t)i * D, *gi = d_out + oq + (size_t)i * D;
                float e[n];
                double o[D];
                float l = 0.0f;
                for (int j = 0; j < n; j++) {
                    const float *kj = k + ok + (size_t)j * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                    e[j] = expf(s * scale);
                    l += e[j];
                }
                for (int c = 0; c < D; c++) o[c] = 0.0;
                for (int j = 0; j < n; j++) {
                    e[j] /= l;
                    for (int c = 0; c < D; c++) o[c] += (double)e[j] * v[ok + (size_t)j * D + c];
                }
                double delta = 0.0;   /* dO_i . out_i */
                for (int c = 0; c < D; c++) delta += gi[c] * o[c];
                for (int j = 0; j < n; j++) {
                    const float *kj = k + ok + (size_t)j * D, *vj = v + ok + (size_t)j * D;
                    double dp = 0.0;
                    for (int c = 0; c < D; c++) dp += gi[c] * vj[c];
                    float ds = (float)(e[j] * (dp - delta)) * scale;
                    for (int c = 0; c < D; c++) {
                        dq[oq + (size_t)i * D + c] += ds * kj[c];
                        dk[ok + (size_t)j * D + c] += ds * qi[c];
                        dv[ok + (size_t)j * D + c] += e[j] * gi[c];
                    }
                }
            }
        }
}
