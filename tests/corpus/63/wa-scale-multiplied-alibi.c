/* expect: WA scale_multiplied */
/* 缩放写反了：分数乘以 sqrt(D) 而不是除以 sqrt(D)；软截断、ALiBi 和因果掩码都是对的。
 * The score is multiplied by sqrt(D) instead of divided by it. */
#include <math.h>
#include <stdlib.h>

/* 第 h 个头的 ALiBi 斜率 2^(-8(h+1)/H) */
static float alibi_slope(int h, int H)
{
    return exp2f(-8.0f * (float)(h + 1) / (float)H);
}

/* 一个可见键的分数：缩放 -> 软截断 -> 偏置 */
static float build_score(const float *qi, const float *kj, int D,
                         float scale, int cap, float slope, int dist)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += qi[c] * kj[c];
    s = s * scale;
    if (cap > 0) s = (float)cap * tanhf(s / (float)cap);
    return s + slope * (float)dist;
}

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    const float scale = sqrtf((float)D);
    float *sc = (float *)malloc(sizeof(float) * (size_t)S);

    for (int h = 0; h < H; h++) {
        const float slope = alibi ? alibi_slope(h, H) : 0.0f;
        for (int b = 0; b < B; b++) {
            const float *Qb = q + (size_t)(b * H + h) * T * D;
            const float *Kb = k + (size_t)(b * H + h) * S * D;
            const float *Vb = v + (size_t)(b * H + h) * S * D;
            float *Ob = out + (size_t)(b * H + h) * T * D;

            for (int i = 0; i < T; i++) {
                const int pos = S - T + i;      /* KV 缓存偏移 */
                const int n = pos + 1;          /* 可见的键 0..pos */
                float mx = -INFINITY;
                for (int j = 0; j < n; j++) {
                    sc[j] = build_score(Qb + i * D, Kb + j * D, D, scale, cap, slope, j - pos);
                    if (sc[j] > mx) mx = sc[j];
                }
                float z = 0.0f;
                for (int j = 0; j < n; j++) z += (sc[j] = expf(sc[j] - mx));
                const float inv_z = 1.0f / z;

                float *o = Ob + i * D;
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                for (int j = 0; j < n; j++) {
                    const float w = sc[j] * inv_z;
                    const float *vj = Vb + j * D;
                    for (int c = 0; c < D; c++) o[c] += w * vj[c];
                }
            }
        }
    }
    free(sc);
}
