/* expect: WA causal_tile_skip_no_offset */
/* Key tiles of 32 with an online softmax; the loop stops at the first tile starting past i, the offset S - T left out of the tile test (the per-key test has it). */
#include <math.h>
#include <stddef.h>

#define KT 32

static float dot(const float *a, const float *b, int D)
{
    float s0 = 0.0f, s1 = 0.0f;
    int c = 0;
    for (; c + 1 < D; c += 2) {
        s0 += a[c] * b[c];
        s1 += a[c + 1] * b[c + 1];
    }
    if (c < D) s0 += a[c] * b[c];
    return s0 + s1;
}

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    const int off = S - T;
    float sc[KT];
    for (int b = 0; b < B; b++) {
        const unsigned char *mb = mask ? mask + (size_t)b * S : NULL;
        for (int h = 0; h < H; h++) {
            size_t bh = (size_t)b * H + h;
            const float *K = k + bh * S * D, *V = v + bh * S * D;
            for (int i = 0; i < T; i++) {
                const float *qi = q + (bh * T + i) * D;
                float *oi = out + (bh * T + i) * D;
                float m = -INFINITY, l = 0.0f;
                for (int c = 0; c < D; c++) oi[c] = 0.0f;
                for (int j0 = 0; j0 < S; j0 += KT) {
                    if (causal && j0 > i) break;          /* rest of the keys are in the future */
                    int n = S - j0 < KT ? S - j0 : KT;
                    float tm = -INFINITY;
                    for (int t = 0; t < n; t++) {
                        int j = j0 + t;
                        if ((causal && j > i + off) || (mb && !mb[j])) { sc[t] = -INFINITY; continue; }
                        sc[t] = dot(qi, K + (size_t)j * D, D) * scale;
                        if (sc[t] > tm) tm = sc[t];
                    }
                    if (tm == -INFINITY) continue;
                    float mn = tm > m ? tm : m;
                    float corr = expf(m - mn);
                    l *= corr;
                    for (int c = 0; c < D; c++) oi[c] *= corr;
                    for (int t = 0; t < n; t++) {
                        if (sc[t] == -INFINITY) continue;
                        float p = expf(sc[t] - mn);
                        const float *vj = V + (size_t)(j0 + t) * D;
                        l += p;
                        for (int c = 0; c < D; c++) oi[c] += p * vj[c];
                    }
                    m = mn;
                }
                float inv = l > 0.0f ? 1.0f / l : 0.0f;
                for (int c = 0; c < D; c++) oi[c] *= inv;
            }
        }
    }
}
