/* expect: WA first_key_skipped */
/* The key loops count down while j > 0: key 0 is never attended. */
#include <math.h>
#include <float.h>
#include <stdlib.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    size_t grp = (size_t)(H / Hkv);
    float scale = 1.0f / sqrtf((float)D);
    for (size_t b = 0; b < (size_t)B; b++)
        for (size_t h = 0; h < (size_t)H; h++) {
            const float *Kh = k + (b * Hkv + h / grp) * S * D;
            const float *Vh = v + (b * Hkv + h / grp) * S * D;
            for (int i = T - 1; i >= 0; i--) {
                const float *qi = q + ((b * H + h) * T + i) * D;
                float *oi = out + ((b * H + h) * T + i) * D;
                int last = causal ? i + S - T : S - 1;
                float sc[S + 1];
                float mx = -FLT_MAX, sum = 0.0f;
                for (int j = last; j > 0; j--) {
                    float s = 0.0f;
                    for (int c = D - 1; c >= 0; c--) s += qi[c] * Kh[j * D + c];
                    sc[j] = s * scale;
                    if (sc[j] > mx) mx = sc[j];
                }
                for (int j = last; j > 0; j--) { sc[j] = expf(sc[j] - mx); sum += sc[j]; }
                for (int c = D - 1; c >= 0; c--) {
                    float acc = 0.0f;
                    for (int j = last; j > 0; j--) acc += sc[j] * Vh[j * D + c];
                    oi[c] = sum > 0.0f ? acc / sum : 0.0f;
                }
            }
        }
}
