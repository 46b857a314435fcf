/* expect: WA causal_offset_negated */
/* Online softmax per query, kv head h / group; the mask test is j > t - (S - T) (the sign of the offset flipped). A row that sees no key writes zeros. */
#include <math.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    const int group = H / Hkv;
    const float sc = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const int g = h / group;
            for (int t = 0; t < T; t++) {
                const float *qt = q + (((long)b * H + h) * T + t) * D;
                float *ot = out + (((long)b * H + h) * T + t) * D;
                float m = -INFINITY, l = 0.0f;
                for (int c = 0; c < D; c++) ot[c] = 0.0f;
                for (int j = 0; j < S; j++) {
                    if (causal && j > t - (S - T)) break;
                    const float *kj = k + (((long)b * Hkv + g) * S + j) * D;
                    const float *vj = v + (((long)b * Hkv + g) * S + j) * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qt[c] * kj[c];
                    s *= sc;
                    float m2 = s > m ? s : m;
                    float a = expf(m - m2), w = expf(s - m2);
                    l = l * a + w;
                    for (int c = 0; c < D; c++) ot[c] = ot[c] * a + w * vj[c];
                    m = m2;
                }
                if (l > 0.0f)
                    for (int c = 0; c < D; c++) ot[c] /= l;
            }
        }
}
