/* expect: WA topk_kept_flags_not_reset */
/* 每个头先把保留标记清零，然后对每个查询反复选出 topk 次最大值；标记在同一个头的各个查询之间没有清零。 */
#include <math.h>
#include <string.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float s[T];
    unsigned char kept[T], taken[T];
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const long base = ((long)b * H + h) * T * D;
            memset(kept, 0, sizeof kept);
            for (int i = 0; i < T; i++) {
                for (int j = 0; j <= i; j++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += q[base + i * D + c] * k[base + j * D + c];
                    s[j] = d * scale;
                }
                memset(taken, 0, sizeof taken);
                int want = topk < i + 1 ? topk : i + 1;
                for (int t = 0; t < want; t++) {   /* argmax over the keys not taken yet */
                    int best = -1;
                    for (int j = 0; j <= i; j++)
                        if (!taken[j] && (best < 0 || s[j] > s[best])) best = j;
                    taken[best] = kept[best] = 1;
                }
                float m = -INFINITY, l = 0.0f;
                for (int j = 0; j <= i; j++)
                    if (kept[j] && s[j] > m) m = s[j];
                for (int c = 0; c < D; c++) out[base + i * D + c] = 0.0f;
                for (int j = 0; j <= i; j++) {
                    if (!kept[j]) continue;
                    float p = expf(s[j] - m);
                    l += p;
                    for (int c = 0; c < D; c++) out[base + i * D + c] += p * v[base + j * D + c];
                }
                for (int c = 0; c < D; c++) out[base + i * D + c] /= l;
            }
        }
}
