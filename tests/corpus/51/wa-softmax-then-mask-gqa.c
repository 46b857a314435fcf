/* expect: WA mask_after_softmax */
/* Takes the softmax over all S keys (max and sum over every key), then sets the
 * weights of the causally hidden keys to 0 and never renormalises, so a causal
 * row's weights sum to less than 1. */
#include <math.h>

/* 下标宏：q/out 是 [B,H,T,D]，k/v 是 [B,Hkv,S,D] */
#define QIDX(b, h, i, c) ((((b) * H + (h)) * T + (i)) * D + (c))
#define KIDX(b, g, j, c) ((((b) * Hkv + (g)) * S + (j)) * D + (c))

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    const int per_group = H / Hkv;           /* 每个 kv 头服务几个查询头 */
    const float inv_sqrt_d = 1.0f / sqrtf((float)D);
    float w[S];                               /* 一行的注意力权重 */

    for (int b = 0; b < B; ++b) {
        for (int h = 0; h < H; ++h) {
            const int g = h / per_group;      /* repeat_interleave 的配对 */
            for (int i = 0; i < T; ++i) {
                /* 先对所有 S 个键打分、做 softmax */
                float mx = -INFINITY;
                for (int j = 0; j < S; ++j) {
                    float dot = 0.0f;
                    for (int c = 0; c < D; ++c)
                        dot += q[QIDX(b, h, i, c)] * k[KIDX(b, g, j, c)];
                    w[j] = dot * inv_sqrt_d;
                    mx = fmaxf(mx, w[j]);
                }
                float z = 0.0f;
                for (int j = 0; j < S; ++j) {
                    w[j] = expf(w[j] - mx);
                    z += w[j];
                }
                for (int j = 0; j < S; ++j)
                    w[j] /= z;

                /* 再把看不见的键（未来位置）清零 */
                if (causal) {
                    int limit = i + (S - T);
                    for (int j = limit + 1; j < S; ++j)
                        w[j] = 0.0f;
                }

                for (int c = 0; c < D; ++c) {
                    float o = 0.0f;
                    for (int j = 0; j < S; ++j)
                        o += w[j] * v[KIDX(b, g, j, c)];
                    out[QIDX(b, h, i, c)] = o;
                }
            }
        }
    }
}
