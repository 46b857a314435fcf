/* expect: WA empty_cache_not_appended */
/* Per head, an online softmax over the cached rows and then the new token; a sequence with nothing cached takes the shortcut out = v and skips the append. */
#include <math.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const size_t row = (size_t)H * D;
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const float *qb = q + b * row, *kb = k + b * row, *vb = v + b * row;
        float *ob = out + b * row;
        if (len[b] == 0) {   /* 只有自己一个键，权重为 1 */
            memcpy(ob, vb, sizeof(float) * row);
            continue;
        }
        float *kc = k_cache + (size_t)b * S_max * row, *vc = v_cache + (size_t)b * S_max * row;
        const int n = len[b];
        memcpy(kc + n * row, kb, sizeof(float) * row);
        memcpy(vc + n * row, vb, sizeof(float) * row);
        for (int h = 0; h < H; h++) {
            float m = -INFINITY, l = 0.0f, acc[D];
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int j = 0; j <= n; j++) {
                const float *kr = kc + j * row + h * D, *vr = vc + j * row + h * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qb[h * D + c] * kr[c];
                s *= scale;
                float m2 = s > m ? s : m, a = expf(m - m2), e = expf(s - m2);
                l = l * a + e;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * a + e * vr[c];
                m = m2;
            }
            for (int c = 0; c < D; c++) ob[h * D + c] = acc[c] / l;
        }
        len[b] = n + 1;
    }
}
