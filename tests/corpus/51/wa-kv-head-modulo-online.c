/* expect: WA kv_head_modulo */
/* Online softmax; the kv head is h % Hkv (heads interleaved) instead of h / (H / Hkv). */
#include <math.h>
#include <stddef.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int g = h % Hkv;   /* the kv head this query head shares */
            const float *Q = q + ((size_t)b * H + h) * T * D;
            const float *K = k + ((size_t)b * Hkv + g) * S * D;
            const float *V = v + ((size_t)b * Hkv + g) * S * D;
            float *O = out + ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int last = causal ? i + (S - T) : S - 1;
                float m = -INFINITY, l = 0.0f;
                float *o = O + i * D;
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                for (int j = 0; j <= last; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                    s *= scale;
                    float mn = fmaxf(m, s);
                    float corr = expf(m - mn), p = expf(s - mn);
                    l = l * corr + p;
                    for (int c = 0; c < D; c++) o[c] = o[c] * corr + p * V[j * D + c];
                    m = mn;
                }
                for (int c = 0; c < D; c++) o[c] /= l;
            }
        }
    }
}
